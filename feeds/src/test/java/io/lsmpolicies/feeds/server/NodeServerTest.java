package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class NodeServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int RECORDS = 3000;

    @TempDir
    Path tmp;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<NodeServer> servers = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (NodeServer s : servers) {
            s.close();
        }
    }

    private Path descriptor(int httpPort) throws IOException {
        String text = "[nc/nc1]\n"
                + "iodevices = " + tmp.resolve("data/io0") + ", " + tmp.resolve("data/io1") + "\n"
                + "[nc]\n"
                + "storage.memorycomponent.globalbudget = 256KB\n" // several flushes per partition
                + "storage.wal.mode = async\n"
                + "[http]\n"
                + "port = " + httpPort + "\n" // line 7
                + "[dataset/usertable]\n"
                + "primary-key = YCSB_KEY\n"
                + "merge-policy = {\"name\": \"prefix\", \"parameters\": {\"max-mergable-component-size\": 1048576,"
                + " \"max-tolerance-component-count\": 3}}\n"
                + "[feed/ycsb]\n"
                + "dataset = usertable\n"
                + "format = adm\n"
                + "addresses = 127.0.0.1:0\n";
        return Files.writeString(tmp.resolve("node.conf"), text, StandardCharsets.UTF_8);
    }

    private NodeServer start(int httpPort) throws Exception {
        NodeServer s = NodeServer.start(DescriptorParser.parse(descriptor(httpPort), true));
        servers.add(s);
        return s;
    }

    /** The AsterixDB YCSB client's format: records back to back, no newline. */
    private static byte[] ycsb(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < to; i++) {
            b.append("{\"YCSB_KEY\":\"user").append(i).append("\",\"field0\":hex(\"")
                    .append(String.format("%08x", i)).append("\"),\"field1\":int64(").append(i).append(")}");
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private record Reply(int status, JsonNode body) {
    }

    private Reply get(NodeServer s, String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + s.httpAddress().getPort() + path);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), JSON.readTree(r.body()));
    }

    private static void awaitRecords(NodeServer s, long n) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (s.feed("ycsb").stats().records() < n && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(s.feed("ycsb").stats().records()).isEqualTo(n);
    }

    @Test
    void recordsStreamedToTheFeedAreServedOverHttpAndSurviveARestart() throws Exception {
        NodeServer s = start(0);
        InetSocketAddress feed = s.feedAddresses("ycsb").get(0);
        try (Socket c = new Socket(feed.getAddress(), feed.getPort())) {
            OutputStream out = c.getOutputStream();
            out.write(ycsb(0, RECORDS / 2));
            out.write(ycsb(RECORDS / 2, RECORDS));
            out.flush();
        }
        awaitRecords(s, RECORDS);

        assertThat(get(s, "/health").body().get("status").asText()).isEqualTo("ok");
        Reply count = get(s, "/datasets/usertable/count");
        assertThat(count.status()).isEqualTo(200);
        assertThat(count.body().get("count").asLong()).isEqualTo(RECORDS);
        long p0 = count.body().get("partitions").get(0).asLong();
        long p1 = count.body().get("partitions").get(1).asLong();
        assertThat(p0 + p1).isEqualTo(RECORDS);
        assertThat(Math.min(p0, p1)).as("both partitions hold records").isGreaterThan(RECORDS / 4);
        for (String io : List.of("io0", "io1")) {
            try (Stream<Path> files = Files.list(tmp.resolve("data").resolve(io).resolve("usertable"))) {
                assertThat(files.count()).isPositive();
            }
        }

        Reply rec = get(s, "/datasets/usertable/records/user42");
        assertThat(rec.status()).isEqualTo(200);
        assertThat(rec.body().get("YCSB_KEY").asText()).isEqualTo("user42");
        assertThat(rec.body().get("field0").asText()).isEqualTo("0000002a");
        assertThat(rec.body().get("field1").asLong()).isEqualTo(42);

        Reply range = get(s, "/datasets/usertable/records?from=user1000&to=user1010");
        assertThat(range.status()).isEqualTo(200);
        List<String> keys = new ArrayList<>();
        range.body().forEach(r -> keys.add(r.get("YCSB_KEY").asText()));
        assertThat(keys).containsExactly("user1000", "user1001", "user1002", "user1003", "user1004", "user1005",
                "user1006", "user1007", "user1008", "user1009", "user101"); // string order: user101 < user1010
        Reply limited = get(s, "/datasets/usertable/records?limit=500");
        List<String> all = new ArrayList<>();
        limited.body().forEach(r -> all.add(r.get("YCSB_KEY").asText()));
        assertThat(all).hasSize(500).isSorted();

        Reply metrics = get(s, "/datasets/usertable/metrics");
        assertThat(metrics.body().get("partitions")).hasSize(2);
        assertThat(metrics.body().get("partitions").get(0).get("metrics").get("writes").get("puts").asLong()).isEqualTo(p0);
        Reply stats = get(s, "/feeds/ycsb/stats");
        assertThat(stats.body().get("records").asLong()).isEqualTo(RECORDS);

        s.close();
        NodeServer again = start(0);
        assertThat(get(again, "/datasets/usertable/count").body().get("count").asLong()).isEqualTo(RECORDS);
        assertThat(get(again, "/datasets/usertable/records/user2999").body().get("field1").asLong())
                .isEqualTo(2999);
    }

    @Test
    void eachPartitionsStoreEventsAreServedOverHttp() throws Exception {
        NodeServer s = start(0);
        InetSocketAddress feed = s.feedAddresses("ycsb").get(0);
        try (Socket c = new Socket(feed.getAddress(), feed.getPort())) {
            c.getOutputStream().write(ycsb(0, RECORDS));
        }
        awaitRecords(s, RECORDS);
        for (io.lsmpolicies.lsm.LsmStore store : s.dataset("usertable").stores()) {
            store.flush();
        }
        Reply events = get(s, "/datasets/usertable/events?limit=" + 10_000);
        assertThat(events.status()).isEqualTo(200);
        assertThat(events.body().get("partitions")).hasSize(2);
        for (JsonNode p : events.body().get("partitions")) {
            List<String> kinds = new ArrayList<>();
            p.get("events").forEach(e -> kinds.add(e.get("event").asText()));
            assertThat(kinds.get(0)).isEqualTo("recovery");
            assertThat(kinds).contains("flush");
            assertThat(p.get("skippedLines").asInt()).isZero();
            p.get("events").forEach(e -> {
                if (e.get("event").asText().equals("merge")) {
                    assertThat(e.get("reason").asText()).isNotBlank();
                }
            });
        }
        Reply two = get(s, "/datasets/usertable/events?limit=2");
        two.body().get("partitions").forEach(p -> assertThat(p.get("events")).hasSizeLessThanOrEqualTo(2));
        assertThat(get(s, "/datasets/usertable/events?limit=0").status()).isEqualTo(400);
        assertThat(get(s, "/datasets/usertable/events?since=1").status()).isEqualTo(400);
        assertThat(get(s, "/datasets/nope/events").status()).isEqualTo(404);
    }

    @Test
    void badRequestsGetJsonErrors() throws Exception {
        NodeServer s = start(0);
        assertThat(get(s, "/datasets/usertable/records/nobody").status()).isEqualTo(404);
        assertThat(get(s, "/datasets/nope/count").status()).isEqualTo(404);
        assertThat(get(s, "/feeds/nope/stats").status()).isEqualTo(404);
        assertThat(get(s, "/nothing/here").status()).isEqualTo(404);
        for (String bad : List.of("limit=0", "limit=abc", "limit=10001", "colour=red",
                "from=99999999999999999999")) {
            Reply r = get(s, "/datasets/usertable/records?" + bad);
            assertThat(r.status()).as(bad).isEqualTo(400);
            assertThat(r.body().get("error").asText()).as(bad).isNotBlank();
        }
        assertThat(get(s, "/datasets/usertable/records").body()).isEmpty();
        // Regression: a bad percent escape was an IllegalArgumentException of Netty's decoder, answered 500.
        for (String bad : List.of("/datasets/%zz/count", "/datasets/usertable/records?from=%")) {
            try (Socket c = new Socket("127.0.0.1", s.httpAddress().getPort())) {
                c.getOutputStream().write(("GET " + bad + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                String answer = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(answer).as(bad).startsWith("HTTP/1.1 400 ").contains("{\"error\":");
            }
        }
        assertThat(get(s, "/health").status()).isEqualTo(200); // still up
    }

    @Test
    void aPortInUseIsRefusedNamingTheLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            ConfigException e = catchThrowableOfType(ConfigException.class, () -> start(taken.getLocalPort()));
            assertThat(e.line()).isEqualTo(7);
            assertThat(e.key()).isEqualTo("port");
        }
        start(0); // the stores were released by the failed start
    }

    /** A descriptor with one dataset whose section has {@code policyLine} (a {@code merge-policy} line, or ""). */
    private NodeServer startWithPolicy(String policyLine) throws Exception {
        String text = "[nc/nc1]\n"
                + "iodevices = " + tmp.resolve("data/io0") + ", " + tmp.resolve("data/io1") + "\n"
                + "[nc]\n"
                + "storage.memorycomponent.globalbudget = 256KB\n"
                + "storage.wal.mode = async\n"
                + "[http]\n"
                + "port = 0\n"
                + "[dataset/usertable]\n"
                + "primary-key = YCSB_KEY\n"
                + policyLine;
        NodeServer s = NodeServer.start(DescriptorParser.parse(Files.writeString(tmp.resolve("policy.conf"), text,
                StandardCharsets.UTF_8), true));
        servers.add(s);
        return s;
    }

    private String recordedPolicy(int partition) throws IOException {
        return io.lsmpolicies.lsm.LsmStore.storedOptions(tmp.resolve("data/io" + partition + "/usertable"))
                .orElseThrow().policy().toString();
    }

    /** A dataset's {@code merge-order} is its partitions' stores' merge order; without it, the store's default. */
    @Test
    void aDatasetsMergeOrderIsItsStoresMergeOrder() throws Exception {
        NodeServer given = startWithPolicy("merge-policy = {\"name\": \"binomial\", \"parameters\": {\"k\": 4}}\n"
                + "merge-order = flush_then_merge\n");
        for (var p : given.dataset("usertable").partitions()) {
            assertThat(p.store().options().mergeOrder()).isEqualTo(io.lsmpolicies.lsm.MergeOrder.FLUSH_THEN_MERGE);
        }
        given.close();
        servers.clear();
        NodeServer unset = startWithPolicy("merge-policy = {\"name\": \"binomial\", \"parameters\": {\"k\": 4}}\n");
        for (var p : unset.dataset("usertable").partitions()) {
            assertThat(p.store().options().mergeOrder()).isEqualTo(io.lsmpolicies.lsm.MergeOrder.MERGE_MEMTABLE_SMALL);
        }
    }

    @Test
    void aDatasetWithoutAPolicyKeepsTheOneItsPartitionsRecordedAndAnotherOneIsASwitch() throws Exception {
        startWithPolicy("merge-policy = {\"name\": \"binomial\", \"parameters\": {\"k\": 4}}\n").close();
        servers.clear();
        assertThat(recordedPolicy(0)).isEqualTo("binomial:k=4");
        startWithPolicy("").close(); // no merge-policy: the recorded one, not the default prefix
        servers.clear();
        assertThat(recordedPolicy(0)).isEqualTo("binomial:k=4");
        assertThat(recordedPolicy(1)).isEqualTo("binomial:k=4");
        startWithPolicy("merge-policy = {\"name\": \"tiered\", \"parameters\": {\"size-ratio\": 4}}\n").close();
        servers.clear();
        assertThat(recordedPolicy(1)).isEqualTo("tiered:size-ratio=4");
    }

    @Test
    void aSwitchAPartitionCannotTakeIsRefusedNamingTheDatasetsLine() throws Exception {
        startWithPolicy("merge-policy = {\"name\": \"leveled\", \"parameters\": {\"l0-trigger\": 2, "
                + "\"base-level-bytes\": 65536, \"target-file-bytes\": 16384}}\n");
        NodeServer s = servers.get(0);
        for (io.lsmpolicies.lsm.LsmStore store : s.dataset("usertable").stores()) {
            for (int i = 0; i < 3000; i++) {
                store.put(("user" + i).getBytes(StandardCharsets.UTF_8), new byte[100]);
            }
            store.flush();
            store.awaitMerges();
        }
        s.close();
        servers.clear();
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> startWithPolicy("merge-policy = {\"name\": \"binomial\", \"parameters\": {\"k\": 4}}\n"));
        assertThat(e.key()).isEqualTo("merge-policy");
        assertThat(e.line()).isEqualTo(8);
        assertThat(e.getMessage()).contains("dataset usertable, partition 0").contains("levels below level 0");
        startWithPolicy(""); // the recorded leveled policy: opens
    }
}
