package io.lsmpolicies.ycsb.rocksdb;

import io.lsmpolicies.feeds.AdmValue;
import io.lsmpolicies.ycsb.OpErrors;
import io.lsmpolicies.ycsb.YcsbRecord;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

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
public final class RocksDbDB extends DB {
    private RocksDbConfig config;
    private SharedRocksDbs.Shared shared;
    private RocksDB db;

    /** @throws DBException naming the property, if a property is bad or missing, or the database cannot open */
    @Override
    public void init() throws DBException {
        try {
            config = RocksDbConfig.parse(getProperties());
            shared = SharedRocksDbs.acquire(config);
        } catch (DBException e) {
            RocksDbRuntime.initFailed(e.getMessage());
            throw e;
        }
        db = shared.rocks.db;
    }

    /** Releases this instance's share of the database; the last one finishes and closes it. */
    @Override
    public void cleanup() throws DBException {
        if (shared != null) {
            SharedRocksDbs.Shared s = shared;
            shared = null;
            db = null;
            SharedRocksDbs.release(s);
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            byte[] value = db.get(YcsbRecord.key(key));
            if (value == null) {
                return Status.NOT_FOUND;
            }
            YcsbRecord.fields(YcsbRecord.decode(value), fields, result);
            return Status.OK;
        } catch (RocksDBException | RuntimeException e) {
            return OpErrors.error("read", key, e);
        }
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        try (RocksIterator it = db.newIterator()) {
            it.seek(YcsbRecord.key(startkey));
            for (int n = 0; n < recordcount && it.isValid(); n++, it.next()) {
                HashMap<String, ByteIterator> row = new HashMap<>();
                YcsbRecord.fields(YcsbRecord.decode(it.value()), fields, row);
                result.add(row);
            }
            it.status();
            return Status.OK;
        } catch (RocksDBException | RuntimeException e) {
            return OpErrors.error("scan", startkey, e);
        }
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        byte[] k = YcsbRecord.key(key);
        ReentrantLock lock = shared.locks.of(key);
        lock.lock();
        try {
            AdmValue.Obj record;
            if (YcsbRecord.isWhole(values, config.schema())) {
                record = YcsbRecord.of(key, values);
            } else {
                byte[] stored = db.get(k);
                if (stored == null) {
                    return Status.NOT_FOUND;
                }
                record = YcsbRecord.merge(YcsbRecord.decode(stored), values);
            }
            db.put(shared.rocks.writeOptions, k, YcsbRecord.encode(record));
            return Status.OK;
        } catch (RocksDBException | RuntimeException e) {
            return OpErrors.error("update", key, e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        ReentrantLock lock = shared.locks.of(key);
        lock.lock();
        try {
            db.put(shared.rocks.writeOptions, YcsbRecord.key(key), YcsbRecord.encode(YcsbRecord.of(key, values)));
            return Status.OK;
        } catch (RocksDBException | RuntimeException e) {
            return OpErrors.error("insert", key, e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Status delete(String table, String key) {
        ReentrantLock lock = shared.locks.of(key);
        lock.lock();
        try {
            db.delete(shared.rocks.writeOptions, YcsbRecord.key(key));
            return Status.OK;
        } catch (RocksDBException | RuntimeException e) {
            return OpErrors.error("delete", key, e);
        } finally {
            lock.unlock();
        }
    }
}
