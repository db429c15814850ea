package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node server killed with SIGKILL and restarted loses no acknowledged record. The
 * test writes a descriptor (feed with {@code acks = true}, {@code storage.wal.mode = sync}, free ports), runs
 * {@link LsmServer} in a child JVM, streams YCSB-format ADM records ({@code {"YCSB_KEY":"user<i>",
 * "field0":hex("..")}} back to back, no newline) over a socket while reading the {@code {"acked":N}} lines, and
 * kills the child ({@link Process#destroyForcibly()}) at a random moment: in the first round whenever the delay
 * ends (possibly before any acknowledgement), in the others a random delay after the round's first
 * acknowledgement arrived, so that a slow machine cannot turn every round into a kill before the first ack. The
 * next child recovers the same
 * directories; over HTTP every record acknowledged so far (0..N-1, across all rounds) must be served with its
 * value, and the count must be at least N. Each round continues at the acknowledged end (an unacknowledged record
 * that survived is rewritten with the same value, since values derive from the record number).
 *
 * <p>The seed is printed; {@code -Dlsm.servercrash.seed=S} reruns the same delays (the kill moments still depend
 * on timing).
 */
@Timeout(90)
class ServerCrashTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ACKED = Pattern.compile("\\{\"acked\":\\s*(\\d+)}");
    private static final int ROUNDS = 4;
    private static final int BATCH = 200;

    @TempDir
    Path tmp;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private Path descriptor(int httpPort, int feedPort) throws IOException {
        String text = "[nc/nc1]\n"
                + "iodevices = " + tmp.resolve("data/io0") + ", " + tmp.resolve("data/io1") + "\n"
                + "[nc]\n"
                + "storage.memorycomponent.globalbudget = 256KB\n" // flushes (and merges) during each round
                + "storage.wal.mode = sync\n"
                + "[http]\n"
                + "port = " + httpPort + "\n"
                + "[dataset/usertable]\n"
                + "primary-key = YCSB_KEY\n"
                + "merge-policy = {\"name\": \"prefix\", \"parameters\": {\"max-mergable-component-size\": 1048576,"
                + " \"max-tolerance-component-count\": 3}}\n"
                + "[feed/ycsb]\n"
                + "dataset = usertable\n"
                + "format = adm\n"
                + "acks = true\n"
                + "addresses = 127.0.0.1:" + feedPort + "\n";
        return Files.writeString(tmp.resolve("node.conf"), text, StandardCharsets.UTF_8);
    }

    static String value(long i) {
        return String.format("%08x%08x", i, (i * 0x9E3779B1L) & 0xffffffffL);
    }

    private static byte[] records(long from, long to) {
        StringBuilder b = new StringBuilder();
        for (long i = from; i < to; i++) {
            b.append("{\"YCSB_KEY\":\"user").append(i).append("\",\"field0\":hex(\"").append(value(i)).append("\")}");
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private Process startChild(Path conf, int index) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = List.of(java.toString(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), LsmServer.class.getName(), "--config", conf.toString(),
                "--create-iodevices");
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("server-" + index + ".log").toFile()).start();
    }

    private JsonNode get(int port, String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + port + path);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + " -> " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private void awaitHealthy(Process child, int httpPort, int index) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!child.isAlive()) {
                fail("server " + index + " exited with " + child.exitValue() + ":\n"
                        + Files.readString(tmp.resolve("server-" + index + ".log")));
            }
            try {
                if (get(httpPort, "/health").get("status").asText().equals("ok")) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(25);
        }
        fail("server " + index + " did not come up");
    }

    /** Reads every record over HTTP (range scans of up to 10,000) and checks 0..acked-1 hold their values. */
    private long verify(int httpPort, long acked, String what) throws Exception {
        Map<String, String> served = new HashMap<>();
        String from = null;
        while (true) {
            String q = "/datasets/usertable/records?limit=10000"
                    + (from == null ? "" : "&from=" + URLEncoder.encode(from, StandardCharsets.UTF_8));
            JsonNode page = get(httpPort, q);
            int fresh = 0;
            String last = from;
            for (JsonNode r : page) {
                String key = r.get("YCSB_KEY").asText();
                if (served.put(key, r.get("field0").asText()) == null) {
                    fresh++;
                }
                last = key;
            }
            if (fresh == 0 || page.size() < 10000) {
                break;
            }
            from = last;
        }
        for (long i = 0; i < acked; i++) {
            String v = served.get("user" + i);
            if (v == null) {
                fail(what + ": acknowledged record user" + i + " is missing (" + served.size() + " served)");
            }
            assertThat(v).as(what + ": user" + i).isEqualTo(value(i));
        }
        long count = get(httpPort, "/datasets/usertable/count").get("count").asLong();
        assertThat(count).as(what + ": count").isEqualTo(served.size()).isGreaterThanOrEqualTo(acked);
        // Spot checks through the point-lookup path, too.
        if (acked > 0) {
            for (long i : new long[] {0, acked / 2, acked - 1}) {
                assertThat(get(httpPort, "/datasets/usertable/records/user" + i).get("field0").asText())
                        .as(what + ": GET user" + i).isEqualTo(value(i));
            }
        }
        return served.size();
    }

    @Test
    void acknowledgedRecordsSurviveSigkillAndRestart() throws Exception {
        String given = System.getProperty("lsm.servercrash.seed");
        long seed = given != null ? Long.parseLong(given) : System.nanoTime();
        System.out.println("ServerCrashTest seed=" + seed + " (rerun with -Dlsm.servercrash.seed=" + seed + ")");
        Random random = new Random(seed);
        int httpPort = freePort();
        int feedPort = freePort();
        Path conf = descriptor(httpPort, feedPort);

        long acked = 0; // records 0..acked-1 were acknowledged by some child
        for (int round = 0; round <= ROUNDS; round++) {
            long started = System.nanoTime();
            Process child = startChild(conf, round);
            try {
                awaitHealthy(child, httpPort, round);
                long served = verify(httpPort, acked, "round " + round + " after restart");
                if (round == ROUNDS) {
                    assertThat(acked).as("rounds after the first are killed only after an acknowledgement")
                            .isPositive();
                    System.out.printf("final restart: acked=%d served=%d (%d ms)%n", acked, served,
                            (System.nanoTime() - started) / 1_000_000);
                    break;
                }
                long base = acked;
                AtomicLong roundAcked = new AtomicLong();
                CountDownLatch firstAck = new CountDownLatch(1);
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), feedPort);
                Thread reader = new Thread(() -> {
                    try (BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                            StandardCharsets.US_ASCII))) {
                        for (String line = in.readLine(); line != null; line = in.readLine()) {
                            Matcher m = ACKED.matcher(line.trim());
                            if (m.matches()) {
                                roundAcked.accumulateAndGet(Long.parseLong(m.group(1)), Math::max);
                                firstAck.countDown();
                            }
                        }
                    } catch (IOException e) {
                        // the connection dies with the child
                    }
                }, "acks-" + round);
                reader.setDaemon(true);
                reader.start();
                Thread writer = new Thread(() -> {
                    try {
                        OutputStream out = socket.getOutputStream();
                        for (long i = base; ; i += BATCH) {
                            out.write(records(i, i + BATCH));
                        }
                    } catch (IOException e) {
                        // the connection dies with the child
                    }
                }, "stream-" + round);
                writer.setDaemon(true);
                writer.start();

                if (round > 0 && !firstAck.await(30, TimeUnit.SECONDS)) {
                    fail("server " + round + " acknowledged nothing in 30 s:\n"
                            + Files.readString(tmp.resolve("server-" + round + ".log")));
                }
                long delay = round == 0 ? 300 + random.nextInt(1200) : random.nextInt(800);
                Thread.sleep(delay);
                if (!child.isAlive()) {
                    fail("server " + round + " exited by itself:\n"
                            + Files.readString(tmp.resolve("server-" + round + ".log")));
                }
                child.destroyForcibly(); // SIGKILL
                assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
                reader.join(5_000);
                socket.close();
                writer.join(5_000);
                long n = roundAcked.get();
                acked = base + n;
                System.out.printf("round %d: kill %d ms after %s, acked %d this round (records 0..%d acknowledged),"
                        + " served before %d (%d ms)%n", round, delay, round == 0 ? "the start" : "the first ack", n, acked - 1, served,
                        (System.nanoTime() - started) / 1_000_000);
            } finally {
                if (child.isAlive()) {
                    child.destroyForcibly();
                    child.waitFor(20, TimeUnit.SECONDS);
                }
            }
        }
    }
}
