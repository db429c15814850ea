package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.TableRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Table records and component sets from literals, for the planner and scheduler tests. */
final class LiteralTables {
    private LiteralTables() {
    }

    /** Table {@code n} at {@code level} over keys {@code min..max}, holding flush {@code n} (1,000 bytes). */
    static TableRecord table(long n, int level, String min, String max) {
        return new TableRecord(n, level, 1000, 10, 0, bytes(min), bytes(max), 100 * n, 100 * n + 9, n, n,
                1_700_000_000_000L + n, Long.MAX_VALUE, 900);
    }

    /**
     * Level-0 table {@code n} over keys a..z holding flushes {@code first..last} (as a merge of them would: 1,000 bytes
     * per flush).
     */
    static TableRecord flushes(long n, long first, long last) {
        long count = last - first + 1;
        return new TableRecord(n, 0, 1000 * count, 10 * count, 0, bytes("a"), bytes("z"), 100 * first,
                100 * last + 9, first, last, 1_700_000_000_000L + n, Long.MAX_VALUE, 900 * count);
    }

    /** The set holding {@code tables}. */
    static ComponentSet set(TableRecord... tables) {
        ManifestEdit.Builder b = ManifestEdit.builder();
        long next = 1;
        long last = 0;
        for (TableRecord t : tables) {
            b.addTable(t);
            next = Math.max(next, t.fileNumber() + 1);
            last = Math.max(last, t.maxSequence());
        }
        return b.nextFileNumber(next).lastSequence(last).build().applyTo(ComponentSet.empty());
    }

    /** The numbers of the tables of {@code level}, in the set's order. */
    static List<Long> numbers(ComponentSet set, int level) {
        return set.level(level).stream().map(TableRecord::fileNumber).toList();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
