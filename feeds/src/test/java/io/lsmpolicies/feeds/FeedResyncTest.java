package io.lsmpolicies.feeds;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.records.KeyEncoder;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resynchronisation and the end of a stream through a real socket to a real feed: malformed fragments never cost
 * a well-formed record, and a client that half-closes its socket reads acknowledgements up to its last record.
 */
@Timeout(120)
class FeedResyncTest {
    private static final Pattern ACK = Pattern.compile("\\{\"acked\":(\\d+)}");

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

    private InetSocketAddress start(FeedConfig.Builder config) throws IOException {
        feed = Feed.create(config.build());
        return feed.startOnLoopback();
    }

    private FeedConfig.Builder adm() throws IOException {
        store = LsmStore.open(dir.resolve("store"), StoreOptions.builder().walMode(SyncMode.ASYNC).build());
        return FeedConfig.builder("resync", RecordFormat.ADM, Dataset.of("usertable", store, "YCSB_KEY"));
    }

    /**
     * Sends {@code bytes} in writes of odd sizes, half-closes, and reads the acknowledgements until the server
     * closes: returns the last one (-1 if none).
     */
    private static long sendAndReadAcks(InetSocketAddress a, byte[] bytes) throws IOException {
        try (Socket s = new Socket(a.getAddress(), a.getPort())) {
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < bytes.length; i += 1000) {
                out.write(bytes, i, Math.min(1000, bytes.length - i));
            }
            s.shutdownOutput();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            long last = -1;
            for (String line; (line = in.readLine()) != null; ) {
                Matcher m = ACK.matcher(line);
                assertThat(m.matches()).as(line).isTrue();
                long v = Long.parseLong(m.group(1));
                assertThat(v).isGreaterThanOrEqualTo(last);
                last = v;
            }
            return last;
        }
    }

    /** The reported case: a few fragments that open a brace and never close it, among 20,000 records. */
    @Test
    void unclosedFragmentsAmongTwentyThousandRecordsCostNoRecord() throws Exception {
        InetSocketAddress a = start(adm()); // the default 1 MiB record limit, as conf/lsm-node.conf
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SplittableRandom r = new SplittableRandom(15);
        for (int i = 0; i < 20_000; i++) {
            if (i == 3000 || i == 9000) {
                out.writeBytes("{\"YCSB_KEY\":\"cut\",\"field0\":hex(\"0a1b".getBytes(StandardCharsets.US_ASCII));
            }
            if (i == 15_000) {
                out.writeBytes("{{".getBytes(StandardCharsets.US_ASCII));
            }
            out.writeBytes(FeedStreams.record(r, "user" + i, 1 << 20).getBytes(StandardCharsets.US_ASCII));
        }
        try (Socket s = new Socket(a.getAddress(), a.getPort())) {
            s.getOutputStream().write(out.toByteArray());
        }
        // One snapshot per check: two stats() calls could see "none open" before the connection was
        // registered and "one counted" after it, and end the wait before a byte was read.
        long deadline = System.nanoTime() + 60_000_000_000L;
        FeedStats stats = feed.stats();
        while (!stats.open().isEmpty() || stats.connections() == 0) {
            assertThat(System.nanoTime()).as("stats %s", stats).isLessThan(deadline);
            Thread.sleep(10);
            stats = feed.stats();
        }
        assertThat(stats.records()).as("stats %s", stats).isEqualTo(20_000);
        assertThat(stats.errorCount()).isEqualTo(3);
        assertThat(store.get(KeyEncoder.of("cut"))).isNull();
    }

    /** Random streams of records and fragments, one connection each, half-closed: every record is stored. */
    @Test
    void everyWellFormedRecordOfRandomStreamsIsStoredAndAcknowledged() throws Exception {
        InetSocketAddress a = start(adm().acks(true).maxRecordBytes(512));
        SplittableRandom seeds = new SplittableRandom(20);
        long fragments = 0;
        for (int c = 0; c < 300; c++) {
            long seed = seeds.nextLong();
            FeedStreams.Stream s = FeedStreams.generate(new SplittableRandom(seed), "c" + c, 1 + (c % 20), 0.4, 512);
            long acked = sendAndReadAcks(a, s.bytes());
            assertThat(acked).as("seed %d", seed).isEqualTo(s.keys().size());
            for (String key : s.keys()) {
                assertThat(store.get(KeyEncoder.of(key))).as("seed %d key %s", seed, key).isNotNull();
            }
            fragments += s.fragments().size();
            assertThat(feed.stats().errorCount()).as("seed %d", seed).isEqualTo(fragments);
        }
    }

    /** A client that sends its records and half-closes reads acknowledgements up to its last record. */
    @Test
    void aHalfClosingClientGetsTheFinalAcknowledgement() throws Exception {
        InetSocketAddress a = start(adm().acks(true).queueCapacity(64));
        SplittableRandom r = new SplittableRandom(5);
        for (int round = 0; round < 10; round++) {
            int n = 500 + r.nextInt(2500);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 0; i < n; i++) {
                out.writeBytes(FeedStreams.record(r, "r" + round + "-" + i, 1 << 20)
                        .getBytes(StandardCharsets.US_ASCII));
            }
            assertThat(sendAndReadAcks(a, out.toByteArray())).as("round %d", round).isEqualTo(n);
        }
        assertThat(sendAndReadAcks(a, new byte[0])).as("no record").isZero();
    }
}
