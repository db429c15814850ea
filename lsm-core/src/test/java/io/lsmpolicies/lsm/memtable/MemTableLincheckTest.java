package io.lsmpolicies.lsm.memtable;

import static org.assertj.core.api.Assertions.assertThatCode;

import io.lsmpolicies.lsm.sstable.Entry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of the MemTable with Lincheck: the store's contract is one writer at a time (its
 * write lock) and any number of readers, so puts and deletes are in one non-parallel group while gets and full
 * scans run beside them. Every concurrent history must match some sequential order of the same operations; the
 * sequential specification is this class run on one thread. Checked by stress testing: 20 scenarios of 3 threads
 * x 3 operations, 1,000 runs each. Lincheck 2.34's model checking cannot instrument code that touches a static
 * field of a Java record ({@code Entry.ORDER}: "can't get base address on a record class"), so it is not used.
 */
@Param(name = "key", gen = IntGen.class, conf = "1:4")
@Param(name = "value", gen = IntGen.class, conf = "1:9")
public class MemTableLincheckTest {
    private final MemTable table = new MemTable();
    private long sequence; // written by the writer group only, one operation at a time
    /** The newest sequence a read may see: published after each add, as the store publishes its own. */
    private final AtomicLong visible = new AtomicLong();

    private static byte[] key(int k) {
        return new byte[] {(byte) k};
    }

    @Operation(nonParallelGroup = "writer")
    public void put(@Param(name = "key") int k, @Param(name = "value") int v) {
        table.add(Entry.put(key(k), ++sequence, new byte[] {(byte) v}));
        visible.set(sequence);
    }

    @Operation(nonParallelGroup = "writer")
    public void delete(@Param(name = "key") int k) {
        table.add(Entry.delete(key(k), ++sequence));
        visible.set(sequence);
    }

    /** The newest value of the key, or 0 if absent or deleted. */
    @Operation
    public int get(@Param(name = "key") int k) {
        Entry e = table.get(key(k), visible.get());
        return e == null || e.tombstone() ? 0 : e.value()[0];
    }

    /**
     * Every key's newest value as of the visible sequence, in key order ("k=v"; deleted keys left out). The
     * sequence bound is what makes a scan a snapshot: the skip list's own iterator is only weakly consistent, and
     * without the bound Lincheck finds a scan that sees a later put but not an earlier delete.
     */
    @Operation
    public String scan() {
        long snapshot = visible.get();
        List<String> out = new ArrayList<>();
        byte[] last = null;
        for (Iterator<Entry> it = table.iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.sequence() > snapshot) {
                continue; // written after the scan began
            }
            if (last != null && last[0] == e.key()[0]) {
                continue; // an older version of the same key
            }
            last = e.key();
            if (!e.tombstone()) {
                out.add(e.key()[0] + "=" + e.value()[0]);
            }
        }
        return String.join(",", out);
    }

    @Test
    void stress() {
        // LinChecker throws an error describing the first non-linearizable history it finds
        assertThatCode(() -> LinChecker.Companion.check(MemTableLincheckTest.class, new StressOptions()
                .iterations(20).invocationsPerIteration(1_000).threads(3).actorsPerThread(3)))
                .doesNotThrowAnyException();
    }
}
