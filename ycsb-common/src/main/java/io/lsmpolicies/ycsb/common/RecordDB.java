package io.lsmpolicies.ycsb.common;

import io.lsmpolicies.records.AdmValue;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * YCSB's operations on a key-value store holding our record form ({@link YcsbRecord}), shared by every embedded
 * system of the benchmark: our store ({@code EmbeddedLsmDB}) and the peers on RocksDB and on Hyracks' LSM B-tree, so
 * that all three do exactly the same work per operation. A subclass gives the store's primitives
 * ({@link #get}, {@link #put}, {@link #remove}, {@link #scan(byte[], int, Consumer)}), the lock of a key and the
 * workload's schema. The {@code table} argument is ignored: a store holds one table.
 *
 * <ul>
 *   <li>insert: a put of the whole record (an upsert);</li>
 *   <li>update: a read-modify-write of the stored record (the given fields replaced or added), atomic against the
 *       other writes of the key from this process; {@code NOT_FOUND} (nothing written) if there is no record. An
 *       update of every field of the workload's schema replaces the record without reading it;</li>
 *   <li>read: the requested fields present in the record ({@code NOT_FOUND} if there is none);</li>
 *   <li>scan: up to {@code recordcount} records from {@code startkey} on, in key order;</li>
 *   <li>delete: the store's delete ({@code OK} also for an absent key).</li>
 * </ul>
 * A failed primitive makes the operation return {@link Status#ERROR}, logged by {@link OpErrors}.
 */
public abstract class RecordDB extends DB {
    /**
     * {@return the stored value of {@code key}, or null: an array of its own, which YCSB's results may go on
     * reading (its fields are handed to YCSB as views of it)}
     *
     * @param key a store key
     * @throws Exception if the store fails
     */
    protected abstract byte[] get(byte[] key) throws Exception;

    /**
     * Stores {@code value} under {@code key}, replacing what was there.
     *
     * @param key   a store key
     * @param value the stored value
     * @throws Exception if the store fails
     */
    protected abstract void put(byte[] key, byte[] value) throws Exception;

    /**
     * Deletes {@code key}.
     *
     * @param key a store key
     * @throws Exception if the store fails
     */
    protected abstract void remove(byte[] key) throws Exception;

    /**
     * Gives {@code action} the values of up to {@code n} records from {@code from} on, in key order.
     *
     * @param from   the first store key
     * @param n      the most records
     * @param action takes each stored value, an array of its own (never reused for the next: YCSB's results keep
     *               views of it)
     * @throws Exception if the store fails
     */
    protected abstract void scan(byte[] from, int n, Consumer<byte[]> action) throws Exception;

    /**
     * {@return the lock every write of {@code key} holds in this process}
     *
     * @param key a YCSB key
     */
    protected abstract ReentrantLock lockOf(String key);

    /** {@return the workload's field names: an update writing all of them replaces the record without reading it} */
    protected abstract Set<String> schema();

    @Override
    public final Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            byte[] value = get(YcsbRecord.key(key));
            if (value == null) {
                return Status.NOT_FOUND;
            }
            YcsbRecord.fields(value, fields, result);
            return Status.OK;
        } catch (Exception e) {
            return OpErrors.error("read", key, e);
        }
    }

    @Override
    public final Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        try {
            scan(YcsbRecord.key(startkey), recordcount, value -> {
                HashMap<String, ByteIterator> row = new HashMap<>();
                YcsbRecord.fields(value, fields, row);
                result.add(row);
            });
            return Status.OK;
        } catch (Exception e) {
            return OpErrors.error("scan", startkey, e);
        }
    }

    @Override
    public final Status update(String table, String key, Map<String, ByteIterator> values) {
        byte[] k = YcsbRecord.key(key);
        ReentrantLock lock = lockOf(key);
        lock.lock();
        try {
            AdmValue.Obj record;
            if (YcsbRecord.isWhole(values, schema())) {
                record = YcsbRecord.of(key, values);
            } else {
                byte[] stored = get(k);
                if (stored == null) {
                    return Status.NOT_FOUND;
                }
                record = YcsbRecord.merge(YcsbRecord.decode(stored), values);
            }
            put(k, YcsbRecord.encode(record));
            return Status.OK;
        } catch (Exception e) {
            return OpErrors.error("update", key, e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public final Status insert(String table, String key, Map<String, ByteIterator> values) {
        ReentrantLock lock = lockOf(key);
        lock.lock();
        try {
            put(YcsbRecord.key(key), YcsbRecord.encode(YcsbRecord.of(key, values)));
            return Status.OK;
        } catch (Exception e) {
            return OpErrors.error("insert", key, e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public final Status delete(String table, String key) {
        ReentrantLock lock = lockOf(key);
        lock.lock();
        try {
            remove(YcsbRecord.key(key));
            return Status.OK;
        } catch (Exception e) {
            return OpErrors.error("delete", key, e);
        } finally {
            lock.unlock();
        }
    }
}
