package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockCacheTest {
    @TempDir
    Path dir;

    private Path table(String name, int keys) throws Exception {
        Path path = dir.resolve(name);
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(path, options, 1, 1, 0)) {
            for (int i = 0; i < keys; i++) {
                w.add(Entry.put(String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII), i + 1, new byte[40]));
            }
            w.finish(Long.MAX_VALUE);
        }
        return path;
    }

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void repeatedLookupsAreServedFromTheCache() throws Exception {
        BlockCache cache = BlockCache.ofBytes(1 << 20);
        try (SSTableReader r = SSTableReader.open(table("a.sst", 2000), cache)) {
            for (int i = 0; i < 2000; i += 10) {
                assertThat(r.get(key(i), Long.MAX_VALUE)).isNotNull();
            }
            long cold = r.pagesRead();
            for (int i = 0; i < 2000; i += 10) {
                assertThat(r.get(key(i), Long.MAX_VALUE)).isNotNull();
            }
            assertThat(r.pagesRead()).isEqualTo(cold);
            assertThat(cache.hits()).isPositive();
        }
        assertThat(cache.weightedBytes()).as("pages of a closed file are dropped").isZero();
    }

    @Test
    void theCacheStaysWithinItsByteBound() throws Exception {
        BlockCache cache = BlockCache.ofBytes(16 * 512);
        try (SSTableReader r = SSTableReader.open(table("b.sst", 5000), cache)) {
            for (int i = 0; i < 5000; i++) {
                r.get(key(i), Long.MAX_VALUE);
            }
            r.scan().forEachRemaining(e -> { });
            assertThat(cache.weightedBytes()).isLessThanOrEqualTo(16 * 512);
        }
        assertThatThrownBy(() -> BlockCache.ofBytes(-1)).hasMessageContaining(">= 0 bytes");
    }

    @Test
    void twoFilesShareOneCacheWithoutMixingPages() throws Exception {
        BlockCache cache = BlockCache.ofBytes(1 << 20);
        Path a = table("c.sst", 300);
        Path b = dir.resolve("d.sst");
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(b, options, 1, 1, 0)) {
            for (int i = 0; i < 300; i++) {
                w.add(Entry.put(key(i), i + 1, "other".getBytes()));
            }
            w.finish(Long.MAX_VALUE);
        }
        try (SSTableReader ra = SSTableReader.open(a, cache); SSTableReader rb = SSTableReader.open(b, cache)) {
            for (int i = 0; i < 300; i++) {
                assertThat(ra.get(key(i), Long.MAX_VALUE).value()).hasSize(40);
                assertThat(rb.get(key(i), Long.MAX_VALUE).value()).isEqualTo("other".getBytes());
            }
        }
    }

    private Path table(String name, int keys, int pageSize, int valueBytes) throws Exception {
        Path path = dir.resolve(name);
        SSTableOptions options = SSTableOptions.builder().pageSize(pageSize).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(path, options, 1, 1, 0)) {
            for (int i = 0; i < keys; i++) {
                w.add(Entry.put(key(i), i + 1, value(i, valueBytes)));
            }
            w.finish(Long.MAX_VALUE);
        }
        return path;
    }

    /** A value that names its key, so a page read from reused memory would show. */
    private static byte[] value(int i, int bytes) {
        byte[] v = new byte[bytes];
        for (int j = 0; j < bytes; j++) {
            v[j] = (byte) (i * 31 + j);
        }
        return v;
    }

    @Test
    void cachedPagesLiveOffTheHeapWithinTheCapacity() throws Exception {
        BlockCache cache = BlockCache.ofBytes(4 << 20);
        try (SSTableReader r = SSTableReader.open(table("e.sst", 4000, 4096, 200), cache)) {
            for (int i = 0; i < 4000; i++) {
                assertThat(r.get(key(i), Long.MAX_VALUE).value()).isEqualTo(value(i, 200));
            }
            assertThat(cache.reservedBytes()).isPositive().isLessThanOrEqualTo(cache.capacityBytes());
            assertThat(cache.weightedBytes()).isPositive()
                    .isLessThanOrEqualTo((long) (cache.capacityBytes() * (1 - BlockCache.HEADROOM)));
        }
    }

    @Test
    void aCacheMissAllocatesFarLessThanThePageOnTheHeap() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int pageSize = 64 * 1024;
        BlockCache cache = BlockCache.ofBytes(64 << 20);
        try (SSTableReader r = SSTableReader.open(table("f.sst", 2000, pageSize, 1000), cache)) {
            r.get(key(0), Long.MAX_VALUE); // pins the internal pages and loads the classes
            long misses = 0;
            long before = threads.getCurrentThreadAllocatedBytes();
            long pagesBefore = r.pagesRead();
            for (int i = 100; i < 2000; i += 60) { // a new leaf each time (about 60 entries per leaf)
                r.get(key(i), Long.MAX_VALUE);
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            misses = r.pagesRead() - pagesBefore;
            assertThat(misses).as("leaves read from the file").isGreaterThan(20);
            assertThat(allocated / misses).as("heap bytes allocated per cache-missing get")
                    .isLessThan(pageSize / 4);
        }
    }

    @Test
    void aShortPageReadIntoMemoryThatHeldALongerOneUsesOnlyItsOwnBytes() throws Exception {
        // Room for 2 pages of 4 KiB: full pages of small entries and short pages of two large entries each take
        // turns in the same slots, so a short page lands where a longer one left its bytes.
        BlockCache cache = BlockCache.ofBytes(3 * 4096);
        try (SSTableReader full = SSTableReader.open(table("full.sst", 2000, 4096, 100), cache);
             SSTableReader sparse = SSTableReader.open(table("sparse.sst", 200, 4096, 1500), cache)) {
            for (int i = 0; i < 200; i++) {
                assertThat(full.get(key(i * 10), Long.MAX_VALUE).value()).isEqualTo(value(i * 10, 100));
                assertThat(sparse.get(key(i), Long.MAX_VALUE).value()).isEqualTo(value(i, 1500));
            }
            assertThat(sparse.offsets().length(0)).as("a short page").isLessThan(full.offsets().length(0) - 800);
        }
    }

    @Test
    void aPageEvictedWhileInUseKeepsItsBytesUntilReleased() throws Exception {
        // room for 2 pages of 4 KiB: every lookup of another leaf evicts, and the arena reuses the memory
        BlockCache cache = BlockCache.ofBytes(3 * 4096);
        try (SSTableReader r = SSTableReader.open(table("g.sst", 3000, 4096, 100), cache)) {
            try (TableCursor c = r.seek(key(0), Long.MAX_VALUE)) {
                for (int i = 1000; i < 3000; i += 7) { // other leaves through the same cache while c holds leaf 0
                    assertThat(r.get(key(i), Long.MAX_VALUE).value()).isEqualTo(value(i, 100));
                }
                for (int i = 0; i < 30; i++) { // the cursor's leaf is intact
                    assertThat(c.next().value()).isEqualTo(value(i, 100));
                }
            }
        }
    }

    @Test
    void concurrentReadersThroughATinyCacheAlwaysSeeTheirOwnPages() throws Exception {
        BlockCache cache = BlockCache.ofBytes(6 * 4096);
        Path path = table("h.sst", 20_000, 4096, 100);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (SSTableReader r = SSTableReader.open(path, cache)) {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int seed = t;
                tasks.add(() -> {
                    java.util.Random random = new java.util.Random(seed);
                    int checked = 0;
                    for (int n = 0; n < 20_000; n++) {
                        int i = random.nextInt(20_000);
                        if (n % 500 == 0) { // a short scan holds its leaf while others evict around it
                            try (TableCursor c = r.seek(key(i), Long.MAX_VALUE)) {
                                for (int j = i; j < Math.min(i + 40, 20_000); j++) {
                                    Entry e = c.next();
                                    assertThat(e.key()).isEqualTo(key(j));
                                    assertThat(e.value()).isEqualTo(value(j, 100));
                                }
                            }
                        }
                        Entry e = r.get(key(i), Long.MAX_VALUE);
                        assertThat(e.value()).as("key %d", i).isEqualTo(value(i, 100));
                        checked++;
                    }
                    return checked;
                });
            }
            for (Future<Integer> f : pool.invokeAll(tasks)) {
                assertThat(f.get()).isEqualTo(20_000);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(cache.weightedBytes()).as("pages of a closed file are dropped").isZero();
    }

    /** Keys of every leaf of a table written by {@link #table(String, int, int, int)}: one per 20 entries. */
    private static int leaves(SSTableReader r, int keys) throws Exception {
        long before = r.pagesRead();
        for (int i = 0; i < keys; i += 20) {
            r.get(key(i), Long.MAX_VALUE);
        }
        return (int) (r.pagesRead() - before);
    }

    @Test
    void theEvictionBoundFitsTheMemoryTheArenaCanTake() throws Exception {
        BlockCache cache = BlockCache.ofBytes(3 << 19); // 1.5 MiB: the arena takes one 1 MiB block
        try (SSTableReader r = SSTableReader.open(table("i.sst", 40_000, 4096, 150), cache)) {
            leaves(r, 40_000); // far more leaves than fit
            assertThat(cache.reservedBytes()).isEqualTo(1 << 20);
            assertThat(cache.weightedBytes()).as("cached bytes: evictions keep room in the arena")
                    .isLessThanOrEqualTo((long) ((1 << 20) * (1 - BlockCache.HEADROOM)));
        }
    }

    @Test
    void tablesOfDifferentPageSizesShareTheCache() throws Exception {
        BlockCache cache = BlockCache.ofBytes(1 << 20); // one block
        try (SSTableReader small = SSTableReader.open(table("j.sst", 20_000, 4096, 150), cache);
             SSTableReader large = SSTableReader.open(table("k.sst", 2_000, 8192, 150), cache)) {
            leaves(small, 20_000); // the block serves 4 KiB pages, and the cache is full of them
            int first = leaves(large, 2_000);
            int second = leaves(large, 2_000);
            assertThat(first).isPositive();
            assertThat(second).as("8 KiB leaves read again on a second pass (of %d)", first)
                    .isLessThan(first / 2);
        }
    }
}
