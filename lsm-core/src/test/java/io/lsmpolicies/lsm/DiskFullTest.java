package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.FaultLoad.Outcome;
import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full device ({@code ENOSPC}) at every write, sync and rename of a small load with WAL {@code sync}, flushes and
 * merges: the load runs once without faults to count each kind of operation, then once per ordinal of each kind
 * with the device filling up there ({@link FaultInjector#diskFullAt}). A write where the device fills up is
 * tried both ways: failing outright, and storing half its bytes first (a short write, as {@code write(2)} returns
 * when the space runs out in the middle of it). After each run:
 * <ul>
 *   <li>the error names the full device ({@value FaultInjector#NO_SPACE}), and every later write is refused with
 *       it;</li>
 *   <li>while the store is still open, every acknowledged key reads its value and no key reads a value that was
 *       never written to it (the write in flight may read either way);</li>
 *   <li>once space is freed, writes are still refused with that error until the store is reopened (nothing is
 *       written after a failure, closing included); the store reopens, holds the same, and {@code verify}
 *       passes.</li>
 * </ul>
 * Regression: a short write that failed half-way was written again by the log's close at the advanced position,
 * leaving a segment that every later open refused ({@code CHECKSUM_MISMATCH}).
 */
class DiskFullTest {
    private static final int OPERATIONS = 250;
    private static final int KEYS = 80;
    private static final StoreOptions OPTIONS = StoreOptions.builder().memtableBytes(4 * 1024)
            .walMode(SyncMode.SYNC).policy("binomial:k=2")
            .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build()).subcompactionBytes(4096)
            .blockCacheBytes(0).maxKeyBytes(32).build();

    @TempDir(factory = MemoryTempDirs.class)
    Path tmp;

    private static byte[] key(int k) {
        return FaultLoad.key(k);
    }

    private static Outcome load(LsmStore store) {
        return FaultLoad.run(store, 7, OPERATIONS, KEYS);
    }

    static boolean namesNoSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains(FaultInjector.NO_SPACE)) {
                return true;
            }
        }
        return false;
    }

    /** Every key reads its acknowledged value, or the pending write's; a key never acknowledged may be absent. */
    private static void assertHolds(LsmStore store, Outcome o, String context) throws IOException {
        for (int k = 0; k < KEYS; k++) {
            byte[] got = store.get(key(k));
            if (o.pendingKey() != null && o.pendingKey() == k && java.util.Arrays.equals(got, o.pendingValue())) {
                continue; // the write in flight may have landed
            }
            assertThat(got).as("key %d: %s", k, context).isEqualTo(o.acked().get(k));
        }
    }

    @Test
    void theDeviceFillingUpAtAnyWriteSyncOrRenameLosesNothingAcknowledged() throws Exception {
        FaultInjector counting = new FaultInjector(tmp.resolve("trash"));
        try (LsmStore store = LsmStore.open(tmp.resolve("count"), OPTIONS, FileLayer.withFaults(counting))) {
            Outcome o = load(store);
            assertThat(o.error()).isNull();
            assertThat(store.metrics().merges().count()).as("the load merges").isPositive();
        }
        int runs = 0;
        int failed = 0;
        for (FileOp op : List.of(FileOp.WRITE, FileOp.SYNC, FileOp.RENAME)) {
            long count = counting.count(op);
            assertThat(count).as("the load performs %s", op).isPositive();
            for (boolean partial : op == FileOp.WRITE ? List.of(true, false) : List.of(false)) {
                for (long n = 1; n <= count; n++) {
                    String context = "device full at " + op + " #" + n + " of " + count + (partial ? ", a short write"
                            : "");
                    if (run(tmp.resolve(op + "-" + partial + "-" + n), op, n, partial, context)) {
                        failed++;
                    }
                    runs++;
                }
            }
        }
        System.out.println("DiskFullTest: " + runs + " runs, " + failed + " of them ran out of space; operations "
                + "of a fault-free run: writes=" + counting.count(FileOp.WRITE) + " syncs="
                + counting.count(FileOp.SYNC) + " renames=" + counting.count(FileOp.RENAME));
        assertThat(failed).as("runs that hit the full device").isGreaterThan(runs / 2);
    }

    private static void assertRefused(LsmStore store, String context) {
        Throwable again = null;
        try {
            store.put(key(0), new byte[1]);
        } catch (IOException | RuntimeException e) {
            again = e;
        }
        assertThat(again).as("writes after the failure are refused: %s", context).isNotNull();
        assertThat(namesNoSpace(again)).as("the first error sticks: %s: %s", context, again).isTrue();
    }

    /** One run; whether the load (or the store's creation) failed. */
    private boolean run(Path dir, FileOp op, long n, boolean partial, String context) throws Exception {
        FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
        FileLayer files = FileLayer.withFaults(faults);
        faults.diskFullAt(op, n, partial);
        LsmStore store;
        try {
            store = LsmStore.open(dir, OPTIONS, files);
        } catch (IOException | RuntimeException e) { // the device filled up while the store was created
            assertThat(namesNoSpace(e)).as("%s: %s", context, e).isTrue();
            faults.freeSpace();
            try (LsmStore reopened = LsmStore.open(dir, OPTIONS, files)) {
                assertHolds(reopened, new Outcome(Map.of(), null, null, e), context + ", reopened");
            }
            return true;
        }
        Outcome o;
        try {
            o = load(store);
            if (o.error() != null) {
                assertThat(namesNoSpace(o.error())).as("%s: %s", context, o.error()).isTrue();
                assertRefused(store, context);
                faults.freeSpace(); // the failed store stays failed: the files' state is known only after a reopen
                assertRefused(store, context + ", space freed");
            }
            assertHolds(store, o, context);
        } finally {
            faults.freeSpace();
            try {
                store.close();
            } catch (IOException | RuntimeException e) {
                // the store is failed; its WAL and manifest recover what was acknowledged
            }
        }
        try (LsmStore reopened = LsmStore.open(dir, OPTIONS, files)) {
            assertHolds(reopened, o, context + ", reopened");
        }
        StoreVerifier.Report report = StoreVerifier.verify(dir);
        assertThat(report.ok()).as("%s: verify: %s", context, report.problems()).isTrue();
        return o.error() != null;
    }
}
