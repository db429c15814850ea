package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.records.KeyEncoder;
import io.lsmpolicies.records.ValueCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP operations that change state ({@code DELETE} a record, {@code POST} a flush) and the
 * optional shared-secret token that guards them.
 */
@Timeout(60)
class HttpAuthTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "s3cr3t-t0ken-0123456789";

    @TempDir
    Path tmp;
    private NodeServer server;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private void start(String httpSection) throws Exception {
        String conf = "[nc/nc1]\niodevices = " + tmp.resolve("io0") + ", " + tmp.resolve("io1") + "\n"
                + "[nc]\nstorage.wal.mode = async\n[http]\nport = 0\n" + httpSection
                + "[dataset/orders]\nprimary-key = customer, id\n";
        Path file = Files.writeString(tmp.resolve("node.conf"), conf, StandardCharsets.UTF_8);
        server = NodeServer.start(DescriptorParser.parse(file, true));
        for (int id = 0; id < 10; id++) {
            byte[] key = KeyEncoder.of("ann", (long) id);
            AdmValue.Obj rec = new AdmValue.Obj(Map.of("customer", new AdmValue.Str("ann"), "id",
                    new AdmValue.Int(AdmValue.IntKind.INT64, id)));
            server.dataset("orders").storeFor(key).put(key, ValueCodec.encode(rec));
        }
    }

    private record Reply(int status, JsonNode body, HttpResponse<String> raw) {
    }

    private Reply send(String method, String path, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.httpAddress().getPort() + path)).method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), JSON.readTree(r.body()), r);
    }

    private static final String ANN_3 = "/datasets/orders/records/" + HttpGet.encoded("[\"ann\",3]");

    @Test
    void withATokenDeleteAndFlushNeedItAndReadsStayOpen() throws Exception {
        Path tokenFile = Files.writeString(tmp.resolve("token"), TOKEN + "\n", StandardCharsets.UTF_8);
        start("token-file = " + tokenFile + "\n");

        Reply none = send("DELETE", ANN_3, null);
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.body().get("error").asText()).contains("Authorization: Bearer");
        assertThat(none.raw().headers().firstValue("www-authenticate")).hasValueSatisfying(v ->
                assertThat(v).startsWith("Bearer"));
        Reply wrong = send("DELETE", ANN_3, "Bearer " + TOKEN + "x");
        assertThat(wrong.status()).isEqualTo(403);
        assertThat(send("DELETE", ANN_3, "Basic " + TOKEN).status()).isEqualTo(403);
        assertThat(send("GET", ANN_3, null).status()).as("still there, and reads need no token").isEqualTo(200);

        Reply deleted = send("DELETE", ANN_3, "Bearer " + TOKEN);
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.body().get("deleted").asText()).isEqualTo("[\"ann\",3]");
        assertThat(send("GET", ANN_3, null).status()).isEqualTo(404);
        assertThat(send("DELETE", ANN_3, "bearer " + TOKEN).status()).as("an absent key may be deleted")
                .isEqualTo(200);
        assertThat(send("GET", "/datasets/orders/count", null).body().get("count").asLong()).isEqualTo(9);

        // Unauthenticated clients learn nothing, not even which datasets exist.
        assertThat(send("POST", "/datasets/nope/flush", null).status()).isEqualTo(401);
        assertThat(send("POST", "/datasets/orders/flush", null).status()).isEqualTo(401);
        long flushedBefore = flushes();
        Reply flush = send("POST", "/datasets/orders/flush", "Bearer " + TOKEN);
        assertThat(flush.status()).isEqualTo(200);
        assertThat(flush.body().get("flushedPartitions").asInt()).isEqualTo(2);
        assertThat(flushes()).isGreaterThan(flushedBefore);
        for (LsmStore s : server.dataset("orders").stores()) {
            assertThat(s.components().tableCount()).as("the MemTable is in an SSTable").isPositive();
        }
        Reply put = send("PUT", ANN_3, "Bearer " + TOKEN);
        assertThat(put.status()).isEqualTo(405);
        assertThat(put.raw().headers().firstValue("allow")).hasValue("GET, DELETE");
    }

    private long flushes() throws IOException {
        long n = 0;
        for (LsmStore s : server.dataset("orders").stores()) {
            n += s.metrics().flushes().count();
        }
        return n;
    }

    @Test
    void readsMayNeedTheTokenToo() throws Exception {
        start("token = " + TOKEN + "\ntoken-required-for-reads = true\n");
        assertThat(send("GET", "/health", null).status()).isEqualTo(401);
        assertThat(send("GET", ANN_3, "Bearer wrong-token-0123456789").status()).isEqualTo(403);
        assertThat(send("GET", ANN_3, "Bearer " + TOKEN).status()).isEqualTo(200);
    }

    @Test
    void withoutATokenAServerOnLoopbackTakesDeletes() throws Exception {
        start("");
        assertThat(server.httpAddress().getAddress().isLoopbackAddress()).isTrue();
        assertThat(send("DELETE", ANN_3, null).status()).isEqualTo(200);
        assertThat(send("GET", ANN_3, null).status()).isEqualTo(404);
        assertThat(send("POST", "/datasets/orders/flush", null).status()).isEqualTo(200);
    }

    /** Tests bind loopback only, so the rule for other addresses is checked on the settings. */
    @Test
    void withoutATokenAServerOnAnotherAddressRefusesStateChanges() throws Exception {
        HttpSettings open = new HttpSettings(new InetSocketAddress("0.0.0.0", 19002), 0, 256,
                Duration.ofSeconds(30), null, false, null);
        assertThat(open.writesOpenWithoutToken()).isFalse();
        ApiRequestException e = catchThrowableOfType(ApiRequestException.class,
                () -> HttpApi.authorize(open, "DELETE", null));
        assertThat(e.status()).isEqualTo(403);
        assertThat(e.getMessage()).contains("not a loopback address").contains("token");
        HttpApi.authorize(open, "GET", null); // reads stay open

        HttpSettings loopback = new HttpSettings(new InetSocketAddress("127.0.0.1", 19002), 0, 256,
                Duration.ofSeconds(30), null, false, null);
        HttpApi.authorize(loopback, "DELETE", null);
        HttpSettings guarded = new HttpSettings(new InetSocketAddress("0.0.0.0", 19002), 0, 256,
                Duration.ofSeconds(30), BearerToken.of(TOKEN), false, null);
        HttpApi.authorize(guarded, "POST", "Bearer " + TOKEN);
        assertThat(catchThrowableOfType(ApiRequestException.class, () -> HttpApi.authorize(guarded, "POST",
                "Bearer " + TOKEN.substring(1))).status()).isEqualTo(403);
    }

    @Test
    void tokensAreCheckedWhenTheDescriptorIsRead() throws Exception {
        Files.createDirectories(tmp.resolve("io0"));
        String head = "[nc/nc1]\niodevices = " + tmp.resolve("io0") + "\n[http]\n"; // [http] is line 3
        Object[][] cases = {
            {"token = short\n", 4, "token", "16 to 4096"},
            {"token = has space in it 0123456789\n", 4, "token", "letters, digits"},
            {"token = " + TOKEN + "\ntoken-file = /x\n", 5, "token-file", "not both"},
            {"token-file = " + tmp.resolve("missing") + "\n", 4, "token-file", "no such file"},
            {"token-required-for-reads = true\n", 4, "token-required-for-reads", "needs a token"},
            {"idle-timeout = soon\n", 4, "idle-timeout", "duration"},
            {"idle-timeout = 10ms\n", 4, "idle-timeout", "between"},
            {"max-connections = 0\n", 4, "max-connections", "[1, 65536]"},
        };
        for (Object[] c : cases) {
            Path f = Files.writeString(tmp.resolve("bad.conf"), head + c[0], StandardCharsets.UTF_8);
            ConfigException e = catchThrowableOfType(ConfigException.class, () -> DescriptorParser.parse(f));
            assertThat(e).as((String) c[0]).isNotNull();
            assertThat(e.line()).as((String) c[0]).isEqualTo(c[1]);
            assertThat(e.key()).as((String) c[0]).isEqualTo(c[2]);
            assertThat(e.reason()).as((String) c[0]).contains((String) c[3]).doesNotContain(TOKEN);
        }
        Path ok = Files.writeString(tmp.resolve("ok.conf"), head + "token = " + TOKEN + "\nidle-timeout = 500ms\n"
                + "max-connections = 8\n", StandardCharsets.UTF_8);
        HttpSettings h = DescriptorParser.parse(ok).httpSettings();
        assertThat(h.idleTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(h.maxConnections()).isEqualTo(8);
        assertThat(h.token().matchesHeader("Bearer " + TOKEN)).isTrue();
        assertThat(h.token().toString()).doesNotContain(TOKEN);
    }
}
