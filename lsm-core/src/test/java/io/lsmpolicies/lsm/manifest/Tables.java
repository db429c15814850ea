package io.lsmpolicies.lsm.manifest;

import java.nio.charset.StandardCharsets;

/** Table records from literals, for tests: {@code table(7, 1, "c", "f")}. */
final class Tables {
    private Tables() {
    }

    /** Table {@code n} at {@code level} over keys {@code min..max}; other fields derived from {@code n}. */
    static TableRecord table(long n, int level, String min, String max) {
        return new TableRecord(n, level, 1000 * n, 10 * n, n % 3, bytes(min), bytes(max), 100 * n, 100 * n + 9,
                n, n + 1, 1_700_000_000_000L + n, n % 3 == 0 ? Long.MAX_VALUE : 1_600_000_000_000L + n,
                900 * n);
    }

    /** A level-0 table {@code n} over keys {@code a..z}, as a flush writes it. */
    static TableRecord flushed(long n) {
        return table(n, 0, "a", "z");
    }

    /** The edit a flush of table {@code n} logs. */
    static ManifestEdit flush(long n) {
        return ManifestEdit.builder().addTable(flushed(n)).nextFileNumber(n + 1).lastSequence(100 * n + 9).build();
    }

    /** The edit that installs a merge of {@code inputs} into level-0 table {@code output}. */
    static ManifestEdit merge(long output, long... inputs) {
        ManifestEdit.Builder b = ManifestEdit.builder().addTable(flushed(output)).nextFileNumber(output + 1);
        for (long n : inputs) {
            b.removeFile(n);
        }
        return b.build();
    }

    /** The set after flushes of tables 1..count. */
    static ComponentSet flushes(int count) {
        ComponentSet set = ComponentSet.empty();
        for (long n = 1; n <= count; n++) {
            set = set.apply(flush(n));
        }
        return set;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
