package io.lsmpolicies.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreMetrics;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.lsm.memtable.MemTable;
import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The engine's performance report (docs/performance.md): in one run, on one disk,
 * <ol>
 *   <li>the disk's sequential write bandwidth, measured with {@code dd ... conv=fdatasync};</li>
 *   <li>the merge write rate alone: {@code compactAll} of the loaded store, output bytes over its time;</li>
 *   <li>a load of {@code --records} YCSB-keyed records (hashed order), with the ingest rate, the merge write
 *       rate (merge output bytes / time spent merging) and the measured write amplification, set against the
 *       {@code dd} bound divided by (1 + write amplification);</li>
 *   <li>point-read latency (each get timed with HdrHistogram) on the loaded store, with a cold block cache
 *       (disabled: every page read from the file, the OS page cache left as it is) and a warm one (a second
 *       pass over the same keys through a cache larger than the store's index and hot leaves);</li>
 *   <li>heap bytes per MemTable byte (as the MemTable accounts them), from the heap used after GC.</li>
 * </ol>
 * With {@code --heap-check}, instead: a long load that samples the heap used after GC every
 * {@code --sample-every} records, to show that it does not grow (run it with {@code -Xmx1g}).
 */
@Command(name = "bench-engine", mixinStandardHelpOptions = true,
        description = "Measures the engine against the disk's own bandwidth (see docs/performance.md).")
public final class EngineReport implements Callable<Integer> {
    @Option(names = "--dir", description = "Scratch directory on the disk to measure (default: a temp dir)")
    Path dir;

    @Option(names = "--records", defaultValue = "1000000")
    long records;

    @Option(names = "--value-size", defaultValue = "1000")
    int valueSize;

    @Option(names = "--policy", defaultValue = "binomial:k=6")
    String policy;

    @Option(names = "--wal", defaultValue = "ASYNC", description = "SYNC, ASYNC or OFF")
    SyncMode wal;

    @Option(names = "--gets", defaultValue = "200000", description = "Point reads per pass")
    int gets;

    @Option(names = "--dd-mb", defaultValue = "1024", description = "MiB dd writes")
    int ddMegabytes;

    @Option(names = "--heap-check", description = "Run the heap-growth load instead of the report")
    boolean heapCheck;

    @Option(names = "--sample-every", defaultValue = "1000000")
    long sampleEvery;

    @Option(names = "--out", description = "Also write the JSON report to this file")
    Path out;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public static void main(String[] args) {
        System.exit(new CommandLine(new EngineReport()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path scratch = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("lsm-bench");
        Path storeDir = scratch.resolve("store");
        BenchFiles.deleteTree(storeDir);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("records", records);
        report.put("valueSize", valueSize);
        report.put("policy", policy);
        report.put("wal", wal.name());
        report.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        if (heapCheck) {
            report.put("heap", heapCheck(storeDir));
        } else {
            double ddBytesPerSecond = dd(scratch.resolve("dd.tmp"));
            report.put("ddBytesPerSecond", ddBytesPerSecond);
            Map<String, Object> load = load(storeDir, ddBytesPerSecond);
            report.put("load", load);
            report.put("getsCold", gets(storeDir, 0, 1));
            report.put("getsWarm", gets(storeDir, 4L << 30, 2));
            report.put("compactAll", compactAll(storeDir, ddBytesPerSecond));
            report.put("heapPerMemTableByte", heapPerMemTableByte());
        }
        BenchFiles.deleteTree(storeDir);
        String text = JSON.writeValueAsString(report);
        System.out.println(text);
        if (out != null) {
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, text);
        }
        return 0;
    }

    /** Sequential write bandwidth of {@code file}'s disk: dd of {@code --dd-mb} MiB with a final fdatasync. */
    private double dd(Path file) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("dd", "if=/dev/zero", "of=" + file, "bs=1M", "count=" + ddMegabytes,
                "conv=fdatasync").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int rc = p.waitFor();
        Files.deleteIfExists(file);
        Matcher m = Pattern.compile("(\\d+) bytes .*copied, ([0-9.,]+) s").matcher(output);
        if (rc != 0 || !m.find()) {
            throw new IOException("dd failed (exit " + rc + "): " + output);
        }
        return Long.parseLong(m.group(1)) / Double.parseDouble(m.group(2).replace(',', '.'));
    }

    private StoreOptions options(long cacheBytes) {
        return StoreOptions.builder().policy(policy).walMode(wal).blockCacheBytes(cacheBytes).build();
    }

    private Map<String, Object> load(Path storeDir, double ddBytesPerSecond) throws IOException {
        SplittableRandom random = new SplittableRandom(42);
        byte[] value = new byte[valueSize];
        long start = System.nanoTime();
        long ingested;
        StoreMetrics m;
        try (LsmStore store = LsmStore.open(storeDir, options(32L << 20))) {
            for (long i = 0; i < records; i++) {
                random.nextBytes(value);
                store.put(key(i), value.clone());
            }
            ingested = System.nanoTime() - start;
            store.flush();
            store.awaitMerges();
            m = store.metrics();
        }
        long total = System.nanoTime() - start;
        double userBytes = m.writes().userBytes();
        double mergeSeconds = m.merges().latency().mean() * m.merges().latency().count() / 1e6;
        double wa = m.amplification().deviceWrite();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("ingestSeconds", ingested / 1e9);
        r.put("totalSeconds", total / 1e9);
        r.put("recordsPerSecond", records / (total / 1e9));
        r.put("userBytesPerSecond", userBytes / (total / 1e9));
        r.put("deviceWriteAmplification", wa);
        r.put("boundUserBytesPerSecond", ddBytesPerSecond / (1 + wa));
        r.put("mergeOutputBytes", m.merges().outputBytes());
        r.put("mergeSeconds", mergeSeconds);
        r.put("mergeWriteBytesPerSecond", mergeSeconds == 0 ? 0 : m.merges().outputBytes() / mergeSeconds);
        r.put("mergeRateOverDd", mergeSeconds == 0 ? 0 : m.merges().outputBytes() / mergeSeconds / ddBytesPerSecond);
        r.put("metrics", JSON.readTree(m.toJson()));
        return r;
    }

    /**
     * The merge write rate with nothing else running: every SSTable of the loaded store merged into one
     * ({@code compactAll}), output bytes over its duration (including the final fsync).
     */
    private Map<String, Object> compactAll(Path storeDir, double ddBytesPerSecond) throws IOException {
        try (LsmStore store = LsmStore.open(storeDir, options(32L << 20))) {
            long before = store.metrics().merges().outputBytes();
            int tables = store.components().tableCount();
            long start = System.nanoTime();
            store.compactAll();
            double seconds = (System.nanoTime() - start) / 1e9;
            long written = store.metrics().merges().outputBytes() - before;
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("inputTables", tables);
            r.put("outputBytes", written);
            r.put("seconds", seconds);
            r.put("writeBytesPerSecond", written / seconds);
            r.put("rateOverDd", written / seconds / ddBytesPerSecond);
            return r;
        }
    }

    private Map<String, Object> gets(Path storeDir, long cacheBytes, int passes) throws IOException {
        Histogram h = new Histogram(3);
        long found = 0;
        try (LsmStore store = LsmStore.open(storeDir, options(cacheBytes))) {
            for (int pass = 0; pass < passes; pass++) {
                SplittableRandom random = new SplittableRandom(7);
                h.reset();
                for (int i = 0; i < gets; i++) {
                    byte[] k = key(random.nextLong(records));
                    long t = System.nanoTime();
                    byte[] v = store.get(k);
                    h.recordValue(System.nanoTime() - t);
                    found += v == null ? 0 : 1;
                }
            }
            if (found != (long) gets * passes) {
                throw new IllegalStateException("only " + found + " of " + (long) gets * passes + " gets found");
            }
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("blockCacheBytes", cacheBytes);
            r.put("p50Micros", h.getValueAtPercentile(50) / 1e3);
            r.put("p99Micros", h.getValueAtPercentile(99) / 1e3);
            r.put("maxMicros", h.getMaxValue() / 1e3);
            r.put("tablesProbedPerGet", store.metrics().reads().tablesProbedPerGet());
            r.put("components", store.metrics().tables().components());
            return r;
        }
    }

    /** Heap used after GC, filled MemTable minus empty, over the bytes the MemTable accounts. */
    private Map<String, Object> heapPerMemTableByte() {
        Map<String, Object> r = new LinkedHashMap<>();
        for (int size : new int[] {100, valueSize}) {
            long before = usedHeapAfterGc();
            MemTable table = new MemTable(64L << 20);
            SplittableRandom random = new SplittableRandom(1);
            for (long i = 0; table.bytes() < (64L << 20); i++) {
                byte[] v = new byte[size];
                random.nextBytes(v);
                table.add(Entry.put(key(i), i + 1, v));
            }
            long after = usedHeapAfterGc();
            r.put("value" + size, (double) (after - before) / table.bytes());
            if (table.size() < 0) {
                throw new AssertionError(); // keeps the table reachable until measured
            }
        }
        return r;
    }

    private List<Map<String, Object>> heapCheck(Path storeDir) throws IOException {
        List<Map<String, Object>> samples = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(42);
        byte[] value = new byte[valueSize];
        long start = System.nanoTime();
        try (LsmStore store = LsmStore.open(storeDir, options(32L << 20))) {
            for (long i = 0; i < records; i++) {
                random.nextBytes(value);
                store.put(key(i), value.clone());
                if ((i + 1) % sampleEvery == 0) {
                    Map<String, Object> s = new LinkedHashMap<>();
                    s.put("records", i + 1);
                    s.put("seconds", (System.nanoTime() - start) / 1e9);
                    s.put("usedHeapAfterGc", usedHeapAfterGc());
                    s.put("tables", store.metrics().tables().live());
                    samples.add(s);
                    System.err.printf(Locale.ROOT, "%d records, heap %d MiB%n", i + 1,
                            ((long) s.get("usedHeapAfterGc")) >> 20);
                }
            }
        }
        return samples;
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** YCSB's key for record {@code i} in hashed order: {@code user} + FNV-64 hash ({@link YcsbKeys}). */
    private static byte[] key(long i) {
        return YcsbKeys.key(i, YcsbKeys.KeyOrder.HASHED);
    }
}
