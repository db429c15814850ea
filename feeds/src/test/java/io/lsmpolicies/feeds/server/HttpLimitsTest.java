package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests over the HTTP API's limits get the status that names the limit (414, 431, 413) and a JSON body saying
 * which, over a real socket; the connection still answers what comes after when the client keeps it.
 */
@Timeout(60)
class HttpLimitsTest {
    @TempDir
    Path tmp;
    private NodeServer server;

    @BeforeEach
    void start() throws Exception {
        String conf = "[nc/nc1]\niodevices = " + tmp.resolve("io0") + "\n"
                + "[nc]\nstorage.wal.mode = off\n"
                + "[http]\nport = 0\n"
                + "[dataset/d]\nprimary-key = id\n";
        server = NodeServer.start(DescriptorParser.parse(Files.writeString(tmp.resolve("node.conf"), conf), true));
    }

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /** A response: status code, headers and body as text. */
    private record Response(int status, String head, String body) {
    }

    private Socket connect() throws IOException {
        Socket s = new Socket("127.0.0.1", server.httpAddress().getPort());
        s.setSoTimeout(20_000);
        return s;
    }

    /** Reads one response (its body by Content-Length). */
    private static Response read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] h = head.toByteArray();
            if (h.length >= 4 && h[h.length - 4] == '\r' && h[h.length - 3] == '\n' && h[h.length - 2] == '\r'
                    && h[h.length - 1] == '\n') {
                break;
            }
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        assertThat(text).startsWith("HTTP/1.1 ");
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        return new Response(Integer.parseInt(text.substring(9, 12)), text, body);
    }

    private Response send(String request) throws IOException {
        try (Socket s = connect()) {
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return read(s.getInputStream());
        }
    }

    @Test
    void aHundredKilobyteUrlIs414WithTheReason() throws IOException {
        Response r = send("GET /datasets/d/records/" + "k".repeat(100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(r.status()).isEqualTo(414);
        assertThat(r.head()).containsIgnoringCase("content-type: application/json");
        assertThat(r.body()).isEqualTo("{\"error\":\"the request line (method, target, version) exceeds 4096 bytes\"}");
    }

    @Test
    void aTwentyKilobyteHeaderIs431WithTheReason() throws IOException {
        Response r = send("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "v".repeat(20_000) + "\r\n\r\n");
        assertThat(r.status()).isEqualTo(431);
        assertThat(r.body()).isEqualTo("{\"error\":\"the request's header fields exceed 8192 bytes\"}");
    }

    @Test
    void threeHundredHeadersAre431AndTheConnectionGoesOn() throws IOException {
        StringBuilder req = new StringBuilder("GET /health HTTP/1.1\r\nHost: x\r\n");
        for (int i = 0; i < 299; i++) {
            req.append("X-").append(i).append(": v\r\n");
        }
        try (Socket s = connect()) {
            s.getOutputStream().write((req + "\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            Response r = read(s.getInputStream());
            assertThat(r.status()).isEqualTo(431);
            assertThat(r.body()).isEqualTo("{\"error\":\"the request has 300 header fields; at most 100 are taken\"}");
            assertThat(read(s.getInputStream()).status()).isEqualTo(200);
        }
    }

    @Test
    void aHundredMegabyteBodyIs413WithTheReasonAndTheConnectionGoesOn() throws Exception {
        long size = 100L << 20;
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /datasets/d/flush HTTP/1.1\r\nHost: x\r\nContent-Length: " + size + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            CompletableFuture<Void> body = CompletableFuture.runAsync(() -> {
                byte[] chunk = new byte[1 << 16];
                try {
                    for (long sent = 0; sent < size; sent += chunk.length) {
                        out.write(chunk);
                    }
                    out.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            Response r = read(s.getInputStream());
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.head()).containsIgnoringCase("content-type: application/json");
            assertThat(r.body()).isEqualTo("{\"error\":\"the request body exceeds 65536 bytes\"}");
            body.get(30, TimeUnit.SECONDS); // the server read and dropped the whole body
            assertThat(read(s.getInputStream()).status()).isEqualTo(200);
        }
    }
}
