package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.feeds.BadRecord;
import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.ErrorKind;
import io.lsmpolicies.feeds.FeedStats;
import io.lsmpolicies.lsm.LsmStore;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Fault injection under the node server: dataset {@code a}'s store runs on a fault-injecting file layer,
 * and in the middle of a feed ingest with acknowledgements (1,000 records acknowledged, then a stream that goes on
 * until the server closes it) a WAL sync, or a background flush's SSTable write, fails.
 * Meanwhile another feed ingests into dataset {@code b}. The server must stay up; the connection to {@code a}'s
 * feed is told why and closed, and the feed's statistics name the cause; {@code b} ingests everything; HTTP reads
 * of both go on, and health says {@code a} is degraded; {@code a}'s store refuses every later write with the first
 * error, over the feed too, until it is reopened (automatic retries are off here); after a restart every
 * acknowledged record is there and {@code a} takes writes again. Reopening without a restart: the last test.
 */
@Timeout(60)
class NodeServerFaultTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int RECORDS = 3000;

    @TempDir
    Path tmp;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<NodeServer> servers = new ArrayList<>();

    /** Where the fault strikes: the operation and the files it is on. */
    enum Fault {
        WAL_SYNC(FileOp.SYNC, ".log"),
        FLUSH_WRITE(FileOp.WRITE, ".sst");

        final FileOp op;
        final String suffix;

        Fault(FileOp op, String suffix) {
            this.op = op;
            this.suffix = suffix;
        }
    }

    /** Fails the first operation of the fault's kind on its files once armed, and nothing else. */
    private static final class Armed implements FaultHook {
        private final Fault fault;
        private final AtomicBoolean armed = new AtomicBoolean();

        Armed(Fault fault) {
            this.fault = fault;
        }

        @Override
        public void before(FileOp op, Path path) throws IOException {
            String name = path.getFileName().toString();
            if (op == fault.op && name.contains(fault.suffix) && armed.compareAndSet(true, false)) {
                throw new IOException("injected failure: " + op + " of " + path);
            }
        }
    }

    @AfterEach
    void stop() {
        for (NodeServer s : servers) {
            try {
                s.close();
            } catch (IOException e) {
                // a store that failed may fail its close too; the test has checked what it must
            }
        }
    }

    private Path descriptor() throws IOException {
        StringBuilder text = new StringBuilder("[nc/nc1]\n"
                + "iodevices = " + tmp.resolve("io0") + "\n"
                + "[nc]\n"
                + "storage.memorycomponent.globalbudget = 64KB\n" // 32 KiB per store: several flushes per ingest
                + "storage.wal.mode = sync\n"
                + "partition.reopen.delay = off\n"
                + "[http]\n"
                + "port = 0\n");
        for (String d : List.of("a", "b")) {
            text.append("[dataset/").append(d).append("]\nprimary-key = id\n");
            text.append("[feed/f").append(d).append("]\ndataset = ").append(d)
                    .append("\nformat = json\naddresses = 127.0.0.1:0\nacks = true\n");
        }
        return Files.writeString(tmp.resolve("node.conf"), text, StandardCharsets.UTF_8);
    }

    private NodeServer start(FaultHook hookForA) throws Exception {
        NodeServer s = NodeServer.start(DescriptorParser.parse(descriptor(), true), (dir, options) ->
                hookForA != null && dir.getFileName().toString().equals("a")
                        ? LsmStore.open(dir, options, FileLayer.withFaults(hookForA))
                        : LsmStore.open(dir, options));
        servers.add(s);
        return s;
    }

    private static byte[] records(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < to; i++) {
            b.append("{\"id\":").append(i).append(",\"v\":\"").append("x".repeat(60)).append(i).append("\"}\n");
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static void await(String what, java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private int status(NodeServer s, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.httpAddress().getPort() + path))
                .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private JsonNode get(NodeServer s, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + s.httpAddress().getPort() + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** As {@link #get}, retried while the answer is 503 (a partition being reopened), for up to 30 s. */
    private JsonNode getEventually(NodeServer s, String path) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + s.httpAddress().getPort() + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 503 || System.nanoTime() > deadline) {
                assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
                return JSON.readTree(r.body());
            }
            Thread.sleep(10);
        }
    }

    private static boolean namesTheInjection(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("injected failure")) {
                return true;
            }
        }
        return false;
    }

    private static Predicate<BadRecord> storeFailedNamingTheCause() {
        return r -> r.kind() == ErrorKind.STORE_FAILED && r.detail().contains("injected failure");
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void aStoreFailureUnderAFeedIsReportedContainedAndLosesNoAcknowledgedRecord(Fault fault) throws Exception {
        Armed hook = new Armed(fault);
        NodeServer s = start(hook);
        long acked;
        try (FeedLineClient a = new FeedLineClient(s.feedAddresses("fa").get(0));
                FeedLineClient b = new FeedLineClient(s.feedAddresses("fb").get(0))) {
            a.send(records(0, 1000));
            await("the first 1,000 records acknowledged", () -> a.lastAck.get() == 1000);
            s.dataset("a").store().flush(); // so that the next flush comes in the middle of the next records
            // and no merge that flush started is still writing: the armed fault must hit the next flush's table,
            // not a merge's output (a merge running past this point made the first write after arming fail)
            s.dataset("a").store().awaitMerges();
            hook.armed.set(true);
            b.send(records(0, RECORDS));
            // The stream goes on until the server closes it: a failed background flush is reported by the next
            // write, and how many records one write takes depends on timing (a drain applies what is queued).
            int sent = 1000;
            while (!a.closedByServer.isDone() && sent < 100_000) {
                a.send(records(sent, sent + 500));
                sent += 500;
                Thread.sleep(2);
            }
            assertThat(a.closedByServer).as("the server closes the failed connection")
                    .succeedsWithin(30, TimeUnit.SECONDS);
            acked = a.lastAck.get();
            if (fault == Fault.WAL_SYNC) {
                assertThat(acked).as("the next write after the fault is armed fails").isEqualTo(1000);
            } else { // the flush of the next full MemTable fails; the writes until then were applied
                assertThat(acked).as("acknowledged before the failure").isBetween(1001L, sent - 1L);
            }
            String last = a.lines().get(a.lines().size() - 1);
            assertThat(JSON.readTree(last).path("error").asText()).as("the connection's last line: %s", last)
                    .contains("injected failure");

            FeedStats fa = s.feed("fa").stats();
            assertThat(fa.errors(ErrorKind.STORE_FAILED)).as("%s", fa).isPositive();
            assertThat(fa.recentErrors()).as("%s", fa).anyMatch(storeFailedNamingTheCause());
            assertThat(fa.records()).as("the client is told of every record applied").isEqualTo(acked);

            await("dataset b's feed applies every record", () -> s.feed("fb").stats().records() == RECORDS);
            assertThat(s.feed("fb").stats().errorCount()).isZero();
            assertThat(b.lastAck.get()).isLessThanOrEqualTo(RECORDS);
        }

        // Reads go on: health, records acknowledged on a, counts of both, the feed's statistics.
        JsonNode health = get(s, "/health");
        assertThat(health.get("status").asText()).isEqualTo("degraded");
        assertThat(health.get("unavailablePartitions")).hasSize(1);
        assertThat(health.get("unavailablePartitions").get(0).get("dataset").asText()).isEqualTo("a");
        assertThat(health.get("unavailablePartitions").get(0).get("state").asText()).isEqualTo("READ_ONLY");
        assertThat(health.get("unavailablePartitions").get(0).get("error").asText()).contains("injected failure");
        assertThat(get(s, "/datasets/a/records/0").get("id").asLong()).isZero();
        assertThat(get(s, "/datasets/a/records/" + (acked - 1)).get("id").asLong()).isEqualTo(acked - 1);
        assertThat(get(s, "/datasets/a/count").get("count").asLong()).isGreaterThanOrEqualTo(acked);
        assertThat(get(s, "/datasets/b/count").get("count").asLong()).isEqualTo(RECORDS);
        assertThat(status(s, "/datasets/a/metrics")).isEqualTo(200);
        assertThat(get(s, "/feeds/fa/stats").get("errors").get("STORE_FAILED").asLong()).isPositive();

        // The first error sticks: a direct write and a new feed connection are refused with it.
        LsmStore storeA = s.dataset("a").store();
        Throwable refused = null;
        try {
            storeA.put(KeyEncoder.of(999_999L), new byte[] {1});
        } catch (IOException e) {
            refused = e;
        }
        assertThat(refused).isNotNull();
        assertThat(namesTheInjection(refused)).as("%s", refused).isTrue();
        long failedBefore = s.feed("fa").stats().errors(ErrorKind.STORE_FAILED);
        try (FeedLineClient again = new FeedLineClient(s.feedAddresses("fa").get(0))) {
            again.send(records(RECORDS, RECORDS + 10));
            assertThat(again.closedByServer).succeedsWithin(30, TimeUnit.SECONDS);
            assertThat(again.lastAck.get()).isZero();
            assertThat(again.lines()).anyMatch(l -> l.contains("injected failure"));
        }
        assertThat(s.feed("fa").stats().errors(ErrorKind.STORE_FAILED)).isGreaterThan(failedBefore);
        // b still takes writes.
        try (FeedLineClient more = new FeedLineClient(s.feedAddresses("fb").get(0))) {
            more.send(records(RECORDS, RECORDS + 10));
            await("more records into b", () -> more.lastAck.get() == 10);
        }

        // Restart without faults: every acknowledged record is there, and a takes writes again.
        s.close();
        NodeServer again = start(null);
        LsmStore reopened = again.dataset("a").store();
        for (long i = 0; i < acked; i++) {
            assertThat(reopened.get(KeyEncoder.of(i))).as("acknowledged record %d", i).isNotNull();
        }
        assertThat(get(again, "/datasets/b/count").get("count").asLong()).isEqualTo(RECORDS + 10);
        try (FeedLineClient a = new FeedLineClient(again.feedAddresses("fa").get(0))) {
            a.send(records(RECORDS, RECORDS + 10));
            await("a takes writes after the restart", () -> a.lastAck.get() == 10);
        }
    }

    /**
     * One dataset over two partitions (iodevices); partition 0's device fills up (a short write, then every write
     * fails: {@link FaultInjector#diskFullAt}) while records stream in. The connection that sent a record to
     * partition 0 is told which partition failed and why ({@code No space left on device}); partition 1 keeps taking
     * records over other connections and both answer reads (partition 0 from its store opened read-only, while the
     * node's retries find the device still full), and health says partition 0 is degraded. Once the space is freed,
     * the node's retry reopens partition 0, without a restart: every acknowledged record is there, and it takes
     * records again.
     */
    @Test
    void aPartitionWhoseDeviceFillsUpResumesOnceSpaceIsFreedWithoutARestart() throws Exception {
        Path conf = Files.writeString(tmp.resolve("parts.conf"), "[nc/nc1]\n"
                + "iodevices = " + tmp.resolve("p0") + ", " + tmp.resolve("p1") + "\n"
                + "[nc]\nstorage.memorycomponent.globalbudget = 64KB\nstorage.wal.mode = sync\n"
                + "partition.reopen.delay = 100ms\npartition.reopen.max-delay = 200ms\n"
                + "[http]\nport = 0\n"
                + "[dataset/d]\nprimary-key = id\n"
                + "[feed/fd]\ndataset = d\nformat = json\naddresses = 127.0.0.1:0\nacks = true\n",
                StandardCharsets.UTF_8);
        FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
        Path device0 = tmp.resolve("p0");
        NodeServer s = NodeServer.start(DescriptorParser.parse(conf, true), (dir, options) ->
                dir.startsWith(device0) ? LsmStore.open(dir, options, FileLayer.withFaults(faults))
                        : LsmStore.open(dir, options));
        servers.add(s);
        List<Integer> part0 = new ArrayList<>();
        List<Integer> part1 = new ArrayList<>();
        for (int i = 0; part0.size() < 600 || part1.size() < 1200; i++) {
            (Dataset.partitionOf(KeyEncoder.of((long) i), 2) == 0 ? part0 : part1).add(i);
        }
        try (FeedLineClient first = new FeedLineClient(s.feedAddresses("fd").get(0))) {
            first.send(records(part0.subList(0, 300)));
            first.send(records(part1.subList(0, 300)));
            await("600 records acknowledged", () -> first.lastAck.get() == 600);
        }
        faults.diskFullAt(FileOp.WRITE, 1, true);
        String error;
        try (FeedLineClient toFailed = new FeedLineClient(s.feedAddresses("fd").get(0))) {
            toFailed.send(records(part0.subList(300, 301)));
            assertThat(toFailed.closedByServer).succeedsWithin(30, TimeUnit.SECONDS);
            String last = toFailed.lines().get(toFailed.lines().size() - 1);
            error = JSON.readTree(last).path("error").asText();
            assertThat(toFailed.lastAck.get()).isZero();
        }
        assertThat(error).contains("partition 0 of 2 of dataset d", FaultInjector.NO_SPACE,
                "/datasets/d/partitions/0/reopen", "the other partitions go on");
        try (FeedLineClient toHealthy = new FeedLineClient(s.feedAddresses("fd").get(0))) {
            toHealthy.send(records(part1.subList(300, 1200)));
            await("partition 1 takes records", () -> toHealthy.lastAck.get() == 900);
        }
        // While the device is full, retries fail and partition 0 answers reads from its store opened read-only.
        await("a retry on the full device", () -> {
            try {
                JsonNode h = get(s, "/health");
                return h.path("unavailablePartitions").path(0).path("state").asText().equals("READ_ONLY")
                        && h.path("unavailablePartitions").path(0).path("error").asText()
                                .contains(FaultInjector.NO_SPACE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // Each retry (every 100 to 200 ms here) closes the read-only store, tries to open for writing, and opens it
        // read-only again; a request in that window gets 503 (no operation waits for a reopen, see Partition), so
        // a read is retried until it meets the read-only store.
        for (int i : List.of(part0.get(0), part0.get(299), part1.get(0), part1.get(1199))) {
            assertThat(getEventually(s, "/datasets/d/records/" + i).get("id").asLong()).isEqualTo(i);
        }
        faults.freeSpace();
        await("partition 0 reopened by the node", () -> {
            try {
                return get(s, "/health").get("status").asText().equals("ok");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(get(s, "/datasets/d/count").get("count").asLong()).isEqualTo(1500);
        for (int i : part0.subList(0, 300)) {
            assertThat(get(s, "/datasets/d/records/" + i).get("id").asLong()).as("acknowledged record %d", i)
                    .isEqualTo(i);
        }
        try (FeedLineClient resumed = new FeedLineClient(s.feedAddresses("fd").get(0))) {
            resumed.send(records(part0.subList(300, 600)));
            await("partition 0 takes records again, without a restart", () -> resumed.lastAck.get() == 300);
        }
        assertThat(get(s, "/datasets/d/count").get("count").asLong()).isEqualTo(1800);
    }

    private static byte[] records(List<Integer> ids) {
        StringBuilder b = new StringBuilder();
        for (int i : ids) {
            b.append("{\"id\":").append(i).append(",\"v\":\"").append("x".repeat(60)).append(i).append("\"}\n");
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
