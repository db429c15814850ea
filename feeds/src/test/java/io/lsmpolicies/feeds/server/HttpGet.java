package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** GET requests to a node server's HTTP API on 127.0.0.1, for tests: status and JSON body. */
final class HttpGet {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** A response: its status and its JSON body. */
    record Reply(int status, JsonNode body) {
    }

    /** GET {@code path} (already encoded) with the query parameters {@code query} (name, value, ...). */
    Reply get(NodeServer s, String path, String... query) throws Exception {
        StringBuilder q = new StringBuilder();
        for (int i = 0; i < query.length; i += 2) {
            q.append(q.length() == 0 ? "?" : "&").append(query[i]).append('=')
                    .append(URLEncoder.encode(query[i + 1], StandardCharsets.UTF_8));
        }
        URI uri = URI.create("http://127.0.0.1:" + s.httpAddress().getPort() + path + q);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), JSON.readTree(r.body()));
    }

    /** The body of a GET that must answer 200. */
    JsonNode ok(NodeServer s, String path, String... query) throws Exception {
        Reply r = get(s, path, query);
        assertThat(r.status()).as("%s: %s", path, r.body()).isEqualTo(200);
        return r.body();
    }

    /** {@code segment} encoded for a URL path. */
    static String encoded(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
