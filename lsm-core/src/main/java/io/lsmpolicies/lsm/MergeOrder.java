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
    MERGE_MEMTABLE
}
