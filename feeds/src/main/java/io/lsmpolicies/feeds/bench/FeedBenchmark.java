package io.lsmpolicies.feeds.bench;

import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.RecordFormat;
import io.lsmpolicies.feeds.server.DatasetSpec;
import io.lsmpolicies.feeds.server.DescriptorParser;
import io.lsmpolicies.feeds.server.NodeDescriptor;
import io.lsmpolicies.feeds.server.NodeServer;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.records.KeyEncoder;
import io.lsmpolicies.records.ValueCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code bin/bench-feed}: feed ingest rate against an embedded load of the same records, in one run, on the same
 * disk. Records are YCSB-like: key {@code user<i>}, 10 fields {@code field0..field9} of 100 bytes each,
 * sent as ADM {@code hex("...")} (about 2 KB of text, 1 KB of data), back to back with no newline, as AsterixDB's
 * YCSB client sends them.
 * <ol>
 *   <li>embedded: the node's stores (one per iodevice, the options the node server would give them) are opened
 *       directly and one thread puts every record into its hash partition (key and value bytes identical to what
 *       the feed stores); timed from the first put to the last;</li>
 *   <li>feed: a {@link NodeServer} is started from the same descriptor on fresh directories, {@code --connections}
 *       clients stream the records (each a contiguous share) over sockets; timed from the first connect until
 *       the feed's statistics count every record applied.</li>
 * </ol>
 * Options: {@code --records N} (300000), {@code --connections C} (4), {@code --dir D} (a fresh directory,
 * default {@code bench-feed-<millis>} in the working directory; deleted afterwards unless {@code --keep}),
 * {@code --wal sync|async|off} (async), {@code --writer-threads W} (2), {@code --memory BYTES} (64MB, the
 * node's MemTable budget), {@code --warmup N} (50000: records sent each way first, untimed, so both paths run
 * JIT-compiled code when timed), {@code --rounds R} (3: embedded then feed, R times, on fresh directories;
 * the median ratio is the result), {@code --io-threads T} (the feed's {@code io-threads}; default the
 * descriptor's default).
 */
public final class FeedBenchmark {
    private static final int FIELDS = 10;
    private static final int FIELD_BYTES = 100;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private FeedBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        long records = 300_000;
        int connections = 4;
        Path dir = Path.of("bench-feed-" + System.currentTimeMillis());
        String wal = "async";
        int writers = 2;
        String memory = "64MB";
        boolean keep = false;
        long warmup = 50_000;
        int rounds = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--records" -> records = Long.parseLong(args[++i]);
                case "--connections" -> connections = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--wal" -> wal = args[++i];
                case "--writer-threads" -> writers = Integer.parseInt(args[++i]);
                case "--memory" -> memory = args[++i];
                case "--keep" -> keep = true;
                case "--warmup" -> warmup = Long.parseLong(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--io-threads" -> ioThreads = args[++i]; // the descriptor's io-threads (default: its default)
                default -> {
                    System.err.println("usage: bench-feed [--records N] [--connections C] [--dir D] "
                            + "[--wal sync|async|off] [--writer-threads W] [--memory SIZE] [--warmup N] [--rounds R] [--io-threads T] [--keep]");
                    System.exit(2);
                }
            }
        }
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    System.err.println("bench-feed: " + dir + " is not empty");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(dir);
        System.out.printf("bench-feed: records=%d (1 KB: %d fields x %d bytes, hex), connections=%d, wal=%s,"
                + " writer-threads=%d, memory=%s, 2 iodevices, dir=%s, cores=%d%n", records, FIELDS, FIELD_BYTES,
                connections, wal, writers, memory, dir.toAbsolutePath(), Runtime.getRuntime().availableProcessors());
        checkEncoding();
        try {
            if (warmup > 0) { // both paths JIT-compiled before either is timed
                System.out.printf("warm-up: %d records each way%n", warmup);
                embedded(DescriptorParser.parse(descriptor(dir, "warmup-embedded", wal, writers, memory), true), warmup);
                feed(DescriptorParser.parse(descriptor(dir, "warmup-feed", wal, writers, memory), true), dir, warmup,
                        connections);
            }
            List<Double> ratios = new ArrayList<>();
            for (int r = 1; r <= rounds; r++) { // alternating, so drift on a shared machine hits both paths
                double embedded = embedded(DescriptorParser.parse(
                        descriptor(dir, "embedded-" + r, wal, writers, memory), true), records);
                System.out.printf("round %d embedded load: %,.0f records/s%n", r, embedded);
                double feed = feed(DescriptorParser.parse(descriptor(dir, "feed-" + r, wal, writers, memory), true), dir,
                        records, connections);
                System.out.printf("round %d socket feed:   %,.0f records/s, ratio %.2f%n", r, feed, feed / embedded);
                ratios.add(feed / embedded);
                if (!keep) {
                    delete(dir.resolve("embedded-" + r));
                    delete(dir.resolve("feed-" + r));
                }
            }
            List<Double> sorted = ratios.stream().sorted().toList();
            System.out.printf("ratio feed/embedded: median %.2f, range %.2f-%.2f over %d rounds (goal >= 0.80)%n",
                    sorted.get(sorted.size() / 2), sorted.get(0), sorted.get(sorted.size() - 1), rounds);
        } finally {
            if (!keep) {
                delete(dir);
            }
        }
    }

    private static String ioThreads;

    private static Path descriptor(Path dir, String name, String wal, int writers, String memory)
            throws IOException {
        Path root = dir.toAbsolutePath().resolve(name);
        String text = "[nc/nc1]\n"
                + "iodevices = " + root.resolve("io0") + ", " + root.resolve("io1") + "\n"
                + "[nc]\n"
                + "storage.memorycomponent.globalbudget = " + memory + "\n"
                + "storage.buffercache.size = 128MB\n"
                + "storage.wal.mode = " + wal + "\n"
                + "[http]\n"
                + "port = 0\n"
                + "[dataset/usertable]\n"
                + "primary-key = YCSB_KEY\n"
                + "merge-policy = {\"name\": \"prefix\", \"parameters\": {\"max-mergable-component-size\": 1073741824,"
                + " \"max-tolerance-component-count\": 5}}\n"
                + "[feed/ycsb]\n"
                + "dataset = usertable\n"
                + "format = adm\n"
                + "addresses = 127.0.0.1:0\n"
                + "writer-threads = " + writers + "\n"
                + (ioThreads == null ? "" : "io-threads = " + ioThreads + "\n");
        Files.createDirectories(root);
        return Files.writeString(dir.resolve(name + ".conf"), text, StandardCharsets.UTF_8);
    }

    /** The 100 bytes of field {@code f} of record {@code i} (xorshift, cheap and deterministic). */
    private static void fill(long i, int f, byte[] out) {
        long x = (i * 0x9E3779B97F4A7C15L) ^ (f + 1) * 0xBF58476D1CE4E5B9L;
        for (int b = 0; b < out.length; b++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            out[b] = (byte) x;
        }
    }

    static AdmValue.Obj record(long i) {
        Map<String, AdmValue> fields = new LinkedHashMap<>();
        fields.put("YCSB_KEY", new AdmValue.Str("user" + i));
        for (int f = 0; f < FIELDS; f++) {
            byte[] bytes = new byte[FIELD_BYTES];
            fill(i, f, bytes);
            fields.put("field" + f, new AdmValue.Binary(bytes));
        }
        return new AdmValue.Obj(fields);
    }

    static void appendAdm(long i, StringBuilder b, byte[] scratch) {
        AsciiBuffer out = new AsciiBuffer(2 * FIELDS * FIELD_BYTES + 256);
        appendAdm(i, out, scratch);
        b.append(new String(out.bytes, 0, out.length, StandardCharsets.US_ASCII));
    }

    /**
     * Appends record {@code i}'s ADM text as the YCSB client sends it, written byte by byte into an ASCII buffer
     * (the client shares the CPU with the server here, so it must be cheap).
     */
    static void appendAdm(long i, AsciiBuffer b, byte[] scratch) {
        b.ascii("{\"YCSB_KEY\":\"user").ascii(Long.toString(i)).put('"');
        for (int f = 0; f < FIELDS; f++) {
            fill(i, f, scratch);
            b.ascii(",\"field").ascii(Integer.toString(f)).ascii("\":hex(\"");
            for (byte x : scratch) {
                b.put(HEX[(x >> 4) & 15]).put(HEX[x & 15]);
            }
            b.ascii("\")");
        }
        b.put('}');
    }

    /** A growable byte buffer of ASCII text. Not thread-safe. */
    static final class AsciiBuffer {
        byte[] bytes;
        int length;

        AsciiBuffer(int capacity) {
            bytes = new byte[capacity];
        }

        AsciiBuffer put(char c) {
            if (length == bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2);
            }
            bytes[length++] = (byte) c;
            return this;
        }

        AsciiBuffer ascii(String s) {
            for (int k = 0; k < s.length(); k++) {
                put(s.charAt(k));
            }
            return this;
        }
    }

    /** The embedded load stores exactly what the feed stores for the same text. */
    private static void checkEncoding() throws Exception {
        KeyEncoder keys = new KeyEncoder(List.of("YCSB_KEY"));
        StringBuilder b = new StringBuilder();
        appendAdm(12345, b, new byte[FIELD_BYTES]);
        AdmValue.Obj parsed = RecordFormat.ADM.parse(b.toString());
        AdmValue.Obj built = record(12345);
        if (!Arrays.equals(keys.encode(parsed), keys.encode(built))
                || !Arrays.equals(ValueCodec.encode(parsed), ValueCodec.encode(built))) {
            throw new IllegalStateException("embedded and feed records differ");
        }
    }

    private static List<LsmStore> openStores(NodeDescriptor d) throws IOException {
        DatasetSpec spec = d.datasets().get(0);
        List<LsmStore> stores = new ArrayList<>();
        for (Path device : d.iodevices()) {
            stores.add(LsmStore.open(device.resolve(spec.name()),
                    d.storage().storeOptions(1, d.iodevices().size(), spec.newPolicy(), spec.mergeOrder())));
        }
        return stores;
    }

    private static double embedded(NodeDescriptor d, long records) throws IOException {
        List<LsmStore> stores = openStores(d);
        try {
            Dataset dataset = Dataset.partitioned("usertable", stores, "YCSB_KEY");
            KeyEncoder keys = new KeyEncoder(List.of("YCSB_KEY"));
            long start = System.nanoTime();
            long cpu = processCpuNanos();
            for (long i = 0; i < records; i++) {
                AdmValue.Obj r = record(i);
                byte[] key = keys.encode(r);
                dataset.storeFor(key).put(key, ValueCodec.encode(r));
            }
            long nanos = System.nanoTime() - start;
            cpuPerRecord(processCpuNanos() - cpu, records);
            return records * 1e9 / nanos;
        } finally {
            for (LsmStore s : stores) {
                s.close();
            }
        }
    }

    /**
     * Writes each connection's share of the stream to a file before the clock starts, so that sending it
     * ({@code transferTo}, done by the kernel) costs the client almost no CPU: on 2 cores a client that formats
     * records while the server parses them would measure the client.
     */
    private static List<Path> streams(Path dir, long records, int connections) throws IOException {
        List<Path> files = new ArrayList<>();
        byte[] scratch = new byte[FIELD_BYTES];
        for (int c = 0; c < connections; c++) {
            Path file = dir.resolve("stream-" + c + ".adm");
            try (OutputStream out = Files.newOutputStream(file)) {
                AsciiBuffer b = new AsciiBuffer(1 << 17);
                for (long i = records * c / connections, to = records * (c + 1) / connections; i < to; i++) {
                    appendAdm(i, b, scratch);
                    if (b.length >= 1 << 16) {
                        out.write(b.bytes, 0, b.length);
                        b.length = 0;
                    }
                }
                out.write(b.bytes, 0, b.length);
            }
            files.add(file);
        }
        return files;
    }

    private static double feed(NodeDescriptor d, Path dir, long records, int connections) throws Exception {
        List<Path> streams = streams(dir, records, connections);
        try (NodeServer server = NodeServer.start(d)) {
            InetSocketAddress address = server.feedAddresses("ycsb").get(0);
            List<Thread> clients = new ArrayList<>();
            long start = System.nanoTime();
            long cpu = processCpuNanos();
            for (Path stream : streams) {
                Thread t = new Thread(() -> {
                    try (SocketChannel socket = SocketChannel.open(address);
                         FileChannel in = FileChannel.open(stream, StandardOpenOption.READ)) {
                        for (long at = 0, size = in.size(); at < size; ) {
                            at += in.transferTo(at, size - at, socket);
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }, "bench-client-" + clients.size());
                t.start();
                clients.add(t);
            }
            while (server.feed("ycsb").stats().records() + server.feed("ycsb").stats().errorCount() < records) {
                Thread.sleep(2);
            }
            long nanos = System.nanoTime() - start;
            cpuPerRecord(processCpuNanos() - cpu, records);
            for (Thread t : clients) {
                t.join();
            }
            if (server.feed("ycsb").stats().errorCount() != 0) {
                throw new IllegalStateException("feed errors: " + server.feed("ycsb").stats());
            }
            long count = 0;
            for (LsmStore s : server.dataset("usertable").stores()) {
                try (StoreIterator it = s.scan(null, null)) {
                    while (it.hasNext()) {
                        it.next();
                        count++;
                    }
                }
            }
            if (count != records) {
                throw new IllegalStateException("the stores hold " + count + " records, expected " + records);
            }
            return records * 1e9 / nanos;
        } finally {
            for (Path stream : streams) {
                Files.deleteIfExists(stream);
            }
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Prints the process CPU time per record of the phase just timed (both cores count). */
    private static void cpuPerRecord(long cpuNanos, long records) {
        System.out.printf("  CPU: %.1f s, %.1f µs per record%n", cpuNanos / 1e9, cpuNanos / 1e3 / records);
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
