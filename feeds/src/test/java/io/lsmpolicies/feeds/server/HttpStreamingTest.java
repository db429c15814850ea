package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.records.KeyEncoder;
import io.lsmpolicies.records.ValueCodec;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hardened HTTP server: a range answer is streamed as the client takes it, so a client that never reads
 * holds a bounded amount of server memory and is closed by the idle timeout; idle connections are closed; the
 * number of connections is capped.
 */
@Timeout(120)
class HttpStreamingTest {
    /** 1,500 records of 16 KiB of binary, 32 KiB of JSON (hex) each: a 48 MiB answer, far above socket buffers. */
    private static final int RECORDS = 1500;
    private static final int BLOB_BYTES = 16 * 1024;

    @TempDir
    Path tmp;
    private NodeServer server;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** Starts a node whose [http] section has {@code http} besides the port. */
    private void start(String http) throws Exception {
        String conf = "[nc/nc1]\niodevices = " + tmp.resolve("io0") + ", " + tmp.resolve("io1") + "\n"
                + "[nc]\nstorage.wal.mode = off\nstorage.buffercache.pagesize = 64KB\n"
                + "storage.memorycomponent.globalbudget = 8MB\n"
                + "[http]\nport = 0\n" + http
                + "[dataset/blobs]\nprimary-key = id\n";
        Path file = Files.writeString(tmp.resolve("node.conf"), conf, StandardCharsets.UTF_8);
        server = NodeServer.start(DescriptorParser.parse(file, true));
    }

    private void load() throws IOException {
        Random random = new Random(9);
        for (int i = 0; i < RECORDS; i++) {
            byte[] blob = new byte[BLOB_BYTES];
            random.nextBytes(blob);
            Map<String, AdmValue> fields = new LinkedHashMap<>();
            fields.put("id", new AdmValue.Str(id(i)));
            fields.put("blob", new AdmValue.Binary(blob));
            byte[] key = KeyEncoder.of(id(i));
            server.dataset("blobs").storeFor(key).put(key, ValueCodec.encode(new AdmValue.Obj(fields)));
        }
    }

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private static String id(int i) {
        return String.format("k%05d", i);
    }

