package io.lsmpolicies.ycsb;

import com.fasterxml.jackson.databind.JsonNode;
import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.ycsb.common.BindingRuntime;
import io.lsmpolicies.ycsb.common.KeyLocks;
import io.lsmpolicies.ycsb.common.OpErrors;
import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A separately started node server ({@code bin/lsm-server}, {@code lsm.mode=feed}): inserts and updates are
 * streamed through its socket feed as the AsterixDB YCSB client streams them (ADM records back to back, one
 * connection per client thread), reads and scans go through its HTTP API. The {@code table} argument of each
 * operation is ignored: {@code lsm.dataset} names the dataset.
 *
 * <p><b>Acknowledgements.</b> With {@code lsm.feed.acks=true} (the feed must set {@code acks = true}) a write
 * returns once the feed has applied it: a later read of any thread sees it, as YCSB's read-your-writes and
 * {@code dataintegrity} checks expect. Without acks a write returns once it is in this thread's socket buffer
 * (sent when the buffer fills, before this thread's next read or scan, and at cleanup); the feed applies it
 * shortly after, so a read soon after a write may miss it. {@link #cleanup()} waits until the feed has applied
 * the connection's records, so a load's run time includes the feed's drain and the next YCSB process sees it all.
 *
 * <ul>
 *   <li>insert: the whole record, upserted by the feed;</li>
 *   <li>update: a read-modify-write (HTTP read, fields replaced or added, whole record sent), under a lock per key
 *       shared by this process's client threads; atomic against them only with acks. {@code NOT_FOUND} if there is
 *       no record; an update of every field of the workload's schema is sent without reading;</li>
 *   <li>delete: {@code DELETE /datasets/{name}/records/{key}} on the HTTP API (with {@code lsm.http.token} if the
 *       server has a token), under the key's lock; {@code OK} also for an absent key. It must not overtake this
 *       thread's earlier writes still in flight on the feed: with acks they are applied already; without, the
 *       delete first sends them and waits until the feed's statistics count them applied.</li>
 * </ul>
 */
public final class FeedLsmDB extends DB {
    /** One set of key locks per server and dataset, shared by the client threads writing it. */
    private static final Map<String, KeyLocks> LOCKS = new ConcurrentHashMap<>();

    private BindingConfig config;
    private BindingConfig.Feed settings;
    private NodeHttp http;
    private KeyLocks locks;
    private FeedSocket feed;

    /**
     * Checks the HTTP API (the dataset exists) and connects to the feed.
     *
     * @throws DBException naming the property, if a property is bad or missing, or the server does not answer
     */
    @Override
    public void init() throws DBException {
        try {
            config = BindingConfig.parse(getProperties(), BindingConfig.Mode.FEED);
            settings = config.feed();
            http = new NodeHttp(settings.http(), settings.dataset(), settings.name(), settings.timeout(),
                    settings.token());
            http.check(settings.http(), settings.dataset(), settings.name());
            try {
                feed = FeedSocket.connect(settings.address(), settings.timeout());
            } catch (IOException e) {
                throw new DBException(BindingConfig.FEED_ADDRESS + ": no socket feed accepts connections at "
                        + settings.address() + ": " + e, e);
            }
        } catch (DBException e) {
            BindingRuntime.initFailed(e.getMessage());
            throw e;
        }
        locks = LOCKS.computeIfAbsent(settings.http() + "/" + settings.dataset(), k -> new KeyLocks());
    }

    /**
     * Sends what is buffered and closes the connection; without acks, then waits until the feed has applied this
     * connection's records (its statistics stop listing it), so that the client thread, and YCSB's measured
     * run time, end when the writes are in the store.
     */
    @Override
    public void cleanup() throws DBException {
        if (feed != null) {
            FeedSocket f = feed;
            feed = null;
            InetSocketAddress local = f.localAddress();
            try {
                f.close();
                if (!settings.acks()) {
                    http.awaitApplied(local);
                }
            } catch (IOException e) {
                throw new DBException("closing the connection to the feed at " + settings.address() + ": " + e, e);
            }
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            sendPending();
            JsonNode record = http.record(key);
            if (record == null) {
                return Status.NOT_FOUND;
            }
            FeedRecords.fields(record, fields, result);
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return OpErrors.error("read", key, e);
        }
    }

    /** Pages through the range endpoint when {@code recordcount} exceeds its limit. */
    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        try {
            sendPending();
            String from = startkey;
            boolean skipFirst = false;
            int left = recordcount;
            while (left > 0) {
                int limit = Math.min(NodeHttp.MAX_LIMIT, left + (skipFirst ? 1 : 0));
                JsonNode page = http.range(from, limit);
                String last = null;
                for (JsonNode record : page) {
                    JsonNode k = record.get(YcsbRecord.KEY_FIELD);
                    String key = k == null ? null : k.asText();
                    if (skipFirst && key != null && key.equals(from)) {
                        skipFirst = false;
                        continue;
                    }
                    if (left == 0) {
                        break;
                    }
                    HashMap<String, ByteIterator> row = new HashMap<>();
                    FeedRecords.fields(record, fields, row);
                    result.add(row);
                    left--;
                    last = key;
                }
                if (page.size() < limit || last == null) {
                    break;
                }
                from = last;
                skipFirst = true;
            }
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return OpErrors.error("scan", startkey, e);
        }
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        ReentrantLock lock = locks.of(key);
        lock.lock();
        try {
            AdmValue.Obj record;
            if (YcsbRecord.isWhole(values, config.schema())) {
                record = YcsbRecord.of(key, values);
            } else {
                sendPending();
                JsonNode stored = http.record(key);
                if (stored == null) {
                    return Status.NOT_FOUND;
                }
                record = YcsbRecord.merge(FeedRecords.fromJson(stored), values);
            }
            write(record);
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return OpErrors.error("update", key, e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        ReentrantLock lock = locks.of(key);
        lock.lock();
        try {
            write(YcsbRecord.of(key, values));
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return OpErrors.error("insert", key, e);
        } finally {
            lock.unlock();
        }
    }

    /** Through the HTTP API, after this thread's earlier writes are applied (see the class comment). */
    @Override
    public Status delete(String table, String key) {
        ReentrantLock lock = locks.of(key);
        lock.lock();
        try {
            if (feed != null && !settings.acks() && feed.sent() > 0) {
                feed.flush();
                http.awaitApplied(feed.localAddress(), feed.sent());
            }
            http.delete(key);
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return OpErrors.error("delete", key, e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends {@code record}; with acks, waits until the feed has applied it. A failed connection is closed and
     * the next write opens a new one (the acknowledgement count starts again with it).
     */
    private void write(AdmValue.Obj record) throws IOException {
        FeedSocket f = connection();
        try {
            long n = f.send(FeedRecords.adm(record));
            if (settings.acks()) {
                f.awaitAck(n);
            }
        } catch (IOException e) {
            feed = null;
            try {
                f.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private FeedSocket connection() throws IOException {
        if (feed == null) {
            feed = FeedSocket.connect(settings.address(), settings.timeout());
        }
        return feed;
    }

    /** Without acks, sends this thread's buffered writes before it reads (with acks nothing is pending). */
    private void sendPending() throws IOException {
        if (feed != null && !settings.acks()) {
            feed.flush();
        }
    }
}
