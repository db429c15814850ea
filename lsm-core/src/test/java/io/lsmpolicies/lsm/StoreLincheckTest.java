package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Linearizability of the whole store with Lincheck, in stress mode: puts, deletes and gets over three
 * keys, and reads through snapshots, run by three threads at once on a store whose MemTable holds two records,
 * so that MemTables rotate, flushes run and the policy's merges run on the store's background threads while the
 * scenario does. Every concurrent history must match some sequential order of the same operations on a plain
 * map ({@link Spec}).
 *
 * <p>The store's contract ({@link LsmStore}: "any number of threads may read and write") allows every operation
 * to run beside every other, writers included, so no operation is in a non-parallel group: concurrent writers
 * meet in the write lock and the WAL's group commit, and publish their sequence numbers out of order.
 *
 * <p>A snapshot must be a consistent cut that does not change: {@link Store#snapshotScan} takes one, scans the
 * keys through it, flushes the store (so the versions it sees move into an SSTable, and merges may follow), then
 * scans and gets each key through it again; anything different is returned as a failure. Lincheck creates a new
 * instance of {@link Store}, and so a new store, for every run of a scenario; {@link Store#close} (a validation
 * function, run after each run) closes it and deletes its directory. Stores live in memory where the system
 * allows ({@link MemoryTempDirs}): the test is about threads, not the device.
 *
 * <p>Checked against two deliberate bugs, each reported within this budget: a get that skips the immutable
 * MemTables, and a snapshot that is not pinned (a flush then drops a version the snapshot needs).
 */
class StoreLincheckTest {
    /** Set by the JUnit test before Lincheck starts creating instances. */
    private static volatile String policy;
    private static Path root;
    private static final AtomicInteger STORES = new AtomicInteger();
    /** Stores of runs that failed before their validation function closed them. */
    private static final List<Store> OPEN = new ArrayList<>();
    /** Flushes and merges that ran during the scenarios (the constructor's flush and close's are not counted). */
    private static final LongAdder RUNS = new LongAdder();
    private static final LongAdder FLUSHES = new LongAdder();
    private static final LongAdder MERGES = new LongAdder();

    /** Two records fill a MemTable (4 KiB, the least): every second put rotates it. */
    private static final int VALUE_BYTES = 1500;
    /** A key outside the scenario's, flushed before it so that its first flushes already meet a table to merge. */
    private static final int BACKGROUND_KEY = 0;

    /** The store under test, one per run of a scenario (Lincheck creates the instances). */
    @Param(name = "key", gen = IntGen.class, conf = "1:3")
    @Param(name = "value", gen = IntGen.class, conf = "1:5")
    public static class Store {
        private final Path dir;
        private final LsmStore store;

        public Store() throws IOException {
            dir = root.resolve("s" + STORES.incrementAndGet());
            store = LsmStore.open(dir, StoreOptions.builder().policy(policy).memtableBytes(4096)
                    .walMode(SyncMode.SYNC).blockCacheBytes(0).maxKeyBytes(8).subcompactionBytes(4096).build());
            synchronized (OPEN) {
                OPEN.add(this);
            }
            store.put(key(BACKGROUND_KEY), value(9));
            store.flush();
        }

        private static byte[] key(int k) {
            return new byte[] {'k', (byte) ('0' + k)};
        }

        private static byte[] value(int v) {
            byte[] bytes = new byte[VALUE_BYTES];
            Arrays.fill(bytes, (byte) v);
            return bytes;
        }

        /** The value a read returns: its byte, or 0 if absent; a value of the wrong length or content is -1. */
        private static int decode(byte[] value) {
            if (value == null) {
                return 0;
            }
            byte b = value[0];
            for (byte x : value) {
                if (x != b) {
                    return -1;
                }
            }
            return value.length == VALUE_BYTES ? b : -1;
        }

        @Operation
        public void put(@Param(name = "key") int k, @Param(name = "value") int v) throws IOException {
            store.put(key(k), value(v));
        }

        @Operation
        public void delete(@Param(name = "key") int k) throws IOException {
            store.delete(key(k));
        }

        /** The key's value, or 0 if absent or deleted. */
        @Operation
        public int get(@Param(name = "key") int k) throws IOException {
            return decode(store.get(key(k)));
        }

        /** Two keys read through one snapshot: "v1,v2". */
        @Operation
        public String snapshotGet(@Param(name = "key") int k1, @Param(name = "key") int k2) throws IOException {
            try (Snapshot s = store.snapshot()) {
                return decode(store.get(key(k1), s)) + "," + decode(store.get(key(k2), s));
            }
        }

        /**
         * The scenario's keys through one snapshot ("k=v" in key order, absent keys left out); then a flush, and the
         * same keys again by a scan and by gets through the same snapshot, which must read the same.
         */
        @Operation
        public String snapshotScan() throws IOException {
            try (Snapshot s = store.snapshot()) {
                String first = scan(s);
                store.flush();
                String again = scan(s);
                StringBuilder gets = new StringBuilder();
                for (int k = 1; k <= 3; k++) {
                    int v = decode(store.get(key(k), s));
                    if (v != 0) {
                        gets.append(gets.length() == 0 ? "" : ",").append(k).append('=').append(v);
                    }
                }
                if (!again.equals(first) || !gets.toString().equals(first)) {
                    return "the snapshot changed: " + first + " / after a flush " + again + " / by gets " + gets;
                }
                return first;
            }
        }

        private String scan(Snapshot s) throws IOException {
            StringBuilder out = new StringBuilder();
            try (StoreIterator it = store.scan(key(1), key(4), s)) {
                while (it.hasNext()) {
                    KeyValue kv = it.next();
                    out.append(out.length() == 0 ? "" : ",").append(kv.key()[1] - '0').append('=')
                            .append(decode(kv.value()));
                }
            }
            return out.toString();
        }

        /** After each run: closes the store and deletes its directory. */
        @Validate
        public void close() throws IOException {
            synchronized (OPEN) {
                OPEN.remove(this);
            }
            StoreMetrics m = store.metrics();
            RUNS.increment();
            FLUSHES.add(m.flushes().count() - 1);
            MERGES.add(m.merges().count());
            store.close();
            deleteTree(dir);
        }

    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The sequential specification: a map. */
    public static class Spec {
        private final Map<Integer, Integer> map = new TreeMap<>();

        public void put(int k, int v) {
            map.put(k, v);
        }

        public void delete(int k) {
            map.remove(k);
        }

        public int get(int k) {
            return map.getOrDefault(k, 0);
        }

        public String snapshotGet(int k1, int k2) {
            return get(k1) + "," + get(k2);
        }

        public String snapshotScan() {
            StringBuilder out = new StringBuilder();
            map.forEach((k, v) -> out.append(out.length() == 0 ? "" : ",").append(k).append('=').append(v));
            return out.toString();
        }
    }

    @BeforeAll
    static void makeRoot() throws IOException {
        root = MemoryTempDirs.create("lsm-lincheck-");
    }

    @AfterAll
    static void removeRoot() throws IOException {
        List<Store> left;
        synchronized (OPEN) {
            left = new ArrayList<>(OPEN);
            OPEN.clear();
        }
        for (Store t : left) {
            try {
                t.store.close();
            } catch (IOException | RuntimeException e) {
                // a run that failed; its directory goes below
            }
        }
        deleteTree(root);
    }

    @ParameterizedTest
    @ValueSource(strings = {"binomial:k=2",
            "leveled:l0-trigger=2,size-ratio=2,base-level-bytes=4096,target-file-bytes=2048"})
    void everyHistoryIsLinearizable(String spec) {
        policy = spec;
        RUNS.reset();
        FLUSHES.reset();
        MERGES.reset();
        // LinChecker throws an error describing the first non-linearizable history it finds
        assertThatCode(() -> LinChecker.Companion.check(Store.class, new StressOptions()
                .sequentialSpecification(Spec.class).iterations(10).invocationsPerIteration(150).threads(3)
                .actorsPerThread(3).actorsBefore(2).actorsAfter(2))).doesNotThrowAnyException();
        System.out.printf("StoreLincheckTest %s: %d runs, %d flushes and %d merges during them%n", spec, RUNS.sum(),
                FLUSHES.sum(), MERGES.sum());
        assertThat(MERGES.sum()).as("merges ran during the scenarios").isPositive();
    }
}
