package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many concurrent connections through the node server: 16 clients each stream 2,000
 * YCSB-format ADM records over their own socket, in random-sized writes that cut records anywhere, at the same
 * time, into a feed with two event-loop threads, two writer threads and a small queue (so reading pauses and
 * resumes). Afterwards, over HTTP: the count is exactly 32,000 across both partitions, the feed's statistics show
 * 16 connections, 32,000 records and no error, a range scan over one client's keys is complete and in order, and
 * samples from every client hold their values.
 */
@Timeout(60)
class ManyConnectionsTest {
    private static final int CLIENTS = 16;
    private static final int PER_CLIENT = 2_000;
    private static final int TOTAL = CLIENTS * PER_CLIENT;

    @TempDir
    Path tmp;
    private final HttpGet http = new HttpGet();

    private Path descriptor() throws IOException {
        String text = "[nc/nc1]\n"
                + "iodevices = " + tmp.resolve("data/io0") + ", " + tmp.resolve("data/io1") + "\n"
                + "[nc]\n"
                + "storage.memorycomponent.globalbudget = 512KB\n"
                + "storage.wal.mode = async\n"
                + "[http]\n"
                + "port = 0\n"
                + "[dataset/usertable]\n"
                + "primary-key = YCSB_KEY\n"
                + "[feed/ycsb]\n"
                + "dataset = usertable\n"
                + "format = adm\n"
                + "addresses = 127.0.0.1:0\n"
                + "io-threads = 2\n"
                + "writer-threads = 2\n"
                + "queue-capacity = 64\n";
        return Files.writeString(tmp.resolve("node.conf"), text, StandardCharsets.UTF_8);
    }

    private static String key(int client, int i) {
        return String.format("c%02d-%05d", client, i);
    }

    private static String value(int client, int i) {
        return String.format("%04x%08x", client, i * 2654435761L & 0xffffffffL);
    }

    private static byte[] stream(int client) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < PER_CLIENT; i++) {
            b.append("{\"YCSB_KEY\":\"").append(key(client, i)).append("\",\"field0\":hex(\"")
                    .append(value(client, i)).append("\"),\"field1\":int64(").append(i).append(")}");
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private JsonNode get(NodeServer s, String path) throws Exception {
        return http.ok(s, path);
    }

    @Test
    void sixteenConcurrentClientsAllArriveIntact() throws Exception {
        try (NodeServer s = NodeServer.start(DescriptorParser.parse(descriptor(), true))) {
            InetSocketAddress feed = s.feedAddresses("ycsb").get(0);
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    int client = c;
                    done.add(pool.submit(() -> {
                        byte[] bytes = stream(client);
                        Random random = new Random(client);
                        try (Socket socket = new Socket(feed.getAddress(), feed.getPort())) {
                            OutputStream out = socket.getOutputStream();
                            for (int at = 0; at < bytes.length; ) {
                                int n = Math.min(bytes.length - at, 1 + random.nextInt(8192));
                                out.write(bytes, at, n);
                                at += n;
                            }
                            out.flush();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }

            long deadline = System.nanoTime() + 30_000_000_000L;
            long records = 0;
            while (System.nanoTime() < deadline) {
                records = get(s, "/feeds/ycsb/stats").get("records").asLong();
                if (records >= TOTAL) {
                    break;
                }
                Thread.sleep(20);
            }
            assertThat(records).isEqualTo(TOTAL);
            JsonNode stats = get(s, "/feeds/ycsb/stats");
            assertThat(s.feed("ycsb").stats().connections()).isEqualTo(CLIENTS);
            assertThat(s.feed("ycsb").stats().errorCount()).as(stats.toString()).isZero();

            JsonNode count = get(s, "/datasets/usertable/count");
            assertThat(count.get("count").asLong()).isEqualTo(TOTAL);
            long p0 = count.get("partitions").get(0).asLong();
            long p1 = count.get("partitions").get(1).asLong();
            assertThat(p0 + p1).isEqualTo(TOTAL);
            assertThat(Math.min(p0, p1)).isGreaterThan(TOTAL / 4);

            // One client's keys, complete and in order, through a range scan over both partitions.
            JsonNode range = get(s, "/datasets/usertable/records?from=c07-00000&to=c08&limit=10000");
            assertThat(range.size()).isEqualTo(PER_CLIENT);
            int i = 0;
            for (JsonNode r : range) {
                assertThat(r.get("YCSB_KEY").asText()).isEqualTo(key(7, i));
                assertThat(r.get("field0").asText()).isEqualTo(value(7, i));
                assertThat(r.get("field1").asLong()).isEqualTo(i);
                i++;
            }
            // Samples from every client, including each one's first and last record.
            Random random = new Random(42);
            for (int c = 0; c < CLIENTS; c++) {
                for (int k : new int[] {0, PER_CLIENT - 1, random.nextInt(PER_CLIENT), random.nextInt(PER_CLIENT)}) {
                    JsonNode r = get(s, "/datasets/usertable/records/" + key(c, k));
                    assertThat(r.get("field0").asText()).as(key(c, k)).isEqualTo(value(c, k));
                    assertThat(r.get("field1").asLong()).as(key(c, k)).isEqualTo(k);
                }
            }
        }
    }
}
