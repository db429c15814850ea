package io.lsmpolicies.feeds.server;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.Feed;
import io.lsmpolicies.feeds.Partition;
import io.lsmpolicies.feeds.PartitionUnavailableException;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.lsm.events.EventLog;
import io.lsmpolicies.lsm.events.StoreEvent;
import io.lsmpolicies.records.ValueCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The node's HTTP API, JSON out ({@code docs/configuration.md}): reads ({@code GET /health},
 * {@code /datasets/{name}/records/{key}}, {@code /datasets/{name}/records?from=&to=&limit=},
 * {@code /datasets/{name}/count}, {@code /datasets/{name}/metrics}, {@code /datasets/{name}/events?limit=},
 * {@code /feeds/{name}/stats}) and the two
 * requests that change state ({@code DELETE /datasets/{name}/records/{key}}, {@code POST /datasets/{name}/flush},
 * {@code POST /datasets/{name}/partitions/{i}/reopen}). Errors are {@code {"error": "..."}} with the status of the
 * {@link ApiRequestException}; 503 if a partition the request needs is unavailable
 * ({@link PartitionUnavailableException}: it failed to open, its store stopped taking writes, or it is being
 * reopened), with {@code "dataset"} and {@code "partition"} beside the error; 500 if the store failed otherwise.
 * A request never takes the server down. {@link #serve} runs on a worker thread, never an event loop, as
 * store reads and writes block.
 *
 * <p>Authorization, checked before the request is even parsed: with a token configured, every method other
 * than GET (and GET too with {@code token-required-for-reads}) needs {@code Authorization: Bearer <token>}: 401
 * without it, 403 with a wrong one. Without a token, methods other than GET are served only when the server
 * listens on a loopback address, and refused with 403 otherwise.
 */
final class HttpApi {
    private static final System.Logger LOG = System.getLogger(HttpApi.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private final Map<String, Dataset> datasets;
    private final Map<String, Feed> feeds;
    private final HttpSettings settings;
    private final Supplier<HttpStats> stats;

    HttpApi(Map<String, Dataset> datasets, Map<String, Feed> feeds, HttpSettings settings, Supplier<HttpStats> stats) {
        this.datasets = datasets;
        this.feeds = feeds;
        this.settings = settings;
        this.stats = stats;
    }

    /** Answers {@code r} on {@code conn}. Runs on a worker thread. */
    void serve(HttpConnection conn, HttpConnection.Request r) {
        try {
            if (r.refused() != null) {
                throw r.refused();
            }
            authorize(settings, r.method(), r.authorization());
            ApiRequest req = RequestParser.parse(r.method(), r.uri(), this::keyFields, feeds::containsKey);
            if (req instanceof ApiRequest.Range range) {
                RangeStream s = new RangeStream(conn, datasets.get(range.dataset()), range, r.keepAlive(),
                        r.chunked(), JSON.getFactory());
                s.open();
                s.run();
                return;
            }
            conn.respond(HttpResponseStatus.OK, execute(req), r.keepAlive(), Map.of());
        } catch (ApiRequestException e) {
            Map<String, String> headers = Map.of();
            if (e.status() == 401) {
                headers = Map.of(HttpHeaderNames.WWW_AUTHENTICATE.toString(), "Bearer realm=\"lsm-server\"");
            } else if (e.allow() != null) {
                headers = Map.of(HttpHeaderNames.ALLOW.toString(), e.allow());
            }
            conn.respond(HttpResponseStatus.valueOf(e.status()), error(e.getMessage()), r.keepAlive(), headers);
        } catch (PartitionUnavailableException e) {
            conn.respond(HttpResponseStatus.SERVICE_UNAVAILABLE, unavailable(e), r.keepAlive(), Map.of());
        } catch (Exception | StackOverflowError e) {
            LOG.log(System.Logger.Level.ERROR, r.method() + " " + r.uri() + " failed", e);
            conn.respond(HttpResponseStatus.INTERNAL_SERVER_ERROR, error(String.valueOf(e)), r.keepAlive(),
                    Map.of());
        }
    }

    private List<String> keyFields(String dataset) {
        Dataset d = datasets.get(dataset);
        return d == null ? null : d.keyFields();
    }

    /**
     * Whether a request with {@code method} and the {@code Authorization} header {@code authorization} (or null) may
     * proceed under {@code settings} (see the class comment).
     *
     * @throws ApiRequestException 401 if the token is needed and not given, 403 if it is wrong, or if a request
     *                             that changes state reaches a non-loopback server that has no token
     */
    static void authorize(HttpSettings settings, String method, String authorization) throws ApiRequestException {
        boolean read = method.equals("GET");
        if (read && !settings.tokenRequiredForReads()) {
            return;
        }
        if (settings.token() == null) {
            if (settings.writesOpenWithoutToken()) {
                return;
            }
            throw new ApiRequestException(403, method + " requests change state, and this server listens on "
                    + settings.address() + " (not a loopback address) without a token; set [http] token or"
                    + " token-file to allow them");
        }
        if (authorization == null) {
            throw new ApiRequestException(401, (read ? "reads" : method + " requests")
                    + " need the server's token: send 'Authorization: Bearer <token>'");
        }
        if (!settings.token().matchesHeader(authorization)) {
            throw new ApiRequestException(403, "the Authorization header does not carry the server's token");
        }
    }

    private byte[] execute(ApiRequest req) throws Exception {
        if (req instanceof ApiRequest.Health) {
            return health();
        }
        if (req instanceof ApiRequest.FeedStats f) {
            return JSON.writeValueAsBytes(feeds.get(f.feed()).stats());
        }
        if (req instanceof ApiRequest.Count c) {
            return count(datasets.get(c.dataset()));
        }
        if (req instanceof ApiRequest.Metrics m) {
            return metrics(datasets.get(m.dataset()));
        }
        if (req instanceof ApiRequest.Events e) {
            return events(datasets.get(e.dataset()), e.limit());
        }
        if (req instanceof ApiRequest.Get g) {
            Dataset d = datasets.get(g.dataset());
            byte[] value;
            try (Partition.Lease lease = d.partitionFor(g.key()).acquire(false)) {
                value = lease.store().get(g.key());
            }
            if (value == null) {
                throw ApiRequestException.notFound("no record with key " + g.keyText() + " in " + d.name());
            }
            return json(gen -> AdmJson.write(gen, ValueCodec.decode(value)));
        }
        if (req instanceof ApiRequest.Delete del) {
            return delete(datasets.get(del.dataset()), del);
        }
        if (req instanceof ApiRequest.Flush f) {
            return flush(datasets.get(f.dataset()));
        }
        if (req instanceof ApiRequest.Reopen r) {
            return reopen(datasets.get(r.dataset()), r.partition());
        }
        throw new IllegalStateException("no handler for " + req);
    }

    /** "ok", or "degraded" with every partition that is not open, its state and error. */
    private byte[] health() throws IOException {
        HttpStats h = stats.get();
        List<Partition> notOpen = new ArrayList<>();
        List<Partition.Status> statuses = new ArrayList<>();
        for (Dataset d : datasets.values()) {
            for (Partition p : d.partitions()) {
                Partition.Status st = p.status();
                if (st.state() != Partition.State.OPEN) {
                    notOpen.add(p);
                    statuses.add(st);
                }
            }
        }
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("status", notOpen.isEmpty() ? "ok" : "degraded");
            g.writeNumberField("datasets", datasets.size());
            g.writeNumberField("feeds", feeds.size());
            if (!notOpen.isEmpty()) {
                g.writeArrayFieldStart("unavailablePartitions");
                for (int i = 0; i < notOpen.size(); i++) {
                    Partition p = notOpen.get(i);
                    g.writeStartObject();
                    g.writeStringField("dataset", p.dataset());
                    g.writeNumberField("partition", p.index());
                    g.writeStringField("directory", p.directory().toString());
                    g.writeStringField("state", statuses.get(i).state().name());
                    g.writeStringField("error", statuses.get(i).error());
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeObjectFieldStart("http");
            g.writeNumberField("open", h.open());
            g.writeNumberField("accepted", h.accepted());
            g.writeNumberField("refused", h.refused());
            g.writeNumberField("timedOut", h.timedOut());
            g.writeNumberField("pendingBytes", h.pendingBytes());
            g.writeNumberField("peakPendingBytes", h.peakPendingBytes());
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    /**
     * A write through {@code lease} failed with {@code e}: if the store stopped taking writes, the partition's
     * 503, else {@code e} itself (a 500).
     */
    private static Exception writeFailed(Partition p, Partition.Lease lease, Exception e) {
        if (lease.failed(e)) {
            return new PartitionUnavailableException(p.dataset(), p.index(), p.writeFailure(e), true, e);
        }
        return e;
    }

    /** A tombstone in the key's partition (an absent key may be deleted); durable as the WAL mode makes it. */
    private byte[] delete(Dataset d, ApiRequest.Delete del) throws Exception {
        Partition p = d.partitionFor(del.key());
        try (Partition.Lease lease = p.acquire(true)) {
            try {
                lease.store().delete(del.key());
            } catch (IllegalArgumentException e) { // a key over the store's limit
                throw ApiRequestException.badRequest("key " + del.keyText() + ": " + e.getMessage());
            } catch (IOException | RuntimeException e) {
                throw writeFailed(p, lease, e);
            }
        }
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("dataset", d.name());
            g.writeStringField("deleted", del.keyText());
            g.writeEndObject();
        });
    }

    /**
     * Flushes every partition's MemTable; returns once each is in an SSTable. If a partition takes no writes,
     * nothing is flushed (503 naming it).
     */
    private byte[] flush(Dataset d) throws Exception {
        List<Partition.Lease> leases = new ArrayList<>();
        try {
            for (Partition p : d.partitions()) {
                leases.add(p.acquire(true));
            }
            for (int i = 0; i < leases.size(); i++) {
                try {
                    leases.get(i).store().flush();
                } catch (IOException | RuntimeException e) {
                    throw writeFailed(d.partitions().get(i), leases.get(i), e);
                }
            }
        } finally {
            leases.forEach(Partition.Lease::close);
        }
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("dataset", d.name());
            g.writeNumberField("flushedPartitions", d.partitions().size());
            g.writeEndObject();
        });
    }

    /** Reopens partition {@code index} of {@code d} unless it is open; 503 with the cause if it cannot be. */
    private byte[] reopen(Dataset d, int index) throws Exception {
        if (index >= d.partitions().size()) {
            throw ApiRequestException.notFound("dataset " + d.name() + " has " + d.partitions().size()
                    + " partition(s), numbered from 0; no partition " + index);
        }
        Partition p = d.partitions().get(index);
        boolean reopened;
        try {
            reopened = p.reopen(PartitionReopener.OLD_STORE_WAIT);
        } catch (IOException e) {
            throw new PartitionUnavailableException(p.dataset(), p.index(), p.name() + " could not be reopened: "
                    + Partition.causes(e), false, e);
        }
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("dataset", d.name());
            g.writeNumberField("partition", index);
            g.writeStringField("state", p.status().state().name());
            g.writeBooleanField("reopened", reopened);
            g.writeEndObject();
        });
    }

    private byte[] count(Dataset d) throws Exception {
        List<Long> counts = new ArrayList<>();
        long total = 0;
        for (Partition p : d.partitions()) {
            long n = 0;
            try (Partition.Lease lease = p.acquire(false); StoreIterator it = lease.store().scan(null, null)) {
                while (it.hasNext()) {
                    it.next();
                    n++;
                }
            }
            counts.add(n);
            total += n;
        }
        long sum = total;
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("dataset", d.name());
            g.writeNumberField("count", sum);
            g.writeArrayFieldStart("partitions");
            for (long c : counts) {
                g.writeNumber(c);
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /** Each partition's metrics; a partition without a store gives its state and error instead. */
    private byte[] metrics(Dataset d) throws Exception {
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("dataset", d.name());
            g.writeArrayFieldStart("partitions");
            for (Partition p : d.partitions()) {
                g.writeStartObject();
                g.writeNumberField("partition", p.index());
                g.writeStringField("directory", p.directory().toString());
                Partition.Status st = p.status();
                g.writeStringField("state", st.state().name());
                if (st.error() != null) {
                    g.writeStringField("error", st.error());
                }
                try (Partition.Lease lease = p.acquire(false)) {
                    g.writeFieldName("metrics");
                    g.writeRawValue(lease.store().metrics().toJson());
                } catch (PartitionUnavailableException e) {
                    // state and error say why
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /**
     * Each partition's newest {@code limit} events, oldest first, read from its store's event log (so they are
     * there while the partition is closed or failed, too).
     */
    private byte[] events(Dataset d, int limit) throws Exception {
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("dataset", d.name());
            g.writeArrayFieldStart("partitions");
            for (Partition p : d.partitions()) {
                EventLog.Contents c = EventLog.read(p.directory());
                List<StoreEvent> events = c.events();
                g.writeStartObject();
                g.writeNumberField("partition", p.index());
                g.writeStringField("directory", p.directory().toString());
                g.writeNumberField("skippedLines", c.skippedLines());
                g.writeArrayFieldStart("events");
                for (StoreEvent e : events.subList(Math.max(0, events.size() - limit), events.size())) {
                    g.writeRawValue(EventLog.toJson(e));
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] json(Body body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            body.write(g);
        }
        return out.toByteArray();
    }

    /** {@code {"error": message, "dataset": ..., "partition": i}}. */
    private static byte[] unavailable(PartitionUnavailableException e) {
        try {
            return json(g -> {
                g.writeStartObject();
                g.writeStringField("error", e.getMessage());
                g.writeStringField("dataset", e.dataset());
                g.writeNumberField("partition", e.partition());
                g.writeEndObject();
            });
        } catch (IOException x) {
            return error(e.getMessage());
        }
    }

    /** {@code {"error": message}}. */
    static byte[] error(String message) {
        try {
            return json(g -> {
                g.writeStartObject();
                g.writeStringField("error", message);
                g.writeEndObject();
            });
        } catch (IOException e) {
            return "{\"error\":\"?\"}".getBytes(StandardCharsets.UTF_8);
        }
    }
}
