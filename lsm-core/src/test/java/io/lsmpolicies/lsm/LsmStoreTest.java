package io.lsmpolicies.lsm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LsmStoreTest {
    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    static String s(byte[] b) {
        return b == null ? null : new String(b, UTF_8);
    }

    private StoreOptions.Builder small() {
        return StoreOptions.builder().memtableBytes(8 * 1024).walMode(SyncMode.ASYNC).policy("binomial:k=3");
    }

    @Test
    void putGetDeleteScanAcrossFlushesMergesAndReopen() throws IOException {
        try (LsmStore store = LsmStore.open(dir, small().build())) {
            for (int i = 0; i < 3000; i++) {
                store.put(b(String.format("key%05d", i)), b("v" + i));
            }
            for (int i = 0; i < 3000; i += 3) {
                store.delete(b(String.format("key%05d", i)));
            }
            store.flush();
            store.awaitMerges();
            assertThat(store.metrics().flushes().count()).isGreaterThan(10);
            assertThat(store.metrics().merges().count()).isGreaterThan(0);
            assertThat(s(store.get(b("key00001")))).isEqualTo("v1");
            assertThat(store.get(b("key00003"))).isNull();
            assertThat(store.components().tableCount()).isLessThanOrEqualTo(4);
        }
        try (LsmStore store = LsmStore.open(dir, small().build())) {
            assertThat(s(store.get(b("key02997")))).isNull();
            assertThat(s(store.get(b("key02998")))).isEqualTo("v2998");
            List<String> keys = new ArrayList<>();
            try (StoreIterator it = store.scan(b("key00010"), b("key00020"))) {
                it.forEachRemaining(kv -> keys.add(s(kv.key())));
            }
            assertThat(keys).containsExactly("key00010", "key00011", "key00013", "key00014", "key00016",
                    "key00017", "key00019");
        }
    }

    /**
     * A scan opened while its entries are in MemTables (the active one and immutable ones) reads them where they
     * lie in the MemTables' chunks; it reads the same entries after those MemTables were flushed and dropped, later
     * writes were flushed and merged, and the collector ran. Gets after the flush read the tables.
     */
    @Test
    void aScanHeldAcrossFlushesReadsTheMemTablesItOpenedOn() throws IOException {
        try (LsmStore store = LsmStore.open(dir, small().memtableBytes(64 * 1024).build())) {
            for (int i = 0; i < 400; i++) { // 400 entries of about 200 bytes: the active MemTable and a flushed one
                store.put(b(String.format("key%05d", i)), b("first" + i + "x".repeat(180)));
            }
            StoreIterator it = store.scan(b("key00000"), null);
            store.flush();
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < 400; i++) {
                    store.put(b(String.format("key%05d", i)), b("later" + round + "-" + i + "y".repeat(180)));
                }
                store.flush();
                System.gc();
            }
            store.awaitMerges();
            try (it) {
                for (int i = 0; i < 400; i++) {
                    KeyValue kv = it.next();
                    assertThat(s(kv.key())).isEqualTo(String.format("key%05d", i));
                    assertThat(s(kv.value())).isEqualTo("first" + i + "x".repeat(180));
                }
                assertThat(it.hasNext()).isFalse();
            }
            assertThat(s(store.get(b("key00007")))).isEqualTo("later4-7" + "y".repeat(180));
        }
    }

    /** A value that names its key and round, so that a reader can tell a whole value from recycled bytes. */
    private static byte[] selfDescribing(int key, int round) {
        return b(("key" + key + "@" + round + ";").repeat(12));
    }

    /**
     * Gets and scans race a writer whose small MemTables are flushed, and their chunks handed to the next ones,
     * every few dozen puts: every value a reader sees is whole, one some put wrote for that key.
     */
    @Test
    void readsRacingFlushesSeeOnlyWholeValues() throws Exception {
        try (LsmStore store = LsmStore.open(dir, small().memtableBytes(16 * 1024).build())) {
            int keys = 300;
            java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            List<java.util.concurrent.Future<Integer>> readers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int thread = t;
                readers.add(pool.submit(() -> {
                    java.util.SplittableRandom random = new java.util.SplittableRandom(thread);
                    int reads = 0;
                    do {
                        int k = random.nextInt(keys);
                        byte[] v = store.get(b(String.format("key%05d", k)));
                        if (v != null) {
                            String value = s(v);
                            assertThat(value).startsWith("key" + k + "@");
                            assertThat(value).isEqualTo(s(selfDescribing(k, Integer.parseInt(
                                    value.substring(value.indexOf('@') + 1, value.indexOf(';'))))));
                        }
                        if (reads % 50 == 0) {
                            try (StoreIterator it = store.scan(b(String.format("key%05d", k)), null)) {
                                for (int n = 0; n < 20 && it.hasNext(); n++) {
                                    KeyValue kv = it.next();
                                    int key = Integer.parseInt(s(kv.key()).substring(3));
                                    assertThat(s(kv.value())).startsWith("key" + key + "@");
                                }
                            }
                        }
                        reads++;
                    } while (writing.get());
                    return reads;
                }));
            }
            try {
                for (int round = 0; round < 8; round++) {
                    for (int k = 0; k < keys; k++) {
                        store.put(b(String.format("key%05d", k)), selfDescribing(k, round));
                    }
                }
            } finally {
                writing.set(false);
            }
            for (java.util.concurrent.Future<Integer> r : readers) {
                assertThat(r.get()).isPositive();
            }
            pool.shutdown();
            assertThat(store.metrics().flushes().count()).isGreaterThan(20);
        }
    }

    @Test
    void unflushedWritesSurviveAReopenThroughTheWal() throws IOException {
        try (LsmStore store = LsmStore.open(dir, small().memtableBytes(1 << 20).build())) {
            store.write(new WriteBatch().put(b("a"), b("1")).put(b("b"), b("2")).delete(b("a")));
        }
        try (LsmStore store = LsmStore.open(dir, small().build())) {
            assertThat(store.get(b("a"))).isNull();
            assertThat(s(store.get(b("b")))).isEqualTo("2");
        }
    }

    @Test
    void snapshotsSeeAFixedState() throws IOException {
        try (LsmStore store = LsmStore.open(dir, small().build())) {
            store.put(b("k"), b("old"));
            try (Snapshot snap = store.snapshot()) {
                for (int i = 0; i < 2000; i++) {
                    store.put(b("k"), b("new" + i));
                    store.put(b("filler" + i), new byte[64]);
                }
                store.delete(b("k"));
                store.compactAll();
                assertThat(s(store.get(b("k"), snap))).isEqualTo("old");
                assertThat(store.get(b("k"))).isNull();
            }
        }
    }

    @Test
    void oversizedKeysAndValuesAreRefusedWithTheLimit() throws IOException {
        try (LsmStore store = LsmStore.open(dir, small().build())) {
            assertThatThrownBy(() -> store.put(new byte[2000], b("x")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit of 1024 bytes");
            assertThatThrownBy(() -> store.put(b("k"), new byte[5000]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxValueBytes");
        }
    }

    @Test
    void aDirectoryOfOtherDataIsRefused() throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "mine");
        assertThatThrownBy(() -> LsmStore.open(dir, small().build())).isInstanceOf(IOException.class)
                .hasMessageContaining("notes.txt");
    }

    @Test
    void aSecondOpenOfTheSameDirectoryIsRefused() throws IOException {
        try (LsmStore store = LsmStore.open(dir, small().build())) {
            assertThatThrownBy(() -> LsmStore.open(dir, small().build())).isInstanceOf(IOException.class)
                    .hasMessageContaining("already open");
        }
    }

    @Test
    void replacedFilesAreDeleted() throws IOException {
        try (LsmStore store = LsmStore.open(dir, small().build())) {
            for (int i = 0; i < 5000; i++) {
                store.put(b("key" + i), new byte[100]);
            }
            store.compactAll();
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.filter(p -> p.toString().endsWith(".sst")).count()).isEqualTo(1);
            }
        }
    }

    @Test
    void mergingTheMemTableDirectlyKeepsTheScheduleAndWritesLess() throws IOException {
        List<List<Long>> shapes = new ArrayList<>();
        List<Double> wa = new ArrayList<>();
        for (MergeOrder order : MergeOrder.values()) {
            Path d = dir.resolve(order.name());
            try (LsmStore store = LsmStore.open(d, small().mergeOrder(order).build())) {
                for (int i = 0; i < 4000; i++) {
                    store.put(b(String.format("key%05d", (i * 7919) % 4000)), b("v" + i));
                    if (i % 100 == 99) {
                        store.flush();
                        store.awaitMerges();
                    }
                }
                store.flush();
                store.awaitMerges();
                List<Long> entries = new ArrayList<>();
                store.components().level(0).forEach(t -> entries.add(t.entries()));
                shapes.add(entries);
                wa.add(store.metrics().amplification().modelWrite());
                for (int i = 3990; i < 4000; i++) {
                    assertThat(s(store.get(b(String.format("key%05d", (i * 7919) % 4000))))).isEqualTo("v" + i);
                }
            }
        }
        assertThat(shapes.get(1)).isEqualTo(shapes.get(0));
        assertThat(wa.get(1)).isLessThan(wa.get(0));
    }

    /**
     * An I/O failure (here: the next file names are taken by directories, so creating the next WAL segment or
     * SSTable fails) fails the write that hit it with the cause, stops later writes with that first cause,
     * leaves every acknowledged write readable, and a reopen recovers all of them.
     */
    @Test
    void anIoFailureFailsTheWriteKeepsTheStoreReadableAndAReopenRecovers() throws IOException {
        StoreOptions options = small().walMode(SyncMode.SYNC).build();
        long acknowledged = 0;
        List<Path> blockers = new ArrayList<>();
        try (LsmStore store = LsmStore.open(dir, options)) {
            for (; acknowledged < 200; acknowledged++) {
                store.put(b("key" + acknowledged), b("v" + acknowledged));
            }
            long next = store.components().nextFileNumber();
            for (long n = next; n < next + 64; n++) {
                for (String name : List.of(String.format("%06d.sst", n), String.format("%06d.log", n))) {
                    try { // a flush or merge running in the background may take the number first
                        blockers.add(Files.createDirectory(dir.resolve(name)));
                    } catch (java.nio.file.FileAlreadyExistsException taken) {
                        // taken by the store: the number is not free to block (checking first was a race)
                    }
                }
            }
            IOException failure = null;
            for (int i = 0; i < 10_000 && failure == null; i++) {
                try {
                    store.put(b("key" + acknowledged), b("v" + acknowledged));
                    acknowledged++;
                } catch (IOException e) {
                    failure = e;
                }
            }
            assertThat(failure).as("a write fails once a file cannot be created").isNotNull();
            assertThat(failure).hasStackTraceContaining("FileAlreadyExistsException");
            assertThatThrownBy(() -> store.put(b("later"), b("x"))).isInstanceOf(IOException.class)
                    .hasStackTraceContaining("FileAlreadyExistsException");
            for (long i = 0; i < acknowledged; i++) {
                assertThat(s(store.get(b("key" + i)))).isEqualTo("v" + i);
            }
        }
        for (Path p : blockers) {
            Files.delete(p);
        }
        try (LsmStore store = LsmStore.open(dir, options)) {
            for (long i = 0; i < acknowledged; i++) {
                assertThat(s(store.get(b("key" + i)))).as("acknowledged key%d after reopen", i).isEqualTo("v" + i);
            }
            assertThat(store.get(b("later"))).isNull();
        }
        assertThat(StoreVerifier.verify(dir).ok()).isTrue();
    }

    @Test
    void spaceAmplificationCountsOverwrittenVersionsUntilAMergeDropsThem() throws IOException {
        try (LsmStore store = LsmStore.open(dir, small().policy("no-merge").build())) {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 1000; i++) {
                    store.put(b(String.format("key%05d", i)), new byte[200]);
                }
                store.flush();
            }
            SpaceUsage before = store.spaceUsage();
            assertThat(before.liveEntries()).isEqualTo(1000);
            assertThat(before.liveBytes()).isEqualTo(1000 * (8 + 200));
            assertThat(before.spaceAmplification()).as("two versions of every key on disk").isGreaterThan(1.0);
            store.compactAll();
            SpaceUsage after = store.spaceUsage();
            assertThat(after.liveBytes()).isEqualTo(before.liveBytes());
            assertThat(after.spaceAmplification()).isLessThan(before.spaceAmplification() / 2);
            assertThat(after.sstableBytes()).isEqualTo(store.components().level(0).get(0).fileBytes());
        }
    }
}
