package io.lsmpolicies.lsm.log;

/** What a log file holds; the id is stored in the file header and never reused. */
public enum LogKind {
    /** Write-ahead log segment. */
    WAL(1),
    /** Manifest: component-set edits. */
    MANIFEST(2);

    private final int id;

    LogKind(int id) {
        this.id = id;
    }

    /** The stable id written to disk. */
    public int id() {
        return id;
    }

    /** The kind with stored id {@code id}, or null. */
    static LogKind byId(int id) {
        for (LogKind k : values()) {
            if (k.id == id) {
                return k;
            }
        }
        return null;
    }
}
