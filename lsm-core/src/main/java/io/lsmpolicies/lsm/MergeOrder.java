package io.lsmpolicies.lsm;

/**
 * The two orders in which a full MemTable reaches the SSTables, as in the cost model of Mao et al.
 * (VLDB Journal 2021, Sect. 3), where a flush and the merges it triggers form one step.
 */
public enum MergeOrder {
    /**
     * The MemTable is written as a new SSTable, then the policy's merges run on the result (AsterixDB's
     * behaviour). Measured write amplification counts the flush and every merge output.
     */
    FLUSH_THEN_MERGE,
    /**
     * The policy decides with the MemTable shown as the newest SSTable (its size estimated from its entries);
     * the whole cascade it asks for is planned first, and each SSTable that would survive the step is written
     * once, directly from the MemTable and the old SSTables it covers. An SSTable created and merged away in
     * the same step is never written, so measured write amplification is the model's cost delta.
     */
    MERGE_MEMTABLE,
    /**
     * As {@link #MERGE_MEMTABLE} for a step whose merges each read at most {@link #SMALL_MERGE_MEMTABLES}
     * MemTables' bytes (the MemTable at its estimate and the tables it merges). A step with a larger merge writes
     * the MemTable alone, and the merge thread, once the flush is installed, writes the whole cascade the same
     * way (each table that survives it once, from the real tables it replaces). A merging flush runs on the flush
     * thread, and the writers wait for it once the immutable MemTables are full: a large merge is better run
     * while flushes go on. The merges are the policy's either way.
     *
     * <p>With either merging order the merge thread folds a cascade so; with {@link #FLUSH_THEN_MERGE} it runs
     * each merge the policy asks for as its own job.
     */
    MERGE_MEMTABLE_SMALL;

    /** {@link #MERGE_MEMTABLE_SMALL}'s bound on the bytes one merge of a merging flush reads, in MemTables. */
    public static final int SMALL_MERGE_MEMTABLES = 16;
}
