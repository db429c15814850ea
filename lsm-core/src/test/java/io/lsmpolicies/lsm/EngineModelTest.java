package io.lsmpolicies.lsm;

import static io.lsmpolicies.lsm.EngineTestSupport.assertLevelInvariants;
import static io.lsmpolicies.lsm.EngineTestSupport.drain;
import static io.lsmpolicies.lsm.EngineTestSupport.format;
import static io.lsmpolicies.lsm.EngineTestSupport.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Model-based randomized test: random operations on the store and on a {@code TreeMap} oracle (keys in
 * unsigned-byte order), with every read compared to the oracle. Operations: puts (updates of a small key space,
 * values of 0 to 600 bytes), deletes, write batches (a key may repeat in a batch: the later operation wins),
 * point gets of present and absent keys, range scans with random (possibly open or inverted) bounds, snapshots
 * checked against a copy of the oracle taken with them after later writes, flushes, merges, compactions and
 * reopens. An 8 KiB MemTable makes a run of 3,000 operations flush and merge dozens of times.
 *
 * <p>Every failure names the seed and the operation; set {@code -Dlsm.test.seed=N} to change the seeds and
 * {@code -Dlsm.test.operations=N} for longer runs.
 */
class EngineModelTest {
    private static final long BASE_SEED = Long.getLong("lsm.test.seed", 0x5EED_0001L);
    private static final int OPERATIONS = Integer.getInteger("lsm.test.operations", 3000);
    private static final int KEY_SPACE = 200;
    private static final int MAX_KEY_BYTES = 12;

    @TempDir
    Path dir;

