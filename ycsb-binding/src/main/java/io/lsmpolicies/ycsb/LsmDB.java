package io.lsmpolicies.ycsb;

import io.lsmpolicies.ycsb.common.BindingRuntime;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The DB class {@code bin/ycsb-lsm} gives YCSB ({@code -db io.lsmpolicies.ycsb.LsmDB}): {@code lsm.mode} chooses
 * {@link EmbeddedLsmDB} ({@code embedded}, the default) or {@link FeedLsmDB} ({@code feed}) in {@link #init()},
 * and every operation goes to it. Either class may also be named with {@code -db} directly.
 */
public final class LsmDB extends DB {
    private DB delegate;

    /** @throws DBException naming {@code lsm.mode}, or as the chosen mode's {@code init()} */
    @Override
    public void init() throws DBException {
        BindingConfig.Mode mode;
        try {
            mode = BindingConfig.mode(getProperties());
        } catch (DBException e) {
            BindingRuntime.initFailed(e.getMessage());
            throw e;
        }
        DB db = mode == BindingConfig.Mode.EMBEDDED ? new EmbeddedLsmDB() : new FeedLsmDB();
        db.setProperties(getProperties());
        db.init();
        delegate = db;
    }

    @Override
    public void cleanup() throws DBException {
        if (delegate != null) {
            DB db = delegate;
            delegate = null;
            db.cleanup();
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        return delegate.read(table, key, fields, result);
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        return delegate.scan(table, startkey, recordcount, fields, result);
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        return delegate.update(table, key, values);
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        return delegate.insert(table, key, values);
    }

    @Override
    public Status delete(String table, String key) {
        return delegate.delete(table, key);
    }
}
