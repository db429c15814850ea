package io.lsmpolicies.feeds.server;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.Feed;
import io.lsmpolicies.feeds.KeyEncoder;
import io.lsmpolicies.feeds.ValueCodec;
import io.lsmpolicies.lsm.KeyValue;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The node's HTTP API, JSON out: {@code GET /health}, {@code /datasets/{name}/records/{key}},
 * {@code /datasets/{name}/records?from=&to=&limit=}, {@code /datasets/{name}/count},
 * {@code /datasets/{name}/metrics}, {@code /feeds/{name}/stats}. Errors are {@code {"error": "..."}} with 400
 * (bad parameter), 404 (unknown path, dataset, feed or key), 405 (not GET) or 500 (the store failed); a request
 * never takes the server down. Requests run on a worker executor, never on an event loop, as reads block.
 *
 * <p>A key in a path or a query is a JSON array of key values (composite keys; a range bound may be a prefix),
 * or the value of a single-field primary key: {@code "..."} (quoted) is a string, digits with an optional sign an
 * integer, anything else a string.
 */
@ChannelHandler.Sharable
final class HttpApi extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final System.Logger LOG = System.getLogger(HttpApi.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    /** Default and largest {@code limit} of a range scan. */
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 10_000;

    private final Map<String, Dataset> datasets;
    private final Map<String, Feed> feeds;

    private final Executor workers;

    /** @param workers runs the requests (they block on store reads), never an event loop */
    HttpApi(Map<String, Dataset> datasets, Map<String, Feed> feeds, Executor workers) {
        this.datasets = datasets;
        this.feeds = feeds;
        this.workers = workers;
    }

    /** An error response. */
    private static final class HttpError extends Exception {
        final HttpResponseStatus status;

        HttpError(HttpResponseStatus status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        boolean valid = req.decoderResult().isSuccess();
        HttpMethod method = req.method();
        String uri = req.uri();
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        try {
            workers.execute(() -> respond(ctx, valid, method, uri, keepAlive));
        } catch (RejectedExecutionException e) { // shutting down
            ctx.close();
        }
    }

    /** Computes and writes the response. Runs on a worker thread: reads block. */
    private void respond(ChannelHandlerContext ctx, boolean valid, HttpMethod method, String uri,
            boolean keepAlive) {
        HttpResponseStatus status = HttpResponseStatus.OK;
        byte[] body;
        try {
            if (!valid) {
                throw new HttpError(HttpResponseStatus.BAD_REQUEST, "malformed request");
            }
            if (!method.equals(HttpMethod.GET)) {
                throw new HttpError(HttpResponseStatus.METHOD_NOT_ALLOWED, "only GET is supported");
            }
            body = route(uri);
        } catch (HttpError e) {
            status = e.status;
            body = error(e.getMessage());
        } catch (Exception | StackOverflowError e) {
            LOG.log(System.Logger.Level.ERROR, "GET " + uri + " failed", e);
            status = HttpResponseStatus.INTERNAL_SERVER_ERROR;
            body = error(String.valueOf(e));
        }
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON + "; charset=utf-8");
        HttpUtil.setContentLength(res, body.length);
        HttpUtil.setKeepAlive(res, keepAlive);
        var f = ctx.writeAndFlush(res);
        if (!keepAlive) {
            f.addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(System.Logger.Level.DEBUG, "HTTP connection failed", cause);
        ctx.close();
    }

    private byte[] route(String uri) throws Exception {
        int q = uri.indexOf('?');
        String rawPath = q < 0 ? uri : uri.substring(0, q);
        Map<String, List<String>> params = new QueryStringDecoder(uri).parameters();
        List<String> seg = new ArrayList<>();
        for (String s : rawPath.split("/")) {
            if (!s.isEmpty()) {
                seg.add(QueryStringDecoder.decodeComponent(s));
            }
        }
        if (seg.size() == 1 && seg.get(0).equals("health")) {
            return json(g -> {
                g.writeStartObject();
                g.writeStringField("status", "ok");
                g.writeNumberField("datasets", datasets.size());
                g.writeNumberField("feeds", feeds.size());
                g.writeEndObject();
            });
        }
        if (seg.size() == 3 && seg.get(0).equals("feeds") && seg.get(2).equals("stats")) {
            Feed f = feeds.get(seg.get(1));
            if (f == null) {
                throw new HttpError(HttpResponseStatus.NOT_FOUND, "no feed '" + seg.get(1) + "'");
            }
            return JSON.writeValueAsBytes(f.stats());
        }
        if (seg.size() >= 3 && seg.get(0).equals("datasets")) {
            Dataset d = datasets.get(seg.get(1));
            if (d == null) {
                throw new HttpError(HttpResponseStatus.NOT_FOUND, "no dataset '" + seg.get(1) + "'");
            }
            String op = seg.get(2);
            if (seg.size() == 3 && op.equals("count")) {
                return count(d);
            }
            if (seg.size() == 3 && op.equals("metrics")) {
                return metrics(d);
            }
            if (seg.size() == 3 && op.equals("records")) {
                return range(d, params);
            }
            if (seg.size() == 4 && op.equals("records")) {
                return record(d, seg.get(3));
            }
        }
        throw new HttpError(HttpResponseStatus.NOT_FOUND, "no such resource: " + rawPath);
    }

    private byte[] record(Dataset d, String keyText) throws Exception {
        byte[] key = key(d, keyText, "key", false);
        byte[] value = d.storeFor(key).get(key);
        if (value == null) {
            throw new HttpError(HttpResponseStatus.NOT_FOUND, "no record with key " + keyText + " in " + d.name());
        }
        return json(g -> AdmJson.write(g, ValueCodec.decode(value)));
    }

    private byte[] range(Dataset d, Map<String, List<String>> params) throws Exception {
        for (String p : params.keySet()) {
            if (!p.equals("from") && !p.equals("to") && !p.equals("limit")) {
                throw new HttpError(HttpResponseStatus.BAD_REQUEST, "unknown parameter '" + p
                        + "'; expected from, to, limit");
            }
        }
        byte[] from = params.containsKey("from") ? key(d, params.get("from").get(0), "from", true) : null;
        byte[] to = params.containsKey("to") ? key(d, params.get("to").get(0), "to", true) : null;
        int limit = DEFAULT_LIMIT;
        if (params.containsKey("limit")) {
            String l = params.get("limit").get(0);
            try {
                limit = Integer.parseInt(l);
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new HttpError(HttpResponseStatus.BAD_REQUEST, "limit must be an integer in [1, " + MAX_LIMIT
                        + "], was '" + l + "'");
            }
        }
        int max = limit;
        List<StoreIterator> scans = new ArrayList<>();
        try {
            // A k-way merge: each partition's scan is in key order, and partitions hold disjoint keys.
            PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> Arrays.compareUnsigned(a.kv.key(), b.kv.key()));
            for (LsmStore s : d.partitions()) {
                StoreIterator it = s.scan(from, to);
                scans.add(it);
                if (it.hasNext()) {
                    heads.add(new Head(it.next(), it));
                }
            }
            return json(g -> {
                g.writeStartArray();
                for (int n = 0; n < max && !heads.isEmpty(); n++) {
                    Head h = heads.poll();
                    AdmJson.write(g, ValueCodec.decode(h.kv.value()));
                    if (h.it.hasNext()) {
                        heads.add(new Head(h.it.next(), h.it));
                    }
                }
                g.writeEndArray();
            });
        } finally {
            for (StoreIterator it : scans) {
                it.close();
            }
        }
    }

    private record Head(KeyValue kv, StoreIterator it) {
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

    /** The encoded key of a single-field primary key value given as text (see the class comment). */
    /**
     * The encoded key {@code text} names. A JSON array gives one value per key field, in key order (strings,
     * integers, doubles): the only way to name a composite key; a range bound may give a prefix of the fields.
     * Otherwise the text is the value of a single-field key: {@code "..."} (quoted) a string, digits with an
     * optional sign an integer, anything else a string.
     */
    private static byte[] key(Dataset d, String text, String what, boolean prefixAllowed) throws HttpError {
        int fields = d.keyFields().size();
        if (text.isEmpty()) {
            throw new HttpError(HttpResponseStatus.BAD_REQUEST, what + " must not be empty");
        }
        if (text.startsWith("[")) {
            JsonNode array;
            try {
                array = JSON.readTree(text);
            } catch (IOException e) {
                array = null;
            }
            if (array == null || !array.isArray() || array.isEmpty() || array.size() > fields
                    || (!prefixAllowed && array.size() != fields)) {
                throw new HttpError(HttpResponseStatus.BAD_REQUEST, what + " '" + text + "' must be a JSON array of "
                        + (prefixAllowed ? "1 to " : "") + fields + " value(s), for " + d.keyFields());
            }
            Object[] values = new Object[array.size()];
            for (int i = 0; i < values.length; i++) {
                JsonNode v = array.get(i);
                if (v.isTextual()) {
                    values[i] = v.asText();
                } else if (v.isIntegralNumber() && v.canConvertToLong()) {
                    values[i] = v.asLong();
                } else if (v.isFloatingPointNumber()) {
                    values[i] = v.asDouble();
                } else {
                    throw new HttpError(HttpResponseStatus.BAD_REQUEST, what + ": key field " + d.keyFields().get(i)
                            + " is " + v + ", not a string, int64 or double");
                }
            }
            return KeyEncoder.of(values);
        }
        if (fields != 1) {
            throw new HttpError(HttpResponseStatus.BAD_REQUEST, "dataset " + d.name() + " has a composite key "
                    + d.keyFields() + "; give '" + what + "' as a JSON array, e.g. [\"a\",1]");
        }
        if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
            return KeyEncoder.of(text.substring(1, text.length() - 1));
        }
        if (text.matches("[+-]?\\d+")) {
            try {
                return KeyEncoder.of(Long.parseLong(text));
            } catch (NumberFormatException e) {
                throw new HttpError(HttpResponseStatus.BAD_REQUEST, what + " " + text + " is beyond int64");
            }
        }
        return KeyEncoder.of(text);
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

    private static byte[] error(String message) {
        try {
            return json(g -> {
                g.writeStartObject();
                g.writeStringField("error", message);
                g.writeEndObject();
            });
        } catch (IOException e) {
            return "{\"error\":\"?\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
