package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory a read path holds is reported: leaf pages in the block cache, bounded by its capacity, and the index
 * pages each open table pins once it has used them (none before the first read after an open; no more on a second
 * pass over the same keys).
 */
class StoreMemoryMetricsTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return String.format("user%08d", i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void cachedLeavesStayWithinTheCacheAndIndexPagesArePinnedOnceUsed() throws Exception {
        long capacity = 64 * 1024;
        StoreOptions options = StoreOptions.builder().memtableBytes(256 * 1024).walMode(SyncMode.ASYNC)
                .policy("constant:k=1000").sstable(SSTableOptions.builder().pageSize(512).fitPageSize(false).build())
                .maxKeyBytes(64).blockCacheBytes(capacity).build();
        int n = 6000;
        try (LsmStore store = LsmStore.open(dir, options)) {
            for (int i = 0; i < n; i++) {
                store.put(key(i), new byte[40]);
            }
            store.flush();
            store.awaitMerges();
        }
        try (LsmStore store = LsmStore.open(dir, options)) {
            assertThat(store.metrics().cache().pinnedIndexBytes()).as("nothing pinned before a read").isZero();
            for (int i = 0; i < n; i++) {
                assertThat(store.get(key(i))).hasSize(40);
            }
            StoreMetrics.Cache first = store.metrics().cache();
            assertThat(first.pinnedIndexBytes()).isPositive()
                    .isLessThan(store.metrics().tables().diskBytes() / 4);
            assertThat(first.cachedBytes()).isPositive().isLessThanOrEqualTo(capacity);
            assertThat(first.offHeapBytes()).as("pages live off the heap").isPositive()
                    .isLessThanOrEqualTo(capacity);
            for (int i = 0; i < n; i += 7) {
                store.get(key(i));
            }
            assertThat(store.metrics().cache().pinnedIndexBytes()).as("a second pass pins nothing new")
                    .isEqualTo(first.pinnedIndexBytes());
            assertThat(store.metrics().cache().cachedBytes()).isLessThanOrEqualTo(capacity);
        }
    }
}
