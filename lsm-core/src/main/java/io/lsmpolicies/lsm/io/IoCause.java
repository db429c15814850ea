package io.lsmpolicies.lsm.io;

/** Why the engine touched the disk: the categories of its byte accounting. */
public enum IoCause {
    /** Write-ahead-log appends and replay. */
    WAL,
    /** Writing a flushed MemTable's SSTable. */
    FLUSH,
    /** Reading and writing SSTables for merges. */
    MERGE,
    /** Manifest and CURRENT. */
    MANIFEST,
    /** Reads serving gets and scans. */
    READ
}
