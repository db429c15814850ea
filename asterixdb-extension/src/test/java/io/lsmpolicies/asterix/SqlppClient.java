package io.lsmpolicies.asterix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs SQL++ through AsterixDB's HTTP query service ({@code POST /query/service}), as any AsterixDB client does.
 */
public final class SqlppClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final URI service;

    SqlppClient(InetSocketAddress api) {
        this.service = URI.create("http://" + api.getHostString() + ":" + api.getPort() + "/query/service");
    }

    /**
     * Runs {@code statements} (one or more, separated by {@code ;}) and returns the results of the last one.
     *
     * @throws IllegalStateException with AsterixDB's error messages if the request does not succeed
     */
    public List<JsonNode> run(String statements) throws IOException, InterruptedException {
        String form = "statement=" + URLEncoder.encode(statements, StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(service).timeout(Duration.ofMinutes(2))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        if (response.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
            throw new IllegalStateException("AsterixDB refused: " + body.path("errors") + " (HTTP "
                    + response.statusCode() + ") for: " + statements);
        }
        List<JsonNode> results = new ArrayList<>();
        body.path("results").forEach(results::add);
        return results;
    }

    /** {@code SELECT VALUE COUNT(*) FROM <dataset>} in dataverse {@code dataverse}. */
    public long count(String dataverse, String dataset) throws IOException, InterruptedException {
        return run("USE " + dataverse + "; SELECT VALUE COUNT(*) FROM " + dataset + ";").get(0).asLong();
    }
}
