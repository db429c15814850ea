package io.lsmpolicies.feeds.server;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.Feed;
import io.lsmpolicies.feeds.ValueCodec;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
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
 * {@code /datasets/{name}/count}, {@code /datasets/{name}/metrics}, {@code /feeds/{name}/stats}) and the two
 * requests that change state ({@code DELETE /datasets/{name}/records/{key}}, {@code POST /datasets/{name}/flush}).
 * Errors are {@code {"error": "..."}} with the status of the {@link ApiRequestException}, or 500 if the store
 * failed; a request never takes the server down. {@link #serve} runs on a worker thread, never an event loop, as
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
        if (req instanceof ApiRequest.Get g) {
            Dataset d = datasets.get(g.dataset());
            byte[] value = d.storeFor(g.key()).get(g.key());
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
        throw new IllegalStateException("no handler for " + req);
    }

    private byte[] health() throws IOException {
        HttpStats h = stats.get();
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("status", "ok");
            g.writeNumberField("datasets", datasets.size());
            g.writeNumberField("feeds", feeds.size());
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

    /** A tombstone in the key's partition (an absent key may be deleted); durable as the WAL mode makes it. */
    private byte[] delete(Dataset d, ApiRequest.Delete del) throws Exception {
        try {
            d.storeFor(del.key()).delete(del.key());
        } catch (IllegalArgumentException e) { // a key over the store's limit
            throw ApiRequestException.badRequest("key " + del.keyText() + ": " + e.getMessage());
        }
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("dataset", d.name());
            g.writeStringField("deleted", del.keyText());
            g.writeEndObject();
        });
    }

    /** Flushes every partition's MemTable; returns once each is in an SSTable. */
    private byte[] flush(Dataset d) throws Exception {
        for (LsmStore s : d.partitions()) {
            s.flush();
        }
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("dataset", d.name());
            g.writeNumberField("flushedPartitions", d.partitions().size());
            g.writeEndObject();
        });
    }

    private byte[] count(Dataset d) throws Exception {
        List<Long> counts = new ArrayList<>();
        long total = 0;
        for (LsmStore s : d.partitions()) {
            long n = 0;
            try (StoreIterator it = s.scan(null, null)) {
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

    private byte[] metrics(Dataset d) throws Exception {
        return json(g -> {
            g.writeStartObject();
            g.writeStringField("dataset", d.name());
            g.writeArrayFieldStart("partitions");
            for (int i = 0; i < d.partitions().size(); i++) {
                LsmStore s = d.partitions().get(i);
                g.writeStartObject();
                g.writeNumberField("partition", i);
                g.writeStringField("directory", s.directory().toString());
                g.writeFieldName("metrics");
                g.writeRawValue(s.metrics().toJson());
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
