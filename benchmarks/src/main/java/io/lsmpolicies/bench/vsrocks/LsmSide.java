package io.lsmpolicies.bench.vsrocks;

import io.lsmpolicies.lsm.KeyValue;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.lsm.StoreMetrics;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Our store in the side-by-side benchmark: {@link LsmStore} with a 4 MiB MemTable, the WAL in
 * {@link SyncMode#ASYNC} mode, a 32 MiB block cache and one merge thread; everything else at the store's defaults
 * (two immutable MemTables before writers stall, 4 KiB pages, 10 Bloom bits per key, flush then merge).
 */
final class LsmSide implements BenchStore {
    private final LsmStore store;

    private LsmSide(LsmStore store) {
        this.store = store;
    }

    /** The options of our side with merge policy {@code policy}, changed as {@code tuning} says. */
    static StoreOptions options(String policy, Tuning tuning) {
        boolean stack = MergePolicies.factory(MergePolicies.parse(policy).name()).layout() == PolicyLayout.STACK;
        StoreOptions.Builder b = StoreOptions.builder().policy(policy).memtableBytes(Side.MEMTABLE_BYTES)
                .walMode(SyncMode.ASYNC).blockCacheBytes(Side.BLOCK_CACHE_BYTES).mergeThreads(1)
                .mergeOrder(stack ? tuning.mergeOrder() : null);
        if (tuning.subcompactions() > 0) {
            b.subcompactions(tuning.subcompactions());
        }
        if (tuning.pageBytes() > 0) {
            b.sstable(SSTableOptions.builder().pageSize(tuning.pageBytes()).fitPageSize(false).build());
        }
        return b.build();
    }

    static LsmSide open(Path dir, String policy, Tuning tuning) throws IOException {
        return new LsmSide(LsmStore.open(dir, options(policy, tuning)));
    }

    @Override
    public void put(byte[] key, byte[] value) throws IOException {
        store.put(key, value);
    }

    @Override
    public byte[] get(byte[] key) throws IOException {
        return store.get(key);
    }

    @Override
    public int scan(byte[] from, int count) throws IOException {
        int n = 0;
        try (StoreIterator it = store.scan(from, null)) {
            while (n < count && it.hasNext()) {
                KeyValue kv = it.next();
                if (kv.key() == null || kv.value() == null) {
                    throw new IllegalStateException("a scan returned a record without key or value");
                }
                n++;
            }
        }
        return n;
    }

    @Override
    public void settle() throws IOException {
        store.flush();
        store.awaitMerges();
    }

    @Override
    public WriteCounters counters() {
        StoreMetrics m = store.metrics();
        // the bytes the file layer wrote for each cause: with MERGE_MEMTABLE a flush merged at once is written
        // only by its merge (metrics().flushes().bytes() would count its size as a table, written or not)
        return new WriteCounters(store.ioStats().bytesWritten(IoCause.FLUSH), store.ioStats().bytesWritten(IoCause.MERGE),
                m.writes().stallNanos(), m.tables().diskBytes());
    }

    @Override
    public int components() {
        return store.metrics().tables().components();
    }

    @Override
    public void close() throws IOException {
        store.close();
    }
}
