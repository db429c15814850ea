package io.lsmpolicies.lsm.stress;

import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The store options of one stress run, drawn from its seed (as RocksDB's stress test draws its options): the
 * policy and its k, the MemTable size, the WAL mode, the page size, the merge threads and the key ranges a merge
 * is split into (from 16 KiB of input a range). WAL {@code off} is not
 * drawn: a process crash loses its unflushed writes, so acknowledged no longer means durable.
 *
 * @param description what was drawn, for the log
 */
public record StressOptions(StoreOptions options, String description) {
    /** Keys of every stress run. */
    public static final int KEYS = 2000;

    /**
     * The policies a run draws from, {@code %d} standing for its k (StressOptionsTest checks that every one, at
     * every k, is a registered policy with valid parameters).
     */
    static final List<String> POLICIES = List.of("binomial:k=%d", "minlatency:k=%d", "tiered:size-ratio=%d",
            "leveled:l0-trigger=2,size-ratio=4,base-level-bytes=32768,target-file-bytes=8192",
            "delayed:vct=%d,vsmt=3,l0-trigger=2,size-ratio=4,base-level-bytes=32768,target-file-bytes=8192",
            "universal:l0-trigger=3");

    public static StressOptions of(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        String template = POLICIES.get(r.nextInt(POLICIES.size()));
        String policy = policy(template, 2 + r.nextInt(5));
        long memtable = 8192L << r.nextInt(4);
        SyncMode wal = r.nextBoolean() ? SyncMode.SYNC : SyncMode.ASYNC;
        int page = 1024 << r.nextInt(3);
        int mergeThreads = 1 + r.nextInt(2);
        int subcompactions = 1 + r.nextInt(3);
        StoreOptions options = StoreOptions.builder().policy(policy).memtableBytes(memtable).walMode(wal)
                .sstable(SSTableOptions.builder().pageSize(page).fitPageSize(false).build()).mergeThreads(mergeThreads)
                .subcompactions(subcompactions).subcompactionBytes(16 * 1024).maxKeyBytes(32)
                .blockCacheBytes(64 * 1024).build();
        return new StressOptions(options, policy + ", memtable " + memtable + ", wal " + wal + ", page " + page
                + ", merge threads " + mergeThreads + ", key ranges per merge " + subcompactions);
    }

    /** The policy of {@code template} with k = {@code k} (2 to 6; delayed's virtual-table count is 4 + 2k). */
    static String policy(String template, int k) {
        return template.contains("%d") ? String.format(template, template.startsWith("delayed") ? 4 + 2 * k : k)
                : template;
    }
}