    private int port() {
        return server.httpAddress().getPort();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A raw connection that sends {@code request} and reads nothing; a small receive buffer. */
    private Socket rawRequest(String request) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.connect(new InetSocketAddress("127.0.0.1", port()));
        s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    /** The whole answer to {@code requestLine} on a connection of its own, closed after it. */
    private String once(String requestLine) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write((requestLine + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Reads until the server closes the connection; returns the bytes read, or -1 if it stays open. */
    private static long readToEnd(Socket s, long timeoutMillis) throws IOException {
        s.setSoTimeout((int) timeoutMillis);
        InputStream in = s.getInputStream();
        byte[] buf = new byte[65536];
        long total = 0;
        try {
            int n;
            while ((n = in.read(buf)) >= 0) {
                total += n;
            }
        } catch (java.net.SocketTimeoutException e) {
            return -1;
        } catch (SocketException e) { // reset: closed too
            return total;
        }
        return total;
    }

    @Test
    void aClientThatNeverReadsHoldsBoundedMemoryAndIsClosedByTheIdleTimeout() throws Exception {
        start("idle-timeout = 2s\n");
        load();
        long fullAnswer = (long) RECORDS * BLOB_BYTES * 2;
        try (Socket stalled = rawRequest("GET /datasets/blobs/records?limit=10000 HTTP/1.1\r\nHost: x\r\n\r\n")) {
            // The server writes until the socket buffers are full; then the channel stays unwritable (above the
            // high-water mark) and the stream parks.
            // The bytes held go up and down while the kernel's socket buffers still take some (the stream
            // resumes below the low-water mark), so the check is on the peak, which only grows.
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (server.httpStats().peakPendingBytes() <= HttpServer.HIGH_WATER_MARK
                    && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(server.httpStats().peakPendingBytes()).as("bytes held for the stalled client")
                    .isGreaterThan(HttpServer.HIGH_WATER_MARK);
            // Another client is served meanwhile (on connections it closes, so that only the stalled one can
            // time out).
            assertThat(once("GET /health")).startsWith("HTTP/1.1 200 OK").contains("\"status\":\"ok\"");
            assertThat(once("GET /datasets/blobs/records/k00007")).contains("\"id\":\"k00007\"");
            assertThat(server.httpStats().timedOut()).isZero();

            // The stalled connection is closed after the idle timeout (2 s); it got only a part of the answer.
            deadline = System.nanoTime() + 20_000_000_000L;
            while (server.httpStats().timedOut() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            long got = readToEnd(stalled, 15_000);
            assertThat(got).as("the server closed the stalled connection").isNotNegative();
            assertThat(got).isLessThan(fullAnswer / 2);
            HttpStats after = server.httpStats();
            assertThat(after.timedOut()).isGreaterThanOrEqualTo(1);
            // What one connection held at most: the high-water mark plus one chunk (here one 32 KiB record).
            long bound = HttpServer.HIGH_WATER_MARK + RangeStream.CHUNK_BYTES + 2L * BLOB_BYTES + 4096;
            assertThat(after.peakPendingBytes()).as("peak bytes held for one connection")
                    .isPositive().isLessThanOrEqualTo(bound);
        }
        assertThat(once("GET /health")).startsWith("HTTP/1.1 200 OK");
    }

    @Test
    void aNormalClientGetsTheWholeStreamedAnswerAsValidJson() throws Exception {
        start("");
        load();
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port()
                + "/datasets/blobs/records?limit=10000")).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        // (chunked: the JDK client does not show the header; pipelinedRequests... sees it on the wire)
        List<String> ids = new ArrayList<>();
        try (InputStream in = r.body(); JsonParser p = new JsonFactory().createParser(in)) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_ARRAY);
            while (p.nextToken() == JsonToken.START_OBJECT) {
                String id = null;
                int blobChars = 0;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    p.nextToken();
                    if (field.equals("id")) {
                        id = p.getText();
                    } else {
                        blobChars = p.getTextLength();
                    }
                }
                assertThat(blobChars).isEqualTo(2 * BLOB_BYTES);
                ids.add(id);
            }
            assertThat(p.currentToken()).isEqualTo(JsonToken.END_ARRAY);
            assertThat(p.nextToken()).isNull();
        }
        assertThat(ids).hasSize(RECORDS).isSorted().startsWith(id(0)).endsWith(id(RECORDS - 1));

        // An answer that fits one chunk (16 KiB) is one response with its length; a larger one is chunked.
        assertThat(once("GET /datasets/blobs/records?from=zzz")).contains("content-length: 2\r\n")
                .doesNotContain("chunked").endsWith("\r\n\r\n[]");
        assertThat(once("GET /datasets/blobs/records?limit=2")).contains("transfer-encoding: chunked\r\n")
                .doesNotContain("content-length").contains("[{\"id\":\"k00000\"").endsWith("}]\r\n0\r\n\r\n");
        // An HTTP/1.0 client takes no chunks: the answer ends with the connection.
        try (Socket s = rawRequest("GET /datasets/blobs/records?limit=2 HTTP/1.0\r\n\r\n")) {
            s.setSoTimeout(10_000);
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 200 OK").doesNotContain("chunked").doesNotContain("content-length")
                    .contains("\r\n\r\n[{\"id\":\"k00000\"").endsWith("}]");
        }
        assertThat(get("/datasets/blobs/records?limit=2").body()).startsWith("[{\"id\":\"k00000\"")
                .contains("},{\"id\":\"k00001\"").endsWith("}]");
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderOnOneConnection() throws Exception {
        start("");
        load();
        try (Socket s = rawRequest("GET /datasets/blobs/records?limit=3 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /datasets/blobs/records/k00002 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) {
            s.setSoTimeout(10_000);
            String[] responses = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .split("HTTP/1.1 200 OK\r\n");
            assertThat(responses).hasSize(4); // nothing before the first
            assertThat(responses[1]).contains("transfer-encoding: chunked").contains("[{\"id\":\"k00000\"")
                    .contains("{\"id\":\"k00002\"").endsWith("0\r\n\r\n");
            assertThat(responses[2]).contains("\r\n\r\n{\"id\":\"k00002\"");
            assertThat(responses[3]).contains("\"status\":\"ok\"");
        }
    }

    @Test
    void anIdleConnectionIsClosedAfterTheTimeout() throws Exception {
        start("idle-timeout = 1s\n");
        try (Socket s = rawRequest("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")) {
            long start = System.nanoTime();
            long got = readToEnd(s, 15_000); // the answer, then the close of a kept-alive idle connection
            assertThat(got).isPositive();
            assertThat((System.nanoTime() - start) / 1_000_000).isBetween(500L, 14_000L);
        }
    }

    @Test
    void connectionsBeyondTheLimitAreClosedAndCounted() throws Exception {
        start("max-connections = 4\n");
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                held.add(rawRequest("GET /health HTTP/1.1\r\nHost: x\r\n\r\n"));
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (server.httpStats().open() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            try (Socket fifth = new Socket("127.0.0.1", port())) {
                fifth.setSoTimeout(5_000);
                assertThat(fifth.getInputStream().read()).as("the fifth connection is closed").isEqualTo(-1);
            }
            assertThat(server.httpStats().refused()).isEqualTo(1);
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (server.httpStats().open() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(get("/health").statusCode()).isEqualTo(200);
    }
}
