package io.lsmpolicies.bench.vsrocks;

import io.lsmpolicies.ycsb.rocksdb.OpenRocksDb;
import io.lsmpolicies.ycsb.rocksdb.RocksDbConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.TickerType;
import site.ycsb.DBException;

/**
 * RocksDB in the side-by-side benchmark, opened exactly as the YCSB peer opens it ({@link OpenRocksDb}, settings
 * in docs/peers-rocksdb.md): a 4 MiB {@code write_buffer_size} (three write buffers), the WAL on without a sync
 * per write, a 32 MiB LRU block cache, 4 KiB blocks, a full Bloom filter of 10 bits per key, no compression,
 * {@code max_background_jobs} = 2 (one flush and one compaction thread), {@code max_subcompactions} 1 unless the
 * run sets it, and RocksDB's defaults
 * otherwise (leveled: size multiplier 10, level-0 trigger 4, static level targets from a 256 MiB base, 64 MiB
 * files; universal: size ratio 1 %, trigger 4).
 */
final class RocksDbSide implements BenchStore {
    private final OpenRocksDb rocks;

    private RocksDbSide(OpenRocksDb rocks) {
        this.rocks = rocks;
    }

    /**
     * The peer's settings for {@code style} ({@code leveled} or {@code universal}) in {@code dir};
     * {@code subcompactions} 0 keeps RocksDB's default {@code max_subcompactions} (1).
     */
    static RocksDbConfig config(Path dir, String style, int subcompactions) {
        Properties p = new Properties();
        p.setProperty(RocksDbConfig.DIR, dir.toString());
        p.setProperty(RocksDbConfig.COMPACTION, style);
        p.setProperty(RocksDbConfig.MEMTABLE_SIZE, Long.toString(Side.MEMTABLE_BYTES));
        p.setProperty(RocksDbConfig.WAL, "async");
        p.setProperty(RocksDbConfig.BLOCK_CACHE, Long.toString(Side.BLOCK_CACHE_BYTES));
        if (subcompactions > 0) {
            p.setProperty(RocksDbConfig.SUBCOMPACTIONS, Integer.toString(subcompactions));
        }
        try {
            return RocksDbConfig.parse(p);
        } catch (DBException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    static RocksDbSide open(Path dir, String style, int subcompactions) throws IOException {
        try {
            return new RocksDbSide(OpenRocksDb.open(dir, config(dir, style, subcompactions)));
        } catch (RocksDBException e) {
            throw new IOException("opening RocksDB in " + dir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void put(byte[] key, byte[] value) throws IOException {
        try {
            rocks.db().put(rocks.writeOptions(), key, value);
        } catch (RocksDBException e) {
            throw new IOException("RocksDB put: " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] get(byte[] key) throws IOException {
        try {
            return rocks.db().get(key);
        } catch (RocksDBException e) {
            throw new IOException("RocksDB get: " + e.getMessage(), e);
        }
    }

    @Override
    public int scan(byte[] from, int count) throws IOException {
        int n = 0;
        try (RocksIterator it = rocks.db().newIterator()) {
            for (it.seek(from); n < count && it.isValid(); it.next()) {
                if (it.key() == null || it.value() == null) {
                    throw new IllegalStateException("a scan returned a record without key or value");
                }
                n++;
            }
            it.status();
        } catch (RocksDBException e) {
            throw new IOException("RocksDB scan: " + e.getMessage(), e);
        }
        return n;
    }

    @Override
    public void settle() throws IOException {
        rocks.settle();
    }

    @Override
    public WriteCounters counters() throws IOException {
        try {
            return new WriteCounters(rocks.ticker(TickerType.FLUSH_WRITE_BYTES),
                    rocks.ticker(TickerType.COMPACT_WRITE_BYTES), rocks.ticker(TickerType.STALL_MICROS) * 1000,
                    rocks.db().getLongProperty("rocksdb.live-sst-files-size"));
        } catch (RocksDBException e) {
            throw new IOException("RocksDB property: " + e.getMessage(), e);
        }
    }

    @Override
    public int components() {
        return rocks.components();
    }

    @Override
    public void close() {
        rocks.close();
    }
}
