package io.lsmpolicies.feeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.KeyValue;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.records.KeyEncoder;
import io.lsmpolicies.records.ValueCodec;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class FeedServerTest {
    @TempDir
    Path dir;

    private LsmStore store;
    private Feed feed;

    @AfterEach
    void tearDown() throws Exception {
        if (feed != null) {
            feed.stop();
        }
        if (store != null) {
            store.close();
        }
    }

    private void open(StoreOptions options) throws IOException {
        store = LsmStore.open(dir.resolve("store"), options);
    }

    private InetSocketAddress startFeed(FeedConfig.Builder b) throws IOException {
        feed = Feed.create(b.build());
        return feed.startOnLoopback();
    }

    private FeedConfig.Builder adm() {
        return FeedConfig.builder("test", RecordFormat.ADM, Dataset.of("usertable", store, "YCSB_KEY"));
    }

    /** The AsterixDB YCSB client's record: key, then hex fields, no newline. */
    private static String ycsb(int i) {
        StringBuilder b = new StringBuilder("{\"YCSB_KEY\":\"user").append(i).append('"');
        for (int f = 0; f < 3; f++) {
            b.append(",\"field").append(f).append("\":hex(\"").append(String.format("%02x", (i + f) & 0xff).repeat(20))
                    .append("\")");
        }
        return b.append('}').toString();
    }

    private static void send(InetSocketAddress a, byte[] bytes) throws IOException {
        try (Socket s = new Socket(a.getAddress(), a.getPort())) {
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < bytes.length; i += 1000) { // odd-sized writes: records split anywhere
                out.write(bytes, i, Math.min(1000, bytes.length - i));
            }
        }
    }

    private FeedStats await(Predicate<FeedStats> done) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        FeedStats s = feed.stats();
        while (!done.test(s) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            s = feed.stats();
        }
        assertThat(done.test(s)).as("stats %s", s).isTrue();
        return s;
    }

    private AdmValue.Obj stored(String key) throws IOException {
        byte[] v = store.get(KeyEncoder.of(key));
        return v == null ? null : (AdmValue.Obj) ValueCodec.decode(v);
    }

    private long count() throws IOException {
        long n = 0;
        try (StoreIterator it = store.scan(null, null)) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                assertThat(kv.value()).isNotNull();
                n++;
            }
        }
        return n;
    }

    @Test
    void ycsbClientByteFormatTenThousandRecords() throws Exception {
        open(StoreOptions.builder().walMode(SyncMode.ASYNC).build());
        InetSocketAddress a = startFeed(adm());
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            all.append(ycsb(i));
        }
        send(a, all.toString().getBytes(StandardCharsets.UTF_8));
        FeedStats s = await(x -> x.records() == 10_000);
        assertThat(s.errorCount()).isZero();
        assertThat(s.bytes()).isEqualTo(all.length());
        for (int i = 0; i < 10_000; i += 7) {
            assertThat(stored("user" + i)).isEqualTo(RecordFormat.ADM.parse(ycsb(i)));
        }
        assertThat(count()).isEqualTo(10_000);
    }

    @Test
    void connectionsPastTheLimitAreClosedAtOnceAndCounted() throws Exception {
        open(StoreOptions.builder().walMode(SyncMode.ASYNC).build());
        InetSocketAddress a = startFeed(adm().maxConnections(2));
        try (Socket one = new Socket(a.getAddress(), a.getPort());
             Socket two = new Socket(a.getAddress(), a.getPort())) {
            await(x -> x.open().size() == 2);
            try (Socket three = new Socket(a.getAddress(), a.getPort())) {
                three.setSoTimeout(10_000);
                assertThat(three.getInputStream().read()).as("closed by the server").isEqualTo(-1);
            }
            FeedStats s = await(x -> x.refusedConnections() == 1);
            assertThat(s.open()).hasSize(2);
            one.getOutputStream().write(ycsb(1).getBytes(StandardCharsets.UTF_8)); // the first two still work
            two.getOutputStream().write(ycsb(2).getBytes(StandardCharsets.UTF_8));
            await(x -> x.records() == 2);
        }
    }

    @Test
    void malformedRecordsMidStreamAreCountedWithOffsetsAndTheGoodOnesApplied() throws Exception {
        open(StoreOptions.builder().walMode(SyncMode.ASYNC).build());
        InetSocketAddress a = startFeed(adm().maxRecordBytes(200));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Long> badOffsets = new ArrayList<>();
        String[] bad = {"{\"YCSB_KEY\":\"x1\",}", "{\"other\":1}", "{\"YCSB_KEY\":\"x3\",\"f\":\"" + "z".repeat(300)
            + "\"}", null, "  junk  "};
        for (int i = 0; i < 5; i++) {
            out.writeBytes(ycsbSmall(i));
            badOffsets.add((long) out.size() + (i == 4 ? 2 : 0));
            if (bad[i] == null) { // invalid UTF-8 inside a string
                out.writeBytes("{\"YCSB_KEY\":\"x4\",\"f\":\"".getBytes(StandardCharsets.UTF_8));
                out.write(0xFF);
                out.writeBytes("\"}".getBytes(StandardCharsets.UTF_8));
            } else {
                out.writeBytes(bad[i].getBytes(StandardCharsets.UTF_8));
            }
        }
        out.writeBytes(ycsbSmall(5));
        send(a, out.toByteArray());
        FeedStats s = await(x -> x.records() == 6 && x.errorCount() == 5);
        for (int i = 0; i <= 5; i++) {
            assertThat(stored("user" + i)).as("user%d", i).isNotNull();
        }
        for (int i = 1; i <= 4; i++) {
            assertThat(stored("x" + i)).isNull();
        }
        assertThat(s.errors()).containsOnlyKeys(ErrorKind.SYNTAX, ErrorKind.MISSING_KEY, ErrorKind.TOO_LARGE,
                ErrorKind.INVALID_UTF8, ErrorKind.STRAY_BYTES).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
        assertThat(s.recentErrors()).extracting(BadRecord::kind).containsExactly(ErrorKind.SYNTAX,
                ErrorKind.MISSING_KEY, ErrorKind.TOO_LARGE, ErrorKind.INVALID_UTF8, ErrorKind.STRAY_BYTES);
        assertThat(s.recentErrors()).extracting(BadRecord::offset).containsExactlyElementsOf(badOffsets);
        assertThat(s.recentErrors().get(1).excerpt()).isEqualTo("{\"other\":1}");
    }

    /**
     * Records drained together are applied as one batch; one the store refuses (a value over its limit) must
     * not take the others with it: the batch falls back to records one by one and only the bad one is rejected.
     */
    @Test
    void aRecordTheStoreRefusesIsRejectedAloneAndItsNeighboursApplied() throws Exception {
        open(StoreOptions.builder().walMode(SyncMode.ASYNC).maxValueBytes(300).build());
        InetSocketAddress a = startFeed(adm());
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            all.append(i == 250 ? "{\"YCSB_KEY\":\"big\",\"f\":\"" + "z".repeat(1000) + "\"}"
                    : new String(ycsbSmall(i), StandardCharsets.UTF_8));
        }
        send(a, all.toString().getBytes(StandardCharsets.UTF_8));
        FeedStats s = await(x -> x.records() == 499 && x.errorCount() == 1);
        assertThat(s.errors()).containsOnlyKeys(ErrorKind.REJECTED);
        assertThat(s.recentErrors().get(0).detail()).contains("maxValueBytes");
        assertThat(stored("big")).isNull();
        assertThat(count()).isEqualTo(499);
    }

    private static byte[] ycsbSmall(int i) {
        return ("{\"YCSB_KEY\":\"user" + i + "\",\"field0\":hex(\"0a1b\")}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void clientDyingMidRecordAppliesNothingPartial() throws Exception {
        open(StoreOptions.builder().walMode(SyncMode.ASYNC).build());
        InetSocketAddress a = startFeed(adm());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 100; i++) {
            out.writeBytes(ycsbSmall(i));
        }
        out.writeBytes("{\"YCSB_KEY\":\"partial\",\"field0\":hex(\"0a".getBytes(StandardCharsets.UTF_8));
        try (Socket s = new Socket(a.getAddress(), a.getPort())) {
            s.getOutputStream().write(out.toByteArray());
            s.setSoLinger(true, 0); // dies: RST instead of FIN
        }
        FeedStats s = await(x -> x.records() == 100 && x.errors(ErrorKind.TRUNCATED) == 1);
        assertThat(s.recentErrors()).singleElement().extracting(BadRecord::offset)
                .isEqualTo((long) out.size() - "{\"YCSB_KEY\":\"partial\",\"field0\":hex(\"0a".length());
        assertThat(stored("partial")).isNull();
        assertThat(count()).isEqualTo(100);
    }

    @Test
    void concurrentConnectionsOnTwoAddresses() throws Exception {
        open(StoreOptions.builder().walMode(SyncMode.ASYNC).build());
        feed = Feed.create(adm().ioThreads(2).build());
        List<InetSocketAddress> bound = feed.start(List.of(new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", 0)));
        assertThat(bound).hasSize(2);
        int clients = 8;
        int per = 1000;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int base = c * per;
                InetSocketAddress a = bound.get(c % 2);
                fs.add(pool.submit(() -> {
                    StringBuilder b = new StringBuilder();
                    for (int i = base; i < base + per; i++) {
                        b.append(ycsb(i)).append(i % 3 == 0 ? "\n" : "");
                    }
                    send(a, b.toString().getBytes(StandardCharsets.UTF_8));
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        FeedStats s = await(x -> x.records() == clients * per);
        assertThat(s.connections()).isEqualTo(clients);
        assertThat(s.errorCount()).isZero();
        assertThat(count()).isEqualTo(clients * per);
    }

    @Test
    void backPressureKeepsTheQueueBoundedAndDropsNothing() throws Exception {
        open(StoreOptions.builder().memtableBytes(4096).maxImmutableMemtables(1).walMode(SyncMode.SYNC).build());
        int capacity = 8;
        InetSocketAddress a = startFeed(adm().queueCapacity(capacity).writerThreads(1));
        int n = 1500;
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < n; i++) {
            all.append(ycsb(i));
        }
        send(a, all.toString().getBytes(StandardCharsets.UTF_8));
        FeedStats s = await(x -> x.records() == n);
        int recordsPerRead = FeedConfig.READ_BUFFER_BYTES / ycsb(0).length() + 1;
        assertThat(s.maxQueued()).isGreaterThanOrEqualTo(capacity).isLessThanOrEqualTo(capacity + recordsPerRead);
        assertThat(store.metrics().toString()).isNotEmpty();
        assertThat(count()).isEqualTo(n);
    }

    @Test
    void acksReportRecordsThatSurviveAReopen() throws Exception {
        Path storeDir = dir.resolve("store");
        open(StoreOptions.builder().walMode(SyncMode.SYNC).build());
        InetSocketAddress a = startFeed(adm().acks(true));
        int n = 300;
        long lastAck = 0;
        Pattern ack = Pattern.compile("\\{\"acked\":(\\d+)}");
        try (Socket s = new Socket(a.getAddress(), a.getPort())) {
            StringBuilder all = new StringBuilder();
            for (int i = 0; i < n; i++) {
                all.append(ycsb(i));
            }
            s.getOutputStream().write(all.toString().getBytes(StandardCharsets.UTF_8));
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            while (lastAck < n) {
                String line = in.readLine();
                assertThat(line).isNotNull();
                Matcher m = ack.matcher(line);
                assertThat(m.matches()).as(line).isTrue();
                long v = Long.parseLong(m.group(1));
                assertThat(v).isGreaterThan(lastAck);
                lastAck = v;
            }
        }
        feed.stop();
        feed = null;
        store.close();
        store = LsmStore.open(storeDir, StoreOptions.builder().walMode(SyncMode.SYNC).build());
        assertThat(count()).isEqualTo(lastAck).isEqualTo(n);
    }

    @Test
    void stopDrainsQueuedRecordsThenRefusesConnections() throws Exception {
        // The writer is held at its first WAL sync once the feed runs, so records are surely still queued when
        // the last byte has arrived (timing alone proved flaky: a fast run applied them all first).
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean holding = new AtomicBoolean();
        FaultHook hold = new FaultHook() {
            @Override
            public void before(FileOp op, Path path) {
                if (op == FileOp.SYNC && holding.get() && path.getFileName().toString().endsWith(".log")) {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        store = LsmStore.open(dir.resolve("store"), StoreOptions.builder().memtableBytes(4096)
                .maxImmutableMemtables(1).walMode(SyncMode.SYNC).build(), FileLayer.withFaults(hold));
        InetSocketAddress a = startFeed(adm().writerThreads(1).queueCapacity(100_000));
        holding.set(true);
        int n = 1000;
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < n; i++) {
            all.append(ycsb(i));
        }
        byte[] bytes = all.toString().getBytes(StandardCharsets.UTF_8);
        send(a, bytes);
        FeedStats before = await(x -> x.bytes() == bytes.length);
        assertThat(before.records()).isLessThan(n); // held: records still in flight
        release.countDown();
        feed.stop();
        FeedStats s = feed.stats();
        assertThat(s.state()).isEqualTo(Feed.State.STOPPED);
        assertThat(s.records()).isEqualTo(n);
        assertThat(s.open()).isEmpty();
        assertThat(count()).isEqualTo(n);
        assertThatThrownBy(() -> new Socket(a.getAddress(), a.getPort()).close()).isInstanceOf(ConnectException.class);
    }

    @Test
    void closeConnectionPolicyAppliesNothingAfterTheBadRecord() throws Exception {
        open(StoreOptions.builder().walMode(SyncMode.ASYNC).build());
        InetSocketAddress a = startFeed(adm().badRecords(BadRecordPolicy.CLOSE_CONNECTION));
        try (Socket s = new Socket(a.getAddress(), a.getPort())) {
            s.getOutputStream().write(("{\"YCSB_KEY\":\"a\"}{\"YCSB_KEY\":}{\"YCSB_KEY\":\"b\"}")
                    .getBytes(StandardCharsets.UTF_8));
            assertThat(s.getInputStream().read()).isEqualTo(-1); // the server closed
        }
        await(x -> x.open().isEmpty() && x.errors(ErrorKind.SYNTAX) == 1);
        assertThat(stored("a")).isNotNull();
        assertThat(stored("b")).isNull();
    }

    @Test
    void insertIfAbsentKeepsTheFirstRecordAndJsonFormatWorks() throws Exception {
        open(StoreOptions.builder().walMode(SyncMode.ASYNC).build());
        InetSocketAddress a = startFeed(FeedConfig.builder("j", RecordFormat.JSON,
                Dataset.of("d", store, "id")).insertIfAbsent(true));
        send(a, "{\"id\":\"k\",\"v\":1}\n{\"id\":\"k\",\"v\":2}\n{\"id\":\"m\",\"v\":hex(\"00\")}"
                .getBytes(StandardCharsets.UTF_8));
        FeedStats s = await(x -> x.records() == 2 && x.errorCount() == 1);
        assertThat(s.duplicates()).isEqualTo(1);
        assertThat(s.errors(ErrorKind.SYNTAX)).isEqualTo(1);
        assertThat(((AdmValue.Obj) ValueCodec.decode(store.get(KeyEncoder.of("k")))).get("v"))
                .isEqualTo(new AdmValue.Int(AdmValue.IntKind.INT64, 1));
    }

    @Test
    void configIsValidatedByName() throws Exception {
        open(StoreOptions.builder().walMode(SyncMode.ASYNC).build());
        assertThatThrownBy(() -> FeedConfig.builder("f", RecordFormat.ADM,
                Dataset.of("d", store, "k")).queueCapacity(0).build())
                .hasMessageContaining("queueCapacity").hasMessageContaining("[1, 1048576]");
    }
}
