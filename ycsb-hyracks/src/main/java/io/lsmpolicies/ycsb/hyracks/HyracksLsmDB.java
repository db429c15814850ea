package io.lsmpolicies.ycsb.hyracks;

import io.lsmpolicies.feeds.AdmValue;
import io.lsmpolicies.ycsb.YcsbRecord;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB on AsterixDB's own LSM B-tree: a Hyracks 0.3.8 {@code LSMBTree} embedded in the YCSB process
 * ({@link HyracksTree}), merged by AsterixDB's prefix policy or by one of our policies through our Hyracks adapter
 * ({@code hyracks.policy}); the peer of {@code io.lsmpolicies.ycsb.EmbeddedLsmDB} in the benchmark. The DB instances
 * of one process (one per client thread) share one index per directory ({@link SharedTrees}). Records are stored
 * as our engine stores them ({@link YcsbRecord}): the key our {@code KeyEncoder}'s bytes, the value our
 * {@code ValueCodec}'s bytes, both as byte-array fields. The {@code table} argument is ignored.
 *
 * <ul>
 *   <li>insert: an upsert of the whole record (Hyracks' {@code upsert}, what AsterixDB's feed does);</li>
 *   <li>update: a read-modify-write of the stored record (the given fields replaced or added), atomic against the
 *       other writes of the key from this process; {@code NOT_FOUND} (nothing written) if there is no record. An
 *       update of every field of the workload's schema replaces the record without reading it;</li>
 *   <li>read: the requested fields present in the record ({@code NOT_FOUND} if none);</li>
 *   <li>scan: up to {@code recordcount} records from {@code startkey} on, in key order;</li>
 *   <li>delete: Hyracks' delete, an antimatter entry ({@code OK} also for an absent key).</li>
 * </ul>
 * A returned write is in a memory component and visible to every later read; it is on disk once flushed (there is
 * no transaction log).
 */
public final class HyracksLsmDB extends DB {
    private HyracksConfig config;
    private SharedTrees.Shared shared;
    private TreeSession session;

    /** @throws DBException naming the property, if a property is bad or missing, or the index cannot open */
    @Override
    public void init() throws DBException {
        try {
            config = HyracksConfig.parse(getProperties());
            shared = SharedTrees.acquire(config);
        } catch (DBException e) {
            InitFailures.failed(e.getMessage());
            throw e;
        }
        session = shared.tree.session();
    }

    /** Releases this instance's share of the index; the last one settles it, writes the trace and closes it. */
    @Override
    public void cleanup() throws DBException {
        if (shared == null) {
            return;
        }
        SharedTrees.Shared s = shared;
        shared = null;
        try {
            session.close();
        } catch (HyracksDataException e) {
            OpFailures.error("cleanup", s.dir.toString(), e);
        } finally {
            session = null;
            SharedTrees.release(s);
        }
    }

    /** The index this instance works on (for tests). REQUIRES: initialised. */
    HyracksTree tree() {
        return shared.tree;
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            byte[] value = session.get(YcsbRecord.key(key));
            if (value == null) {
                return Status.NOT_FOUND;
            }
            YcsbRecord.fields(YcsbRecord.decode(value), fields, result);
            return Status.OK;
        } catch (HyracksDataException | RuntimeException e) {
            return OpFailures.error("read", key, e);
        }
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        try {
            session.scan(YcsbRecord.key(startkey), recordcount, value -> {
                HashMap<String, ByteIterator> row = new HashMap<>();
                YcsbRecord.fields(YcsbRecord.decode(value), fields, row);
                result.add(row);
            });
            return Status.OK;
        } catch (HyracksDataException | RuntimeException e) {
            return OpFailures.error("scan", startkey, e);
        }
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        byte[] k = YcsbRecord.key(key);
        ReentrantLock lock = shared.lockOf(key);
        lock.lock();
        try {
            AdmValue.Obj record;
            if (YcsbRecord.isWhole(values, config.schema())) {
                record = YcsbRecord.of(key, values);
            } else {
                byte[] stored = session.get(k);
                if (stored == null) {
                    return Status.NOT_FOUND;
                }
                record = YcsbRecord.merge(YcsbRecord.decode(stored), values);
            }
            session.upsert(k, YcsbRecord.encode(record));
            return Status.OK;
        } catch (HyracksDataException | RuntimeException e) {
            return OpFailures.error("update", key, e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        ReentrantLock lock = shared.lockOf(key);
        lock.lock();
        try {
            session.upsert(YcsbRecord.key(key), YcsbRecord.encode(YcsbRecord.of(key, values)));
            return Status.OK;
        } catch (HyracksDataException | RuntimeException e) {
            return OpFailures.error("insert", key, e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Status delete(String table, String key) {
        ReentrantLock lock = shared.lockOf(key);
        lock.lock();
        try {
            session.delete(YcsbRecord.key(key));
            return Status.OK;
        } catch (HyracksDataException | RuntimeException e) {
            return OpFailures.error("delete", key, e);
        } finally {
            lock.unlock();
        }
    }
}
