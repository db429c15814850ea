package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.ErrorKind;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.records.KeyEncoder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition that fails never stops the node from serving the others, and comes back without a restart: a store
 * that cannot be opened at start leaves the server up (its partition answers 503, the feed counts
 * {@link ErrorKind#PARTITION_UNAVAILABLE}, health says degraded) until the node's retry or a reopen request opens
 * it; and reopens under concurrent feed writers and HTTP readers give each of them correct data or a clean error.
 * Partition 0's store runs on a fault-injecting file layer ({@link FaultInjector}).
 */
@Timeout(90)
class PartitionRecoveryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "r3open-t0ken-0123456789";

    @TempDir
    Path tmp;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final List<NodeServer> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        for (NodeServer s : servers) {
            try {
                s.close();
            } catch (IOException e) {
                // a store that failed may fail its close too
            }
        }
    }

    private record Reply(int status, JsonNode body) {
    }

    private Path conf(int devices, String nc) throws IOException {
        StringBuilder io = new StringBuilder();
        for (int i = 0; i < devices; i++) {
            io.append(i == 0 ? "" : ", ").append(tmp.resolve("p" + i));
        }
        return Files.writeString(tmp.resolve("node.conf"), "[nc/nc1]\niodevices = " + io + "\n"
                + "[nc]\nstorage.memorycomponent.globalbudget = 64KB\nstorage.wal.mode = sync\n" + nc
                + "[http]\nport = 0\ntoken = " + TOKEN + "\n"
                + "[dataset/d]\nprimary-key = id\n"
                + "[feed/fd]\ndataset = d\nformat = json\naddresses = 127.0.0.1:0\nacks = true\n",
                StandardCharsets.UTF_8);
    }

    /** A node whose partition 0 (device p0) opens its stores, read-only ones too, through {@code hook}. */
    private NodeServer start(Path conf, FaultHook hook) throws Exception {
        Path device0 = tmp.resolve("p0");
        NodeServer s = NodeServer.start(DescriptorParser.parse(conf, true), new NodeServer.StoreOpener() {
            @Override
            public LsmStore open(Path dir, StoreOptions options) throws IOException {
                return hook != null && dir.startsWith(device0) ? LsmStore.open(dir, options,
                        FileLayer.withFaults(hook)) : LsmStore.open(dir, options);
            }

            @Override
            public LsmStore openReadOnly(Path dir, StoreOptions options) throws IOException {
                return hook != null && dir.startsWith(device0) ? LsmStore.openReadOnly(dir, options,
                        FileLayer.withFaults(hook)) : LsmStore.openReadOnly(dir, options);
            }
        });
        servers.add(s);
        return s;
    }

    private Reply send(NodeServer s, String method, String path, boolean token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.httpAddress().getPort()
                + path)).timeout(Duration.ofSeconds(20)).method(method, HttpRequest.BodyPublishers.noBody());
        if (token) {
            b.header("Authorization", "Bearer " + TOKEN);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()));
    }

    private Reply get(NodeServer s, String path) throws Exception {
        return send(s, "GET", path, false);
    }

    private static void await(String what, Check done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.holds()) {
            assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static byte[] records(List<Integer> ids) {
        StringBuilder b = new StringBuilder();
        for (int i : ids) {
            b.append("{\"id\":").append(i).append(",\"v\":\"").append("x".repeat(60)).append(i).append("\"}\n");
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Ids in [0, limit) by partition (of {@code count}). */
    private static List<List<Integer>> byPartition(int count, int limit) {
        List<List<Integer>> out = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            out.add(new ArrayList<>());
        }
        for (int i = 0; i < limit; i++) {
            out.get(Dataset.partitionOf(KeyEncoder.of((long) i), count)).add(i);
        }
        return out;
    }

    /** Sends {@code ids} on a new connection, half-closes it, and returns the final ack and the last line. */
    private static FeedLineClient stream(NodeServer s, List<Integer> ids) throws Exception {
        FeedLineClient c = new FeedLineClient(s.feedAddresses("fd").get(0));
        c.send(records(ids));
        c.finish();
        assertThat(c.closedByServer).succeedsWithin(30, TimeUnit.SECONDS);
        c.close();
        return c;
    }

    /**
     * Partition 0's device fails every read when the node starts, so neither its store nor a read-only one opens.
     * The node starts anyway and serves partition 1; every operation on partition 0 gets a clean error naming it;
     * a connection's acknowledgements stop at its first record for partition 0 (nothing after it is applied); health
     * lists the partition. Once the device works again, the node's retry opens partition 0, with every record it
     * held, and it takes writes. (Before, the node refused to start.)
     */
    @Test
    void aPartitionThatCannotBeOpenedAtStartLeavesTheOthersServedAndComesBackByItself() throws Exception {
        Path conf = conf(2, "partition.reopen.delay = 100ms\npartition.reopen.max-delay = 400ms\n");
        List<List<Integer>> ids = byPartition(2, 2000);
        List<Integer> p0 = ids.get(0);
        List<Integer> p1 = ids.get(1);
        NodeServer first = start(conf, null);
        assertThat(stream(first, p0.subList(0, 100)).lastAck.get()).isEqualTo(100);
        first.close();

        FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
        faults.failNth(FileOp.READ, 1, true);
        NodeServer s = start(conf, faults);

        Reply health = get(s, "/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body().get("status").asText()).isEqualTo("degraded");
        JsonNode down = health.body().get("unavailablePartitions");
        assertThat(down).hasSize(1);
        assertThat(down.get(0).get("dataset").asText()).isEqualTo("d");
        assertThat(down.get(0).get("partition").asInt()).isZero();
        assertThat(down.get(0).get("directory").asText()).isEqualTo(tmp.resolve("p0").resolve("d").toString());
        assertThat(down.get(0).get("state").asText()).isEqualTo("DOWN");
        assertThat(down.get(0).get("error").asText()).contains("injected failure");

        // Partition 1 takes records and answers.
        assertThat(stream(s, p1.subList(0, 100)).lastAck.get()).isEqualTo(100);
        assertThat(get(s, "/datasets/d/records/" + p1.get(0)).body().get("id").asInt()).isEqualTo(p1.get(0));

        // A connection's acks stop at its first record for partition 0; the records after it are not applied.
        List<Integer> mixed = new ArrayList<>(p1.subList(100, 110));
        mixed.add(p0.get(100));
        mixed.addAll(p1.subList(110, 120));
        FeedLineClient c = stream(s, mixed);
        assertThat(c.lastAck.get()).isEqualTo(10);
        String last = c.lines().get(c.lines().size() - 1);
        assertThat(JSON.readTree(last).get("error").asText()).contains("partition 0 of 2 of dataset d",
                "unavailable", "injected failure", "/datasets/d/partitions/0/reopen");
        assertThat(JSON.readTree(last).get("acked").asLong()).isEqualTo(10);
        assertThat(get(s, "/datasets/d/records/" + p1.get(109)).status()).isEqualTo(200);
        assertThat(get(s, "/datasets/d/records/" + p1.get(110)).status()).as("after the unapplied record")
                .isEqualTo(404);
        assertThat(s.feed("fd").stats().errors(ErrorKind.PARTITION_UNAVAILABLE)).isPositive();
        assertThat(s.feed("fd").stats().recentErrors()).anyMatch(b -> b.kind() == ErrorKind.PARTITION_UNAVAILABLE
                && b.detail().contains("partition 0 of 2 of dataset d"));

        // Every HTTP operation on partition 0: 503 with a JSON error naming it.
        for (Reply r : List.of(get(s, "/datasets/d/records/" + p0.get(0)), get(s, "/datasets/d/count"),
                get(s, "/datasets/d/records?limit=10"), send(s, "DELETE", "/datasets/d/records/" + p0.get(0), true),
                send(s, "POST", "/datasets/d/flush", true))) {
            assertThat(r.status()).as("%s", r).isEqualTo(503);
            assertThat(r.body().get("error").asText()).as("%s", r).contains("partition 0 of 2 of dataset d",
                    tmp.resolve("p0").toString(), "injected failure");
            assertThat(r.body().get("partition").asInt()).isZero();
        }
        Reply metrics = get(s, "/datasets/d/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.body().get("partitions").get(0).get("state").asText()).isEqualTo("DOWN");
        assertThat(metrics.body().get("partitions").get(1).has("metrics")).isTrue();

        // The device works again: the node's retry opens partition 0 with its records; it takes writes.
        faults.clearFailures();
        await("the retry opens partition 0", () -> get(s, "/health").body().get("status").asText().equals("ok"));
        assertThat(get(s, "/datasets/d/records/" + p0.get(99)).body().get("id").asInt()).isEqualTo(p0.get(99));
        assertThat(stream(s, p0.subList(100, 200)).lastAck.get()).isEqualTo(100);
        assertThat(get(s, "/datasets/d/count").body().get("partitions").get(0).asLong()).isEqualTo(200);
    }

    /**
     * Partition 0's device is full when the node starts, and automatic retries are off: the partition is opened
     * read-only (reads go on, writes get 503). {@code POST .../partitions/0/reopen} needs the token, answers 503 with
     * the cause while the device is still full, and once space is freed reopens the partition, which then takes
     * writes.
     */
    @Test
    void theReopenRequestReopensAPartitionOnceItsDeviceHasSpace() throws Exception {
        Path conf = conf(2, "partition.reopen.delay = off\n");
        List<Integer> p0 = byPartition(2, 1000).get(0);
        NodeServer first = start(conf, null);
        assertThat(stream(first, p0.subList(0, 50)).lastAck.get()).isEqualTo(50);
        first.close();

        FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
        faults.diskFullAt(FileOp.WRITE, 1, false);
        NodeServer s = start(conf, faults);
        JsonNode down = get(s, "/health").body().get("unavailablePartitions").get(0);
        assertThat(down.get("state").asText()).isEqualTo("READ_ONLY");
        assertThat(down.get("error").asText()).contains(FaultInjector.NO_SPACE);
        assertThat(get(s, "/datasets/d/records/" + p0.get(49)).status()).as("reads go on").isEqualTo(200);
        Reply refused = send(s, "DELETE", "/datasets/d/records/" + p0.get(0), true);
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.body().get("error").asText()).contains("takes no writes", FaultInjector.NO_SPACE,
                "POST /datasets/d/partitions/0/reopen");

        Reply stillFull = send(s, "POST", "/datasets/d/partitions/0/reopen", true);
        assertThat(stillFull.status()).isEqualTo(503);
        assertThat(stillFull.body().get("error").asText()).contains("could not be reopened", FaultInjector.NO_SPACE);
        assertThat(get(s, "/datasets/d/records/" + p0.get(49)).status()).as("reads still go on").isEqualTo(200);

        faults.freeSpace();
        assertThat(send(s, "POST", "/datasets/d/partitions/0/reopen", false).status()).isEqualTo(401);
        assertThat(send(s, "GET", "/datasets/d/partitions/0/reopen", false).status()).isEqualTo(405);
        assertThat(send(s, "POST", "/datasets/d/partitions/2/reopen", true).status()).isEqualTo(404);
        Reply reopened = send(s, "POST", "/datasets/d/partitions/0/reopen", true);
        assertThat(reopened.status()).as("%s", reopened).isEqualTo(200);
        assertThat(reopened.body().get("reopened").asBoolean()).isTrue();
        assertThat(reopened.body().get("state").asText()).isEqualTo("OPEN");
        assertThat(send(s, "POST", "/datasets/d/partitions/0/reopen", true).body().get("reopened").asBoolean())
                .as("an open partition is left alone").isFalse();
        assertThat(get(s, "/health").body().get("status").asText()).isEqualTo("ok");
        assertThat(stream(s, p0.subList(50, 100)).lastAck.get()).isEqualTo(50);
        assertThat(send(s, "DELETE", "/datasets/d/records/" + p0.get(0), true).status()).isEqualTo(200);
        assertThat(get(s, "/datasets/d/count").body().get("count").asLong()).isEqualTo(99);
    }

    /** Fails the next WAL sync once armed. */
    private static final class SyncFault implements FaultHook {
        final AtomicBoolean armed = new AtomicBoolean();

        @Override
        public void before(FileOp op, Path path) throws IOException {
            if (op == FileOp.SYNC && path.getFileName().toString().endsWith(".log") && armed.compareAndSet(true,
                    false)) {
                throw new IOException("injected failure: " + op + " of " + path);
            }
        }
    }

    /**
     * The partition's store fails (a WAL sync) five times while feed writers stream records and HTTP readers read
     * point keys and a range, and the node reopens it each time. Every reader's answer is the right record or range,
     * or a 503 naming the partition: never another status, a wrong value or a hang (each request has a time limit).
     * Every record a connection's acks covered is there at the end.
     */
    @Test
    void readersAndWritersDuringReopensGetCorrectDataOrACleanError() throws Exception {
        Path conf = conf(1, "partition.reopen.delay = 100ms\npartition.reopen.max-delay = 200ms\n");
        SyncFault fault = new SyncFault();
        NodeServer s = start(conf, fault);
        List<Integer> base = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            base.add(i);
        }
        assertThat(stream(s, base).lastAck.get()).isEqualTo(200);

        AtomicBoolean done = new AtomicBoolean();
        Set<Integer> acked = ConcurrentHashMap.newKeySet();
        AtomicInteger unavailable = new AtomicInteger();
        AtomicLong answered = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        List<Future<?>> tasks = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int writer = w;
            tasks.add(pool.submit(() -> {
                int next = 1_000_000 * (writer + 1);
                while (!done.get()) {
                    List<Integer> batch = new ArrayList<>();
                    for (int i = 0; i < 100; i++) {
                        batch.add(next++);
                    }
                    FeedLineClient c = stream(s, batch);
                    acked.addAll(batch.subList(0, (int) (long) c.lastAck.get()));
                }
                return null;
            }));
        }
        for (int r = 0; r < 3; r++) {
            int reader = r;
            tasks.add(pool.submit(() -> {
                for (int n = 0; !done.get(); n++) {
                    Reply reply;
                    int id = (n * 7 + reader) % 200;
                    boolean range = n % 5 == 0;
                    reply = range ? get(s, "/datasets/d/records?from=0&to=200&limit=200")
                            : get(s, "/datasets/d/records/" + id);
                    if (reply.status() == 503) {
                        assertThat(reply.body().get("error").asText()).contains("dataset d");
                        unavailable.incrementAndGet();
                        continue;
                    }
                    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
                    if (range) {
                        assertThat(reply.body()).hasSize(200);
                        for (int i = 0; i < 200; i++) {
                            assertThat(reply.body().get(i).get("id").asInt()).isEqualTo(i);
                        }
                    } else {
                        assertThat(reply.body().get("id").asInt()).isEqualTo(id);
                    }
                    answered.incrementAndGet();
                }
                return null;
            }));
        }
        try {
            for (int cycle = 0; cycle < 5; cycle++) {
                fault.armed.set(true);
                await("the armed sync fails", () -> !fault.armed.get());
                await("the partition takes no writes", () -> s.dataset("d").partitions().get(0).status().state()
                        != io.lsmpolicies.feeds.Partition.State.OPEN);
                await("the node reopens the partition", () -> s.dataset("d").partitions().get(0).status().state()
                        == io.lsmpolicies.feeds.Partition.State.OPEN);
                int before = acked.size();
                await("writes go on after the reopen", () -> acked.size() > before);
            }
        } finally {
            done.set(true);
        }
        for (Future<?> t : tasks) {
            t.get(60, TimeUnit.SECONDS); // rethrows a reader's or writer's failed assertion
        }
        pool.shutdown();
        assertThat(answered.get()).isPositive();
        LsmStore store = s.dataset("d").store();
        for (int id : acked) {
            assertThat(store.get(KeyEncoder.of((long) id))).as("acknowledged record %d", id).isNotNull();
        }
    }
}
