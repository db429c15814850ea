package io.lsmpolicies.ycsb;

import io.lsmpolicies.feeds.AdmValue;
import io.lsmpolicies.lsm.KeyValue;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.locks.ReentrantLock;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The store in the YCSB process ({@code lsm.mode=embedded}). The DB instances of one process (one per client
 * thread) share one {@link LsmStore} per data directory ({@link SharedStores}). Records are stored as the socket
 * feed stores them ({@link YcsbRecord}), so a store loaded here can be served by a node server and the other way
 * round. The {@code table} argument of each operation is ignored: a directory holds one table.
 *
 * <ul>
 *   <li>insert: an upsert of the whole record;</li>
 *   <li>update: a read-modify-write of the stored record (the given fields replaced or added), atomic against the
 *       other writes of the key from this process; {@code NOT_FOUND} (nothing written) if there is no record. An
 *       update of every field of the workload's schema replaces the record without reading it;</li>
 *   <li>read: the requested fields present in the record ({@code NOT_FOUND} if none);</li>
 *   <li>scan: up to {@code recordcount} records from {@code startkey} on, in key order;</li>
 *   <li>delete: a tombstone ({@code OK} also for an absent key).</li>
 * </ul>
 * A returned write is visible to every later read of any thread; it is durable as {@code lsm.wal} says.
 */
public final class EmbeddedLsmDB extends DB {
    private BindingConfig config;
    private SharedStores.Shared shared;
    private LsmStore store;

    /** @throws DBException naming the property, if a property is bad or missing, or the store cannot open */
    @Override
    public void init() throws DBException {
        try {
            config = BindingConfig.parse(getProperties(), BindingConfig.Mode.EMBEDDED);
            shared = SharedStores.acquire(config.embedded());
        } catch (DBException e) {
            BindingRuntime.initFailed(e.getMessage());
            throw e;
        }
        store = shared.store;
    }

    /** Releases this instance's share of the store; the last one closes it. */
    @Override
    public void cleanup() throws DBException {
        if (shared != null) {
            SharedStores.Shared s = shared;
            shared = null;
            store = null;
            SharedStores.release(s);
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            byte[] value = store.get(YcsbRecord.key(key));
            if (value == null) {
                return Status.NOT_FOUND;
            }
            YcsbRecord.fields(YcsbRecord.decode(value), fields, result);
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return OpErrors.error("read", key, e);
        }
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        try (StoreIterator it = store.scan(YcsbRecord.key(startkey), null)) {
            for (int n = 0; n < recordcount && it.hasNext(); n++) {
                KeyValue kv = it.next();
                HashMap<String, ByteIterator> row = new HashMap<>();
                YcsbRecord.fields(YcsbRecord.decode(kv.value()), fields, row);
                result.add(row);
            }
            return Status.OK;
        } catch (IOException | RuntimeException e) {
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
                byte[] stored = store.get(k);
                if (stored == null) {
                    return Status.NOT_FOUND;
                }
                record = YcsbRecord.merge(YcsbRecord.decode(stored), values);
            }
            store.put(k, YcsbRecord.encode(record));
            return Status.OK;
        } catch (IOException | RuntimeException e) {
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
            store.put(YcsbRecord.key(key), YcsbRecord.encode(YcsbRecord.of(key, values)));
            return Status.OK;
        } catch (IOException | RuntimeException e) {
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
            store.delete(YcsbRecord.key(key));
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return OpErrors.error("delete", key, e);
        } finally {
            lock.unlock();
        }
    }
}
