package io.lsmpolicies.bench.vsrocks;

import java.io.Closeable;
import java.io.IOException;

/**
 * The few operations the side-by-side benchmark runs, implemented once on our store ({@link LsmSide}) and once on
 * RocksDB ({@link RocksDbSide}), so that both run the same code on the same records.
 */
interface BenchStore extends Closeable {

    /** Inserts or replaces {@code key}. Safe to call from several threads at once. */
    void put(byte[] key, byte[] value) throws IOException;

    /** The value of {@code key}, or null if absent. */
    byte[] get(byte[] key) throws IOException;

    /**
     * Reads up to {@code count} records in key order from the first key at or after {@code from} (each key and
     * value handed to the caller as a byte array), and returns how many it read.
     */
    int scan(byte[] from, int count) throws IOException;

    /** Flushes the MemTable and waits until no flush or merge runs or is wanted. */
    void settle() throws IOException;

    /** The write counters since the store was opened, and its table files now. */
    WriteCounters counters() throws IOException;

    /** The sorted runs (SSTables or RocksDB's level-0 files and non-empty levels) a point read may probe now. */
    int components() throws IOException;
}
