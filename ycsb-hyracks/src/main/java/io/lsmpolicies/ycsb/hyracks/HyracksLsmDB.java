package io.lsmpolicies.ycsb.hyracks;

import io.lsmpolicies.ycsb.common.RecordDB;
import io.lsmpolicies.ycsb.common.SharedResources;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import site.ycsb.DBException;

/**
 * YCSB on AsterixDB's own LSM B-tree: a Hyracks 0.3.8 {@code LSMBTree} embedded in the YCSB process
 * ({@link HyracksTree}), merged by AsterixDB's prefix policy or by one of our policies through our Hyracks adapter
 * ({@code hyracks.policy}); the peer of {@code io.lsmpolicies.ycsb.EmbeddedLsmDB} in the benchmark. The DB instances
 * of one process (one per client thread) share one index per directory ({@link SharedTrees}). Records are stored
 * as our engine stores them ({@link io.lsmpolicies.ycsb.common.YcsbRecord}): the key our {@code KeyEncoder}'s bytes, the value our
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
public final class HyracksLsmDB extends RecordDB {
    private HyracksConfig config;
    private SharedResources.Handle<SharedTrees.Open> shared;
    private TreeSession session;

    /** @throws DBException naming the property, if a property is bad or missing, or the index cannot open */
    @Override
    public void init() throws DBException {
        try {
            config = HyracksConfig.parse(getProperties());
            shared = SharedTrees.acquire(config);
        } catch (DBException e) {
            io.lsmpolicies.ycsb.common.BindingRuntime.initFailed(e.getMessage());
            throw e;
        }
        session = shared.resource().tree().session();
    }

    /** Releases this instance's share of the index; the last one settles it, writes the trace and closes it. */
    @Override
    public void cleanup() throws DBException {
        if (shared == null) {
            return;
        }
        SharedResources.Handle<SharedTrees.Open> s = shared;
        shared = null;
        try {
            session.close();
        } catch (HyracksDataException e) {
            io.lsmpolicies.ycsb.common.OpErrors.error("cleanup", s.dir().toString(), e);
        } finally {
            session = null;
            SharedTrees.release(s);
        }
    }

    /** The index this instance works on (for tests). REQUIRES: initialised. */
    HyracksTree tree() {
        return shared.resource().tree();
    }

    @Override
    protected byte[] get(byte[] key) throws HyracksDataException {
        return session.get(key);
    }

    @Override
    protected void put(byte[] key, byte[] value) throws HyracksDataException {
        session.upsert(key, value);
    }

    @Override
    protected void remove(byte[] key) throws HyracksDataException {
        session.delete(key);
    }

    @Override
    protected void scan(byte[] from, int n, Consumer<byte[]> action) throws HyracksDataException {
        session.scan(from, n, action::accept);
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
