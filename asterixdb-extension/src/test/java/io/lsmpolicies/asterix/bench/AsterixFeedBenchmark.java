package io.lsmpolicies.asterix.bench;

import io.lsmpolicies.asterix.ClusterSettings;
import io.lsmpolicies.asterix.EmbeddedAsterixDb;
import io.lsmpolicies.asterix.SqlppClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code bin/bench-feed-asterix}: the ingest rate of a stock AsterixDB 0.9.8 node (embedded in this JVM: a CC and
 * one NC with two iodevices, AsterixDB's own {@code NCApplication}, no extension) fed through its own
 * {@code socket_adapter} with the same bytes and the same number of connections as our {@code bin/bench-feed}
 * sends to our node server.
 *
 * <p>Per round, on the running cluster: a fresh dataset {@code usertable_<r>} ({@code YCSB_KEY} string primary key,
 * open type) and a feed with one socket per connection on the NC; each connection's share of the records is
 * written to a file first and sent with {@code transferTo} (the client costs almost no CPU, as in FeedBenchmark).
 * The clock runs from the first connect until a {@code COUNT(*)} of the dataset returns the record count; counting
 * starts once every byte is sent (it scans the dataset, and would slow the ingest it measures), and the interval
 * between the last count below the total and the one that reached it is printed as the timing uncertainty. Then
 * the feed is stopped and the dataset dropped.
 *
 * <p>Options: {@code --records N} (300000), {@code --connections C} (4), {@code --warmup N} (50000: one untimed
 * round first, so the timed rounds run JIT-compiled code), {@code --rounds R} (3), {@code --memory SIZE} (64MB,
 * {@code storage.memorycomponent.globalbudget}), {@code --buffer-cache SIZE} (128MB), {@code --page-size SIZE}
 * (128KB, AsterixDB's default for both page sizes), {@code --merge-policy JSON} (AsterixDB's {@code prefix} with
 * 1 GiB and 5 components, as {@code conf/lsm-node.conf} gives our node), {@code --dir D} (default
 * {@code bench-feed-asterix-<millis>}; deleted afterwards unless {@code --keep}).
 */
public final class AsterixFeedBenchmark {
    private static final String DV = "bench";

    private AsterixFeedBenchmark() {
    }

    /**
     * Runs the benchmark, then exits the JVM: AsterixDB 0.9.8 leaves non-daemon threads (its client connections'
     * IPC handlers) behind after the cluster has stopped, so the JVM would not exit by itself. Exit status 0 on
     * success, 1 on a failure (printed), 2 on a usage error.
     */
    public static void main(String[] args) {
        int status;
        try {
            status = run(args);
        } catch (Exception | Error e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }

    private static int run(String[] args) throws Exception {
        long records = 300_000;
        int connections = 4;
        long warmup = 50_000;
        int rounds = 3;
        String memory = "64MB";
        String bufferCache = "128MB";
        String pageSize = "128KB";
        String mergePolicy = "{\"name\": \"prefix\", \"parameters\": {\"max-mergable-component-size\": 1073741824,"
                + " \"max-tolerance-component-count\": 5}}";
        Path dir = Path.of("bench-feed-asterix-" + System.currentTimeMillis());
        boolean keep = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--records" -> records = Long.parseLong(args[++i]);
                case "--connections" -> connections = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Long.parseLong(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--memory" -> memory = args[++i];
                case "--buffer-cache" -> bufferCache = args[++i];
                case "--page-size" -> pageSize = args[++i];
                case "--merge-policy" -> mergePolicy = args[++i];
                case "--dir" -> dir = Path.of(args[++i]);
                case "--keep" -> keep = true;
                default -> {
                    System.err.println("usage: bench-feed-asterix [--records N] [--connections C] [--warmup N]"
                            + " [--rounds R] [--memory SIZE] [--buffer-cache SIZE] [--page-size SIZE]"
                            + " [--merge-policy JSON] [--dir D] [--keep]");
                    return 2;
                }
            }
        }
        if (records < 1 || connections < 1 || rounds < 1 || warmup < 0) {
            System.err.println("bench-feed-asterix: --records, --connections and --rounds must be >= 1,"
                    + " --warmup >= 0");
            return 2;
        }
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    System.err.println("bench-feed-asterix: " + dir + " is not empty");
                    return 2;
                }
            }
        }
        Files.createDirectories(dir);
        System.out.printf("bench-feed-asterix: AsterixDB 0.9.8 (embedded CC + 1 NC, 2 iodevices), records=%d"
                + " (1 KB: %d fields x %d bytes, hex), connections=%d, memory=%s, buffer-cache=%s, page-size=%s,"
                + " merge-policy=%s, dir=%s, cores=%d%n", records, YcsbAdmStream.FIELDS, YcsbAdmStream.FIELD_BYTES,
                connections, memory, bufferCache, pageSize, mergePolicy, dir.toAbsolutePath(),
                Runtime.getRuntime().availableProcessors());
        try (EmbeddedAsterixDb db = EmbeddedAsterixDb.start(dir.resolve("cluster"),
                new ClusterSettings(1, 2, pageSize, bufferCache, memory, false))) {
            SqlppClient sqlpp = db.sqlpp();
            sqlpp.run("CREATE DATAVERSE " + DV + "; USE " + DV + "; CREATE TYPE UserType AS OPEN { YCSB_KEY: string };");
            if (warmup > 0) {
                System.out.printf("warm-up: %d records%n", warmup);
                round(db, dir, "warmup", warmup, connections, mergePolicy);
            }
            List<Double> rates = new ArrayList<>();
            for (int r = 1; r <= rounds; r++) {
                double rate = round(db, dir, Integer.toString(r), records, connections, mergePolicy);
                System.out.printf("round %d AsterixDB socket feed: %,.0f records/s%n", r, rate);
                rates.add(rate);
            }
            List<Double> sorted = rates.stream().sorted().toList();
            System.out.printf("AsterixDB 0.9.8 socket feed: median %,.0f records/s, range %,.0f-%,.0f over %d rounds%n",
                    sorted.get(sorted.size() / 2), sorted.get(0), sorted.get(sorted.size() - 1), rounds);
        } finally {
            if (!keep) {
                delete(dir);
            }
        }
        return 0;
    }

    /** One dataset, one feed, {@code records} records; the records per second until the count reached them. */
    private static double round(EmbeddedAsterixDb db, Path dir, String name, long records, int connections,
            String mergePolicy) throws Exception {
        SqlppClient sqlpp = db.sqlpp();
        String dataset = "usertable_" + name;
        String feed = "ycsb_" + name;
        List<Integer> ports = new ArrayList<>();
        StringBuilder sockets = new StringBuilder();
        for (int c = 0; c < connections; c++) {
            int port = EmbeddedAsterixDb.freePort();
            ports.add(port);
            sockets.append(c == 0 ? "" : ",").append(db.nodes().get(0)).append(':').append(port);
        }
        List<Path> streams = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            Path file = dir.resolve("stream-" + c + ".adm");
            YcsbAdmStream.write(file, records * c / connections, records * (c + 1) / connections);
            streams.add(file);
        }
        sqlpp.run("USE " + DV + "; CREATE DATASET " + dataset + "(UserType) PRIMARY KEY YCSB_KEY WITH {\"merge-policy\": "
                + mergePolicy + "};"
                + "CREATE FEED " + feed + " WITH {\"adapter-name\": \"socket_adapter\", \"sockets\": \"" + sockets
                + "\", \"address-type\": \"nc\", \"type-name\": \"UserType\", \"format\": \"adm\"};"
                + "CONNECT FEED " + feed + " TO DATASET " + dataset + "; START FEED " + feed + ";");
        List<SocketChannel> channels = new ArrayList<>();
        for (int port : ports) { // the adapter listens a moment after START FEED: wait for it, off the clock
            channels.add(awaitListening(port));
        }
        long cpu = processCpuNanos();
        long start = System.nanoTime();
        List<Thread> clients = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            SocketChannel channel = channels.get(c);
            Path stream = streams.get(c);
            Thread t = new Thread(() -> {
                try (channel; FileChannel in = FileChannel.open(stream, StandardOpenOption.READ)) {
                    for (long at = 0, size = in.size(); at < size; ) {
                        at += in.transferTo(at, size - at, channel);
                    }
                } catch (IOException e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "bench-client-" + c);
            t.start();
            clients.add(t);
        }
        for (Thread t : clients) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw new UncheckedIOException("sending failed", (IOException) failures.get(0));
        }
        long sent = System.nanoTime();
        long lastBelow = sent;
        long count;
        long counted;
        while (true) {
            long asked = System.nanoTime();
            count = sqlpp.count(DV, dataset);
            counted = System.nanoTime();
            if (count >= records) {
                break;
            }
            lastBelow = asked;
            Thread.sleep(20);
        }
        long cpuUsed = processCpuNanos() - cpu;
        if (count != records) {
            throw new IllegalStateException(dataset + " holds " + count + " records, expected " + records);
        }
        double seconds = (counted - start) / 1e9;
        System.out.printf("  %s: sent in %.2f s, count %d reached within %.2f-%.2f s; CPU %.1f s, %.1f µs per record%n",
                dataset, (sent - start) / 1e9, records, (lastBelow - start) / 1e9, seconds, cpuUsed / 1e9,
                cpuUsed / 1e3 / records);
        sqlpp.run("USE " + DV + "; STOP FEED " + feed + "; DISCONNECT FEED " + feed + " FROM DATASET " + dataset + ";"
                + " DROP FEED " + feed + "; DROP DATASET " + dataset + ";");
        for (Path stream : streams) {
            Files.deleteIfExists(stream);
        }
        return records / seconds;
    }

    private static SocketChannel awaitListening(int port) throws IOException, InterruptedException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                return SocketChannel.open(address);
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("AsterixDB's socket feed did not listen on " + address, e);
                }
                Thread.sleep(50);
            }
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
