package io.lsmpolicies.merge.spi;

/** What executing a {@link MergeJob} does to the data. */
public enum MergeKind {
    /** Read the inputs, merge them, write new SSTables. */
    REAL,
    /** Move the single input to the output level by a manifest edit; no data is read or written. */
    TRIVIAL_MOVE,
    /** Write only metadata: virtual SSTables that point at the inputs (delayed compaction). */
    VIRTUAL
}
