package io.lsmpolicies.ycsb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import site.ycsb.DBException;

/**
 * Reads and deletes of one dataset through a node server's HTTP API ({@code docs/configuration.md}):
 * {@code GET /datasets/{name}/records/{key}}, {@code GET /datasets/{name}/records?from=&limit=} and
 * {@code DELETE /datasets/{name}/records/{key}}; and a feed's statistics ({@code GET /feeds/{name}/stats}), which
 * tell when a connection's records are applied. Keys are sent quoted ({@code "user1"}), so the server reads them as
 * strings whatever they look like. With a token ({@code lsm.http.token}) every request carries
 * {@code Authorization: Bearer <token>}. One HTTP/1.1 client (keep-alive connections) serves every instance.
 * Thread-safe.
 */
final class NodeHttp {
    /** The most records one range request may return (the server's limit). */
    static final int MAX_LIMIT = 10_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private final String base;
    private final String feedStats;
    private final Duration timeout;
    private final String token;

    /** @param token the server's token, or null */
    NodeHttp(InetSocketAddress http, String dataset, String feed, Duration timeout, String token) {
        String host = http.getHostString();
        String server = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + http.getPort();
        this.base = server + "/datasets/" + encode(dataset) + "/records";
        this.feedStats = server + "/feeds/" + encode(feed) + "/stats";
        this.timeout = timeout;
        this.token = token;
    }

    /**
     * Checks that the server answers and has the dataset.
     *
     * @throws DBException naming {@code lsm.http.address} or {@code lsm.dataset}
     */
    void check(InetSocketAddress http, String dataset, String feed) throws DBException {
        HttpResponse<byte[]> r;
        try {
            r = send(base + "?limit=1");
        } catch (IOException e) {
            throw new DBException(BindingConfig.HTTP_ADDRESS + ": no node server's HTTP API answers at " + http + ": "
                    + e, e);
        }
        if (r.statusCode() == 404) {
            throw new DBException(BindingConfig.DATASET + ": the node server at " + http + " has no dataset '"
                    + dataset + "' (" + error(r) + ")");
        }
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            throw new DBException(BindingConfig.HTTP_TOKEN + ": the server at " + http + " answered "
                    + r.statusCode() + ": " + error(r));
        }
        if (r.statusCode() != 200) {
            throw new DBException(BindingConfig.HTTP_ADDRESS + ": the server at " + http + " answered "
                    + r.statusCode() + " to GET " + base + "?limit=1: " + error(r));
        }
        try {
            r = send(feedStats);
        } catch (IOException e) {
            throw new DBException(BindingConfig.HTTP_ADDRESS + ": GET " + feedStats + " failed: " + e, e);
        }
        if (r.statusCode() != 200) {
            throw new DBException(BindingConfig.FEED_NAME + ": the node server at " + http + " has no feed '" + feed
                    + "' (" + error(r) + "); give the name of the [feed/NAME] section that listens on "
                    + BindingConfig.FEED_ADDRESS);
        }
    }

    /**
     * Waits until the feed no longer lists a connection from {@code client} (a closed connection is listed until
     * its queued records are applied).
     *
     * @throws IOException if it is still listed after the timeout, or the statistics cannot be read
     */
    void awaitApplied(InetSocketAddress client) throws IOException {
        String suffix = "/" + client.getAddress().getHostAddress() + ":" + client.getPort();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean listed = false;
            for (JsonNode c : body(send(feedStats)).path("open")) {
                listed |= c.path("remote").asText().endsWith(suffix);
            }
            if (!listed) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the feed still applies the records of connection " + client + " after "
                        + timeout.toMillis() + " ms (" + feedStats + ")");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the feed to apply " + client, e);
            }
        }
    }

    /**
     * Waits until the feed has applied the first {@code n} records of the open connection from {@code client}
     * (applied, found present, or refused as bad), or no longer lists it.
     *
     * @throws IOException if it has not after the timeout, or the statistics cannot be read
     */
    void awaitApplied(InetSocketAddress client, long n) throws IOException {
        String suffix = "/" + client.getAddress().getHostAddress() + ":" + client.getPort();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long done = Long.MAX_VALUE; // not listed: closed and drained
            for (JsonNode c : body(send(feedStats)).path("open")) {
                if (c.path("remote").asText().endsWith(suffix)) {
                    done = c.path("records").asLong() + c.path("duplicates").asLong();
                    for (JsonNode e : c.path("errors")) {
                        done += e.asLong();
                    }
                }
            }
            if (done >= n) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the feed has applied " + done + " of the " + n + " records of connection "
                        + client + " after " + timeout.toMillis() + " ms (" + feedStats + ")");
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the feed to apply " + client, e);
            }
        }
    }

    /**
     * Deletes the record of {@code key} (a tombstone; an absent key may be deleted).
     *
     * @throws IOException if the server refuses (a 401 or 403 names {@code lsm.http.token}) or fails
     */
    void delete(String key) throws IOException {
        String uri = base + "/" + encode(quoted(key));
        HttpResponse<byte[]> r = send(HttpRequest.newBuilder(URI.create(uri)).timeout(timeout).DELETE(), uri);
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            throw new IOException("DELETE " + uri + " answered " + r.statusCode() + ": " + error(r) + " (the token is"
                    + " " + BindingConfig.HTTP_TOKEN + ")");
        }
        if (r.statusCode() != 200) {
            throw new IOException("DELETE " + uri + " answered " + r.statusCode() + ": " + error(r));
        }
    }

    /** The record of {@code key}, or null if there is none. */
    JsonNode record(String key) throws IOException {
        HttpResponse<byte[]> r = send(base + "/" + encode(quoted(key)));
        if (r.statusCode() == 404) {
            return null;
        }
        return body(r);
    }

    /** Up to {@code limit} (at most {@link #MAX_LIMIT}) records with keys at or after {@code from}, in key order. */
    JsonNode range(String from, int limit) throws IOException {
        return body(send(base + "?from=" + encode(quoted(from)) + "&limit=" + limit));
    }

    private HttpResponse<byte[]> send(String uri) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(uri)).timeout(timeout).GET(), uri);
    }

    private HttpResponse<byte[]> send(HttpRequest.Builder b, String uri) throws IOException {
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        HttpRequest req = b.build();
        String what = req.method() + " " + uri;
        try {
            return CLIENT.send(req, HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + what, e);
        } catch (ConnectException e) {
            throw new IOException(what + ": cannot connect (" + e + ")", e);
        } catch (HttpTimeoutException e) {
            throw new IOException(what + ": no answer within " + timeout.toMillis() + " ms", e);
        }
    }

    private static JsonNode body(HttpResponse<byte[]> r) throws IOException {
        if (r.statusCode() != 200) {
            throw new IOException("GET " + r.uri() + " answered " + r.statusCode() + ": " + error(r));
        }
        return JSON.readTree(r.body());
    }

    private static String error(HttpResponse<byte[]> r) {
        try {
            JsonNode e = JSON.readTree(r.body()).get("error");
            return e != null ? e.asText() : new String(r.body(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return new String(r.body(), StandardCharsets.UTF_8);
        }
    }

    /** A key as the API's quoted string form, so digits-only keys stay strings. */
    private static String quoted(String key) {
        return "\"" + key + "\"";
    }

    /** {@code s} encoded for a path segment or a query value ({@code %20} for a space, {@code %2B} for a plus). */
    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
