package io.lsmpolicies.feeds.server;

import java.nio.file.Path;

/**
 * A cluster descriptor the server refuses, with where and why: {@code conf/lsm-node.conf:12: port: must be in
 * [0, 65535], was 70000}. Line 0 means the file as a whole (e.g. a section that is missing).
 */
public final class ConfigException extends Exception {
    private final Path file;
    private final int line;
    private final String key;
    private final String reason;

    /**
     * @param file   the descriptor
     * @param line   the 1-based line, or 0 for the whole file
     * @param key    the key or section at fault, or null
     * @param reason why, in words
     */
    public ConfigException(Path file, int line, String key, String reason) {
        this(file, line, key, reason, null);
    }

    public ConfigException(Path file, int line, String key, String reason, Throwable cause) {
        super(file + (line > 0 ? ":" + line : "") + ": " + (key != null ? key + ": " : "") + reason, cause);
        this.file = file;
        this.line = line;
        this.key = key;
        this.reason = reason;
    }

    public Path file() {
        return file;
    }

    /** The 1-based line, or 0 for the whole file. */
    public int line() {
        return line;
    }

    /** The key or section at fault, or null. */
    public String key() {
        return key;
    }

    public String reason() {
        return reason;
    }
}
