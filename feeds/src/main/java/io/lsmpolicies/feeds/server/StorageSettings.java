package io.lsmpolicies.feeds.server;

import io.lsmpolicies.lsm.MergeOrder;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.spi.MergePolicy;

/**
 * The node's storage settings (the {@code [nc]} section), shared by every partition of every dataset. Node-wide
 * budgets are divided evenly among the node's stores (datasets times iodevices), as an AsterixDB node controller
 * shares its global budgets among its indexes.
 *
 * @param memoryBudget      {@code storage.memorycomponent.globalbudget}: MemTable bytes for the whole node, or
 *                          0 for the engine's default per store (4 MiB)
 * @param memoryPageSize    {@code storage.memorycomponent.pagesize}: each store's MemTable budget is rounded down
 *                          to a multiple of it (and is at least one page)
 * @param blockCacheBytes   {@code storage.buffercache.size}: SSTable page cache for the whole node, or -1 for the
 *                          engine's default per store (32 MiB)
 * @param pageSize          {@code storage.buffercache.pagesize}: SSTable page size
 * @param bloomFalsePositiveRate {@code storage.lsm.bloomfilter.falsepositiverate}, in (0, 1)
 * @param mergeThreads      {@code storage.max.concurrent.merges.per.partition}: merge threads per store
 * @param walMode           {@code storage.wal.mode}
 * @param writeRateLimit    {@code storage.write.rate.limit}: flush and merge bytes per second per partition
 *                          (iodevice), shared evenly by the datasets on it; 0 for unlimited
 */
public record StorageSettings(long memoryBudget, int memoryPageSize, long blockCacheBytes, int pageSize,
        double bloomFalsePositiveRate, int mergeThreads, SyncMode walMode, long writeRateLimit) {

    /** AsterixDB's default Bloom filter false-positive rate (10 bits per key here). */
    public static final double DEFAULT_BLOOM_FPR = 0.01;

    /** Bloom filter bits per key for the false-positive rate: ceil(-ln p / ln^2 2), clamped to [1, 64]. */
    public int bloomBitsPerKey() {
        double bits = -Math.log(bloomFalsePositiveRate) / (Math.log(2) * Math.log(2));
        return (int) Math.max(1, Math.min(64, Math.ceil(bits)));
    }

    /**
     * The options of one of the node's stores ({@code datasets} times {@code partitions} of them), with its own
     * merge policy instance.
     *
     * @throws IllegalArgumentException as {@link StoreOptions}, naming the option at fault
     */
    public StoreOptions storeOptions(int datasets, int partitions, MergePolicy policy) {
        return storeOptions(datasets, partitions, policy, null);
    }

    /**
     * As {@link #storeOptions(int, int, MergePolicy)}, with the dataset's merge order ({@code merge-order}).
     *
     * @param mergeOrder the merge order; null for the store's default for {@code policy}
     * @throws IllegalArgumentException as {@link StoreOptions}, naming the option at fault (a merge order that merges
     *                                  in the flush, with a leveled policy, among others)
     */
    public StoreOptions storeOptions(int datasets, int partitions, MergePolicy policy, MergeOrder mergeOrder) {
        int stores = Math.max(1, datasets) * Math.max(1, partitions);
        StoreOptions.Builder b = StoreOptions.builder()
                .policy(policy)
                .mergeOrder(mergeOrder)
                .walMode(walMode)
                .mergeThreads(mergeThreads)
                .sstable(SSTableOptions.builder().pageSize(pageSize).fitPageSize(false)
                        .bloomBitsPerKey(bloomBitsPerKey()).build());
        if (memoryBudget > 0) {
            long each = memoryBudget / stores / memoryPageSize * memoryPageSize;
            b.memtableBytes(Math.max(memoryPageSize, each));
        }
        if (blockCacheBytes >= 0) {
            b.blockCacheBytes(blockCacheBytes / stores);
        }
        if (writeRateLimit > 0) { // each partition's limit, shared by the datasets on it
            b.writeBytesPerSecond(Math.max(1, writeRateLimit / Math.max(1, datasets)));
        }
        return b.build();
    }
}