    static Stream<String> policies() {
        return EngineTestSupport.stackPolicySpecs().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void everyStackPolicyAgreesWithTheOracle(String policy) throws IOException {
        new Run(policy, 1, SyncMode.ASYNC, BASE_SEED ^ policy.hashCode()).run();
    }

    @ParameterizedTest(name = "{0}, 2 merge threads")
    @MethodSource("policies")
    void everyStackPolicyAgreesWithTheOracleWithTwoMergeThreads(String policy) throws IOException {
        new Run(policy, 2, SyncMode.OFF, BASE_SEED ^ policy.hashCode() ^ 2).run();
    }

    static Stream<String> leveledPolicies() {
        return EngineTestSupport.LEVELED_POLICY_SPECS.stream();
    }

    @ParameterizedTest(name = "{0}, 2 merge threads")
    @MethodSource("leveledPolicies")
    void leveledPoliciesAgreeWithTheOracle(String policy) throws IOException {
        new Run(policy, 2, SyncMode.ASYNC, BASE_SEED ^ policy.hashCode() ^ 5).run();
    }

    /** OFF loses nothing here: every reopen is a clean close, and close flushes the MemTables. */
    @ParameterizedTest(name = "WAL {0}")
    @EnumSource(SyncMode.class)
    void everyWalModeAgreesWithTheOracle(SyncMode mode) throws IOException {
        new Run("binomial:k=3", 2, mode, BASE_SEED ^ mode.ordinal() ^ 3).run();
    }

    /** A snapshot, with the oracle as it was when the snapshot was taken. */
    private record Taken(Snapshot snapshot, NavigableMap<byte[], byte[]> oracle, int atOperation) {
    }

    /** One randomized run against one store. */
    private final class Run {
        private final String policy;
        private final long seed;
        private final Random random;
        private final StoreOptions options;
        private final Path store;
        private final NavigableMap<byte[], byte[]> oracle = new TreeMap<>(Arrays::compareUnsigned);
        private final List<byte[]> keys;
        private final List<Taken> snapshots = new ArrayList<>();
        private final Deque<String> recent = new ArrayDeque<>();
        private LsmStore lsm;
        private int op;
        private int reopens;
        private long flushes;
        private long merges;

        Run(String policy, int mergeThreads, SyncMode wal, long seed) {
            this.policy = policy;
            this.seed = seed;
            this.random = new Random(seed);
            this.options = StoreOptions.builder().memtableBytes(8 * 1024).walMode(wal).policy(policy)
                    .mergeThreads(mergeThreads).maxImmutableMemtables(2)
                    .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build())
                    .blockCacheBytes(16 * 1024).maxKeyBytes(MAX_KEY_BYTES).build();
            this.store = dir.resolve("store-" + mergeThreads + "-" + wal);
            this.keys = keySpace();
        }

        /** Distinct keys of 1 to 12 arbitrary bytes (0x00 and 0xff included), so unsigned order matters. */
        private List<byte[]> keySpace() {
            TreeSet<byte[]> set = new TreeSet<>(Arrays::compareUnsigned);
            while (set.size() < KEY_SPACE) {
                set.add(randomKey());
            }
            List<byte[]> list = new ArrayList<>(set);
            java.util.Collections.shuffle(list, random);
            return list;
        }

        private byte[] randomKey() {
            byte[] k = new byte[1 + random.nextInt(MAX_KEY_BYTES)];
            random.nextBytes(k);
            return k;
        }

        /** Mostly a key of the key space; sometimes a key that was almost certainly never written. */
        private byte[] anyKey() {
            return random.nextInt(10) == 0 ? randomKey() : keys.get(random.nextInt(keys.size()));
        }

        private byte[] value() {
            int r = random.nextInt(100);
            int n = r < 10 ? 0 : r < 70 ? 1 + random.nextInt(40) : r < 95 ? 41 + random.nextInt(160)
                    : 201 + random.nextInt(400);
            byte[] v = new byte[n];
            random.nextBytes(v);
            return v;
        }

        /** A scan bound: open (null), a key of the key space, or an arbitrary key. */
        private byte[] bound() {
            int r = random.nextInt(5);
            return r == 0 ? null : anyKey();
        }

        private String where() {
            return "policy " + policy + ", seed " + seed + ", operation " + op + " (after " + reopens
                    + " reopens); last operations: " + recent;
        }

        private void log(String what) {
            if (recent.size() == 12) {
                recent.removeFirst();
            }
            recent.addLast(op + ":" + what);
        }

        void run() throws IOException {
            lsm = LsmStore.open(store, options);
            try {
                for (op = 0; op < OPERATIONS; op++) {
                    step();
                }
                op = OPERATIONS;
                log("final checks");
                checkEverything();
                for (Taken t : snapshots) {
                    checkSnapshotFully(t);
                }
                lsm.compactAll();
                checkEverything();
                for (Taken t : snapshots) {
                    checkSnapshotFully(t);
                }
                reopen();
                checkEverything();
                // The run must have exercised what it claims: many flushes, and merges unless the policy never merges.
                assertThat(flushes).as("flushes, %s", where()).isGreaterThan(30);
                if (!policy.equals("no-merge")) {
                    assertThat(merges).as("merges, %s", where()).isGreaterThan(3);
                }
            } finally {
                lsm.close();
            }
        }

        private void step() throws IOException {
            int r = random.nextInt(1000);
            if (r < 380) {
                byte[] k = anyKey();
                byte[] v = value();
                log("put " + hex(k) + " (" + v.length + " bytes)");
                lsm.put(k, v);
                oracle.put(k, v);
            } else if (r < 480) {
                byte[] k = anyKey();
                log("delete " + hex(k));
                lsm.delete(k);
                oracle.remove(k);
            } else if (r < 560) {
                writeBatch();
            } else if (r < 720) {
                byte[] k = anyKey();
                log("get " + hex(k));
                assertThat(lsm.get(k)).as("get %s, %s", hex(k), where()).isEqualTo(oracle.get(k));
            } else if (r < 790) {
                byte[] from = bound();
                byte[] to = bound();
                log("scan " + hex(from) + ".." + hex(to));
                assertThat(drain(lsm.scan(from, to))).as("scan [%s, %s), %s", hex(from), hex(to), where())
                        .containsExactlyElementsOf(format(range(oracle, from, to)));
            } else if (r < 820) {
                if (snapshots.size() < 4) {
                    log("snapshot");
                    snapshots.add(new Taken(lsm.snapshot(), new TreeMap<>(oracle), op));
                } else {
                    Taken t = snapshots.remove(random.nextInt(snapshots.size()));
                    log("release snapshot of operation " + t.atOperation());
                    checkSnapshotFully(t);
                    t.snapshot().close();
                }
            } else if (r < 900) {
                if (!snapshots.isEmpty()) {
                    checkSnapshotSample(snapshots.get(random.nextInt(snapshots.size())));
                }
            } else if (r < 915) {
                log("flush");
                lsm.flush();
                assertLevelInvariants(lsm, where());
            } else if (r < 922) {
                log("awaitMerges");
                lsm.awaitMerges();
                assertLevelInvariants(lsm, where());
            } else if (r < 926) {
                log("compactAll");
                lsm.compactAll();
                assertThat(lsm.components().tableCount()).as("tables after compactAll, %s", where())
                        .isLessThanOrEqualTo(1);
                checkEverything();
            } else if (r < 930) {
                reopen();
                checkEverything();
            } else {
                byte[] k = keys.get(random.nextInt(keys.size()));
                byte[] v = value();
                log("put " + hex(k) + " (" + v.length + " bytes)");
                lsm.put(k, v);
                oracle.put(k, v);
            }
        }

        /** 1 to 8 operations, keys possibly repeated; applied to the oracle in order, as the batch must be. */
        private void writeBatch() throws IOException {
            WriteBatch batch = new WriteBatch();
            NavigableMap<byte[], byte[]> after = new TreeMap<>(oracle);
            int n = 1 + random.nextInt(8);
            byte[] previous = null;
            for (int i = 0; i < n; i++) {
                byte[] k = previous != null && random.nextInt(4) == 0 ? previous : anyKey();
                if (random.nextInt(4) == 0) {
                    batch.delete(k);
                    after.remove(k);
                } else {
                    byte[] v = value();
                    batch.put(k, v);
                    after.put(k, v);
                }
                previous = k;
            }
            log("batch of " + n);
            lsm.write(batch);
            oracle.clear();
            oracle.putAll(after);
        }

        private void reopen() throws IOException {
            log("reopen");
            for (Taken t : snapshots) {
                checkSnapshotFully(t);
                t.snapshot().close();
            }
            snapshots.clear();
            lsm.close();
            StoreMetrics m = lsm.metrics(); // the counters of the session just closed, its closing flush included
            flushes += m.flushes().count();
            merges += m.merges().count();
            lsm = LsmStore.open(store, options);
            reopens++;
            assertLevelInvariants(lsm, where());
        }

        /** Every key of the key space by get, and the whole store by scan. */
        private void checkEverything() throws IOException {
            for (byte[] k : keys) {
                assertThat(lsm.get(k)).as("get %s, %s", hex(k), where()).isEqualTo(oracle.get(k));
            }
            assertThat(drain(lsm.scan(null, null))).as("full scan, %s", where())
                    .containsExactlyElementsOf(format(oracle));
            assertLevelInvariants(lsm, where());
        }

        private void checkSnapshotSample(Taken t) throws IOException {
            byte[] k = anyKey();
            log("get " + hex(k) + " at snapshot of operation " + t.atOperation());
            assertThat(lsm.get(k, t.snapshot())).as("get %s through the snapshot of operation %d, %s", hex(k),
                    t.atOperation(), where()).isEqualTo(t.oracle().get(k));
            byte[] from = bound();
            byte[] to = bound();
            log("scan " + hex(from) + ".." + hex(to) + " at snapshot of operation " + t.atOperation());
            assertThat(drain(lsm.scan(from, to, t.snapshot()))).as("scan [%s, %s) through the snapshot of "
                    + "operation %d, %s", hex(from), hex(to), t.atOperation(), where())
                    .containsExactlyElementsOf(format(range(t.oracle(), from, to)));
        }

        private void checkSnapshotFully(Taken t) throws IOException {
            for (byte[] k : keys) {
                assertThat(lsm.get(k, t.snapshot())).as("get %s through the snapshot of operation %d, %s", hex(k),
                        t.atOperation(), where()).isEqualTo(t.oracle().get(k));
            }
            assertThat(drain(lsm.scan(null, null, t.snapshot()))).as("full scan through the snapshot of "
                    + "operation %d, %s", t.atOperation(), where()).containsExactlyElementsOf(format(t.oracle()));
        }
    }

    /** The oracle's entries in {@code [from, to)}; null bounds are open; empty if {@code from > to}. */
    private static NavigableMap<byte[], byte[]> range(NavigableMap<byte[], byte[]> map, byte[] from, byte[] to) {
        if (from != null && to != null && Arrays.compareUnsigned(from, to) > 0) {
            return new TreeMap<>(Arrays::compareUnsigned);
        }
        NavigableMap<byte[], byte[]> m = map;
        if (from != null) {
            m = m.tailMap(from, true);
        }
        if (to != null) {
            m = m.headMap(to, false);
        }
        return m;
    }
}
