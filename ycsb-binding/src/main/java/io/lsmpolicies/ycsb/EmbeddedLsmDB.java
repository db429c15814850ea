package io.lsmpolicies.ycsb;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.ycsb.common.BindingRuntime;
import io.lsmpolicies.ycsb.common.RecordDB;
import io.lsmpolicies.ycsb.common.SharedResources;
import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import site.ycsb.DBException;

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
public final class EmbeddedLsmDB extends RecordDB {
    private BindingConfig config;
    private SharedResources.Handle<SharedStores.Open> shared;
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
        store = shared.resource().store();
    }

    /** Releases this instance's share of the store; the last one closes it. */
    @Override
    public void cleanup() throws DBException {
        if (shared != null) {
            SharedResources.Handle<SharedStores.Open> s = shared;
            shared = null;
            store = null;
            SharedStores.release(s);
        }
    }

    @Override
    protected byte[] get(byte[] key) throws IOException {
        return store.get(key);
    }

    @Override
    protected void put(byte[] key, byte[] value) throws IOException {
        store.put(key, value);
    }

    @Override
    protected void remove(byte[] key) throws IOException {
        store.delete(key);
    }

    @Override
    protected void scan(byte[] from, int n, Consumer<byte[]> action) throws IOException {
        try (StoreIterator it = store.scan(from, null)) {
            for (int i = 0; i < n && it.hasNext(); i++) {
                action.accept(it.next().value());
            }
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
