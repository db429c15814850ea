package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockCacheTest {
    @TempDir
    Path dir;

    private Path table(String name, int keys) throws Exception {
        Path path = dir.resolve(name);
        try (SSTableWriter w = SSTableWriter.create(path, new SSTableOptions(512, 10), 1, 1, 0)) {
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
        try (SSTableWriter w = SSTableWriter.create(b, new SSTableOptions(512, 10), 1, 1, 0)) {
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
}
