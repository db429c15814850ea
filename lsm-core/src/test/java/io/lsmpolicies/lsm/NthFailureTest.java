package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.FaultLoad.Outcome;
import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nth-operation failures: a fixed load (puts over a small key space, flushes and merges, WAL sync)
 * runs once without faults to count each kind of file operation, then again with the n-th operation of one
 * kind failing, for a spread of n over each kind's whole count. Each time:
 * <ul>
 *   <li>the call that fails, or the first write after a background failure, reports an error whose cause chain
 *       names the injected failure, and every later write is refused the same way (the first error sticks);</li>
 *   <li>reads go on: every acknowledged key reads its acknowledged value (the write in flight may read either
 *       way), and none reads a false not-found;</li>
 *   <li>reopening (without faults) recovers the same, and {@code verify} passes.</li>
 * </ul>
 */
class NthFailureTest {
    private static final int OPERATIONS = 1500;
    private static final int KEYS = 300;

    @TempDir
    Path tmp;

    private static final StoreOptions OPTIONS = StoreOptions.builder().memtableBytes(8 * 1024)
            .walMode(SyncMode.SYNC).policy("binomial:k=3")
            .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build()).subcompactionBytes(4096)
            .blockCacheBytes(0).maxKeyBytes(32).build();

    private static byte[] key(int k) {
        return FaultLoad.key(k);
    }

    private static Outcome load(LsmStore store) {
        return FaultLoad.run(store, 99, OPERATIONS, KEYS);
    }

    static boolean namesTheInjection(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("injected failure")) {
                return true;
            }
            for (Throwable s : t.getSuppressed()) {
                if (namesTheInjection(s)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void assertReads(LsmStore store, Outcome o, String context) throws IOException {
        for (Map.Entry<Integer, byte[]> e : o.acked().entrySet()) {
            byte[] got = store.get(key(e.getKey()));
            if (o.pendingKey() != null && o.pendingKey().equals(e.getKey())
                    && Arrays.equals(got, o.pendingValue())) {
                continue; // the write in flight may have landed
            }
            assertThat(got).as("key %d: %s", e.getKey(), context).isEqualTo(e.getValue());
        }
    }

    /** In both orders: merges after their flush (merge tasks), and small merges folded into the flush. */
    @ParameterizedTest
    @EnumSource(value = MergeOrder.class, names = {"FLUSH_THEN_MERGE", "MERGE_MEMTABLE_SMALL"})
    void everyNthFailureIsReportedStopsWritesAndLosesNothingAcknowledged(MergeOrder order) throws Exception {
        StoreOptions options = OPTIONS.toBuilder().mergeOrder(order).build();
        FaultInjector counting = new FaultInjector(tmp.resolve("trash"));
        try (LsmStore store = LsmStore.open(tmp.resolve("count"), options, FileLayer.withFaults(counting))) {
            assertThat(load(store).error()).isNull();
        }
        Map<FileOp, Long> counts = new EnumMap<>(FileOp.class);
        for (FileOp op : FileOp.values()) {
            counts.put(op, counting.count(op));
        }
        System.out.println("NthFailureTest " + order + ": operations of a fault-free run: " + counts);
        int runs = 0;
        for (FileOp op : List.of(FileOp.WRITE, FileOp.SYNC, FileOp.RENAME, FileOp.DELETE, FileOp.DIRECTORY_SYNC)) {
            assertThat(counts.get(op)).as("the load performs %s", op).isPositive();
            for (long n : spread(counts.get(op))) {
                String context = op + " #" + n + " of " + counts.get(op);
                Path dir = tmp.resolve(op + "-" + n);
                FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
                faults.failNth(op, n, false);
                Outcome o;
                LsmStore store;
                try {
                    store = LsmStore.open(dir, options, FileLayer.withFaults(faults));
                } catch (IOException | RuntimeException e) { // the failure hit the store's creation
                    assertThat(namesTheInjection(e)).as("%s: %s", context, e).isTrue();
                    try (LsmStore reopened = LsmStore.open(dir, options)) {
                        assertThat(reopened.get(key(0))).isNull();
                    }
                    runs++;
                    continue;
                }
                try {
                    o = load(store);
                    if (o.error() != null) {
                        assertThat(namesTheInjection(o.error())).as("%s: %s", context, o.error()).isTrue();
                        Throwable again = null;
                        try {
                            store.put(key(0), new byte[1]);
                        } catch (IOException | RuntimeException e) {
                            again = e;
                        }
                        assertThat(again).as("writes after the failure are refused: %s", context).isNotNull();
                        assertThat(namesTheInjection(again)).as("the first error sticks: %s", context).isTrue();
                    }
                    assertReads(store, o, context);
                } finally {
                    try {
                        store.close();
                    } catch (IOException | RuntimeException e) {
                        // the store is failed; its WAL and manifest recover what was acknowledged
                    }
                }
                try (LsmStore reopened = LsmStore.open(dir, options)) {
                    assertReads(reopened, o, context + ", reopened");
                }
                assertThat(StoreVerifier.verify(dir).ok()).as(context).isTrue();
                runs++;
            }
        }
        System.out.println("NthFailureTest " + order + ": " + runs + " runs with one injected failure each");
    }

    /**
     * Regression (found by {@link RecoveryPowerLossTest}): a merge whose manifest sync failed deleted its output
     * tables, though its edit was already written to the manifest file (only the sync failed). Without a power loss
     * to cut that record off, the next open replayed the edit and refused the store for good ("the manifest lists
     * SSTables [44], which are not in ..."). The outputs now stay: live if the edit landed, orphans otherwise.
     */
    @Test
    void aMergeWhoseManifestSyncFailsLeavesAStoreThatOpens() throws Exception {
        AtomicBoolean armed = new AtomicBoolean(true);
        FaultHook failMergeManifestSync = new FaultHook() {
            @Override
            public void before(FileOp op, Path path) throws IOException {
                if (op == FileOp.SYNC && path.getFileName().toString().startsWith("MANIFEST-")
                        && Thread.currentThread().getName().startsWith("lsm-merge")
                        && armed.compareAndSet(true, false)) {
                    throw new IOException("injected failure: " + op + " of " + path + " installing a merge");
                }
            }
        };
        Path dir = tmp.resolve("store");
        Outcome o;
        // merges run by the merge thread after their flush
        StoreOptions options = OPTIONS.toBuilder().mergeOrder(MergeOrder.FLUSH_THEN_MERGE).build();
        LsmStore store = LsmStore.open(dir, options, FileLayer.withFaults(failMergeManifestSync));
        try {
            o = load(store);
        } finally {
            try {
                store.close();
            } catch (IOException | RuntimeException e) {
                // the store is failed
            }
        }
        assertThat(armed.get()).as("a merge installed an edit").isFalse();
        assertThat(o.error()).isNotNull();
        assertThat(namesTheInjection(o.error())).as("%s", o.error()).isTrue();
        try (LsmStore reopened = LsmStore.open(dir, options)) {
            assertReads(reopened, o, "reopened after a failed merge install");
        }
        assertThat(StoreVerifier.verify(dir).ok()).isTrue();
    }

    /** Ordinals 1..count spread out: the first few, then growing steps, and the last. */
    static List<Long> spread(long count) {
        List<Long> out = new ArrayList<>();
        for (long n = 1; n <= count; n = n < 4 ? n + 1 : n * 3 / 2 + 1) {
            out.add(n);
        }
        if (!out.contains(count)) {
            out.add(count);
        }
        return out;
    }
}
