package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One million records through the socket feed (four concurrent connections, the AsterixDB YCSB client's
 * back-to-back format, a node of two partitions), every count checked over the HTTP API, before and after a
 * graceful restart.
 */
@Timeout(300)
class MillionRecordsTest {
    private static final int RECORDS = 1_000_000;
    private static final int CONNECTIONS = 4;

    @TempDir
    Path tmp;
    private final HttpGet http = new HttpGet();

    private NodeServer start() throws Exception {
        String text = "[nc/nc1]\n"
                + "iodevices = " + tmp.resolve("io0") + ", " + tmp.resolve("io1") + "\n"
                + "[nc]\n"
                + "storage.memorycomponent.globalbudget = 16MB\n"
                + "storage.wal.mode = async\n"
                + "[http]\n"
                + "port = 0\n"
                + "[dataset/usertable]\n"
                + "primary-key = YCSB_KEY\n"
                + "merge-policy = {\"name\": \"binomial\", \"parameters\": {\"k\": 4}}\n"
                + "[feed/ycsb]\n"
                + "dataset = usertable\n"
                + "format = adm\n"
                + "addresses = 127.0.0.1:0\n";
        Path conf = Files.writeString(tmp.resolve("node.conf"), text, StandardCharsets.UTF_8);
        return NodeServer.start(DescriptorParser.parse(conf, true));
    }

    private static void record(StringBuilder b, int i) {
        b.append("{\"YCSB_KEY\":\"user").append(i).append("\",\"field0\":hex(\"")
                .append(String.format("%08x", i)).append("\"),\"field1\":int64(").append(i).append(")}");
    }

    private JsonNode get(NodeServer s, String path) throws Exception {
        return http.ok(s, path);
    }

    @Test
    void aMillionRecordsAreCountedOverHttpBeforeAndAfterARestart() throws Exception {
        try (NodeServer s = start()) {
            InetSocketAddress feed = s.feedAddresses("ycsb").get(0);
            List<Thread> clients = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                int from = RECORDS / CONNECTIONS * c;
                int to = RECORDS / CONNECTIONS * (c + 1);
                Thread t = new Thread(() -> {
                    try (Socket socket = new Socket(feed.getAddress(), feed.getPort())) {
                        OutputStream out = socket.getOutputStream();
                        StringBuilder b = new StringBuilder();
                        for (int i = from; i < to; i++) {
                            record(b, i);
                            if (b.length() > 1 << 16 || i == to - 1) {
                                out.write(b.toString().getBytes(StandardCharsets.US_ASCII));
                                b.setLength(0);
                            }
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                });
                t.start();
                clients.add(t);
            }
            for (Thread t : clients) {
                t.join();
            }
            assertThat(failures).isEmpty();
            long deadline = System.nanoTime() + 240_000_000_000L;
            JsonNode stats;
            do {
                Thread.sleep(50);
                stats = get(s, "/feeds/ycsb/stats");
            } while (stats.get("records").asLong() < RECORDS && System.nanoTime() < deadline);
            assertThat(stats.get("records").asLong()).isEqualTo(RECORDS);
            assertThat(stats.get("errors").size()).as("errors by kind: %s", stats.get("errors")).isZero();

            assertCounted(s);
            Random random = new Random(42);
            for (int n = 0; n < 50; n++) {
                int i = random.nextInt(RECORDS);
                JsonNode r = get(s, "/datasets/usertable/records/user" + i);
                assertThat(r.get("field1").asLong()).isEqualTo(i);
                assertThat(r.get("field0").asText()).isEqualToIgnoringCase(String.format("%08x", i));
            }
            JsonNode page = get(s, "/datasets/usertable/records?from=user5&to=user6&limit=1000");
            List<String> keys = new ArrayList<>();
            page.forEach(r -> keys.add(r.get("YCSB_KEY").asText()));
            assertThat(keys).hasSize(1000).isSorted().allMatch(k -> k.startsWith("user5"));
            JsonNode metrics = get(s, "/datasets/usertable/metrics");
            assertThat(metrics.toString()).contains("flushes");
        }
        try (NodeServer s = start()) { // a graceful close flushed; the reopened node serves the same million
            assertCounted(s);
        }
    }

    private void assertCounted(NodeServer s) throws Exception {
        JsonNode count = get(s, "/datasets/usertable/count");
        assertThat(count.get("count").asLong()).isEqualTo(RECORDS);
        long sum = 0;
        for (JsonNode p : count.get("partitions")) {
            assertThat(p.asLong()).as("each partition holds about half").isBetween(RECORDS * 45L / 100,
                    RECORDS * 55L / 100);
            sum += p.asLong();
        }
        assertThat(sum).isEqualTo(RECORDS);
    }
}
