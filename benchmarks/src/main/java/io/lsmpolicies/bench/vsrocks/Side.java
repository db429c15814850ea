package io.lsmpolicies.bench.vsrocks;

import io.lsmpolicies.lsm.MergeOrder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/** The two systems compared, each opened with the shared budgets below. */
enum Side {
    /** Our store, {@link LsmSide}. */
    OURS,
    /** RocksDB, {@link RocksDbSide}. */
    ROCKSDB;

    /** The MemTable budget of both systems (RocksDB's {@code write_buffer_size}). */
    static final long MEMTABLE_BYTES = 4L << 20;
    /** The block cache of both systems. */
    static final long BLOCK_CACHE_BYTES = 32L << 20;

    /** Opens (creating if absent) this system's store in {@code dir} with the pairing's policy or style. */
    BenchStore open(Pairing pairing, Path dir) throws IOException {
        return open(pairing, dir, 0, MergeOrder.FLUSH_THEN_MERGE);
    }

    /**
     * As {@link #open(Pairing, Path)}, one compaction split across at most {@code subcompactions} threads (our
     * {@code subcompactions}, RocksDB's {@code max_subcompactions}); 0 keeps each system's default (ours 2,
     * RocksDB's 1); our stack policies with merge order {@code order}.
     */
    BenchStore open(Pairing pairing, Path dir, int subcompactions, MergeOrder order) throws IOException {
        return this == OURS ? LsmSide.open(dir, pairing.ours(), subcompactions, order)
                : RocksDbSide.open(dir, pairing.rocksdb(), subcompactions);
    }

    /** The name in the report and on the command line: {@code ours} or {@code rocksdb}. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The side named {@code label}. */
    static Side of(String label) {
        for (Side s : values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw new IllegalArgumentException("'" + label + "' is not a side; accepted: ours, rocksdb");
    }
}
