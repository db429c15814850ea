package io.lsmpolicies.ycsb.rocksdb;

import io.lsmpolicies.ycsb.common.RecordDB;
import io.lsmpolicies.ycsb.common.SharedResources;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import site.ycsb.DBException;

/**
 * RocksDB (through rocksdbjni) as a YCSB database, the peer our engine is compared with. Records are stored exactly
 * as our engine's YCSB binding stores them ({@link YcsbRecord}: the same key bytes, the same value bytes), in the
 * default column family. The DB instances of one process (one per client thread) share one RocksDB per directory
 * ({@link SharedRocksDbs}); the last {@code cleanup()} flushes the MemTable, writes the flush trace if
 * {@code bench.trace.file} is set (after the compactions settle) and closes the database. The {@code table}
 * argument of each operation is ignored: a directory holds one table. Settings: {@link RocksDbConfig}.
 *
 * <ul>
 *   <li>insert: a put of the whole record (an upsert);</li>
 *   <li>update: a read-modify-write of the stored record (the given fields replaced or added), atomic against the
 *       other writes of the key from this process; {@code NOT_FOUND} (nothing written) if there is no record. An
 *       update of every field of the workload's schema replaces the record without reading it;</li>
 *   <li>read: the requested fields present in the record ({@code NOT_FOUND} if there is none);</li>
 *   <li>scan: up to {@code recordcount} records from {@code startkey} on, in key order;</li>
 *   <li>delete: a tombstone ({@code OK} also for an absent key).</li>
 * </ul>
 * A returned write is visible to every later read of any thread; it is durable as {@code rocksdb.wal} says.
 * Nothing is printed on stdout (YCSB's report goes there); the last cleanup logs the write amplification on
 * stderr.
 */
public final class RocksDbDB extends RecordDB {
    private RocksDbConfig config;
    private SharedResources.Handle<OpenRocksDb> shared;
    private RocksDB db;

    /** @throws DBException naming the property, if a property is bad or missing, or the database cannot open */
    @Override
    public void init() throws DBException {
        try {
            config = RocksDbConfig.parse(getProperties());
            shared = SharedRocksDbs.acquire(config);
        } catch (DBException e) {
            io.lsmpolicies.ycsb.common.BindingRuntime.initFailed(e.getMessage());
            throw e;
        }
        db = shared.resource().db;
    }

    /** Releases this instance's share of the database; the last one finishes and closes it. */
    @Override
    public void cleanup() throws DBException {
        if (shared != null) {
            SharedResources.Handle<OpenRocksDb> s = shared;
            shared = null;
            db = null;
            SharedRocksDbs.release(s);
        }
    }

    @Override
    protected byte[] get(byte[] key) throws RocksDBException {
        return db.get(key);
    }

    @Override
    protected void put(byte[] key, byte[] value) throws RocksDBException {
        db.put(shared.resource().writeOptions, key, value);
    }

    @Override
    protected void remove(byte[] key) throws RocksDBException {
        db.delete(shared.resource().writeOptions, key);
    }

    @Override
    protected void scan(byte[] from, int n, Consumer<byte[]> action) throws RocksDBException {
        try (RocksIterator it = db.newIterator()) {
            it.seek(from);
            for (int i = 0; i < n && it.isValid(); i++, it.next()) {
                action.accept(it.value());
            }
            it.status();
        }
    }

    @Override
    protected ReentrantLock lockOf(String key) {
        return shared.lockOf(key);
    }

    @Override
    protected Set<String> schema() {
        return config.schema();
    }
}
