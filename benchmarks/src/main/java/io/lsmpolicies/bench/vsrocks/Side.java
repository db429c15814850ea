package io.lsmpolicies.bench.vsrocks;

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
        return open(pairing, dir, Tuning.DEFAULTS);
    }

    /** As {@link #open(Pairing, Path)}, changed from the defaults as {@code tuning} says. */
    BenchStore open(Pairing pairing, Path dir, Tuning tuning) throws IOException {
        return this == OURS ? LsmSide.open(dir, pairing.ours(), tuning)
                : RocksDbSide.open(dir, pairing.rocksdb(), tuning.subcompactions());
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
