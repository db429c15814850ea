package io.lsmpolicies.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreMetrics;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.lsm.io.DeviceProfile;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.io.IoStats;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Delayed compaction against the leveled policy it wraps (Pan et al., JCST 2017, section 4): the same
 * store settings and the same operations, one policy after the other (alternating over rounds), each on a fresh
 * directory of the same disk.
 * <ol>
 *   <li>a write-heavy load: {@code --records} puts of YCSB keys in hashed order with {@code --value-size}-byte
 *       random values; write throughput is records over the time until the last put returned (merges run in the
 *       background, as a client sees it), and the compaction bytes read and written are counted at the file
 *       layer once the merges have settled;</li>
 *   <li>a read-heavy run on the loaded store: {@code --operations} operations, {@code --read-fraction} of them
 *       gets of uniformly chosen loaded keys (each timed, HdrHistogram) and the rest updates; materialisations
 *       triggered by reads (VSMT) count as compaction I/O of this phase.</li>
 * </ol>
 * Prints a table and the ratios delayed / leveled; {@code --out} also writes JSON.
 */
@Command(name = "bench-delayed", mixinStandardHelpOptions = true,
        description = "Delayed compaction vs the leveled policy it wraps (see docs/delayed.md).")
public final class DelayedBenchmark implements Callable<Integer> {
    @Option(names = "--dir", description = "Scratch directory (default: a temp dir); deleted afterwards")
    Path dir;

    @Option(names = "--records", defaultValue = "400000")
    long records;

    @Option(names = "--value-size", defaultValue = "1000")
    int valueSize;

    @Option(names = "--operations", defaultValue = "200000", description = "Operations of the read-heavy run")
    long operations;

    @Option(names = "--read-fraction", defaultValue = "0.95")
    double readFraction;

    @Option(names = "--leveled", description = "The wrapped leveled policy's parameters",
            defaultValue = "size-ratio=10,l0-trigger=4,base-level-bytes=16777216,target-file-bytes=2097152")
    String leveled;

    @Option(names = "--vct", defaultValue = "12")
    int vct;

    @Option(names = "--vsmt", defaultValue = "5")
    int vsmt;

    @Option(names = "--wal", defaultValue = "ASYNC", description = "SYNC, ASYNC or OFF")
    SyncMode wal;

    @Option(names = "--device", defaultValue = "none", description = "Emulated device: ssd, hdd or none")
    String device;

    @Option(names = "--rounds", defaultValue = "1", description = "Runs of each policy, alternating")
    int rounds;

    @Option(names = "--out", description = "Also write the results as JSON to this file")
    Path out;

    /** One policy's run. */
    record Run(String policy, long records, double loadSeconds, double writesPerSecond, double settleSeconds,
            long loadMergeBytesRead, long loadMergeBytesWritten, long loadFlushBytesWritten, long virtualMerges,
            int virtualTablesAfterLoad, double writeAmplification, long gets, double getP50Micros,
            double getP99Micros, double tablesProbedPerGet, long readPhaseMergeBytesRead,
            long readPhaseMergeBytesWritten, int virtualTablesAfterReads) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new DelayedBenchmark()).setCaseInsensitiveEnumValuesAllowed(true)
                .execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path root = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("bench-delayed");
        List<String> policies = List.of("leveled:" + leveled,
                "delayed:vct=" + vct + ",vsmt=" + vsmt + "," + leveled);
        System.out.printf("bench-delayed: records=%,d x %d B, read-heavy run %,d ops (%.0f%% gets), wal=%s,"
                + " device=%s, dir=%s%n", records, valueSize, operations, readFraction * 100, wal, device, root);
        List<Run> runs = new ArrayList<>();
        try {
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < policies.size(); i++) {
                    String policy = policies.get((i + r) % policies.size());
                    Run run = run(policy, root.resolve("r" + r + "-" + policy.substring(0, policy.indexOf(':'))));
                    runs.add(run);
                    print(run);
                }
            }
        } finally {
            if (dir == null) {
                BenchFiles.deleteTree(root);
            }
        }
        summarize(runs);
        if (out != null) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("records", records);
            json.put("valueSize", valueSize);
            json.put("operations", operations);
            json.put("readFraction", readFraction);
            json.put("device", device);
            json.put("runs", runs);
            Files.createDirectories(out.toAbsolutePath().getParent());
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), json);
        }
        return 0;
    }

    private Run run(String policy, Path store) throws IOException {
        StoreOptions options = StoreOptions.builder().policy(policy).walMode(wal)
                .device(DeviceProfile.named(device)).build();
        SplittableRandom random = new SplittableRandom(7);
        byte[] value = new byte[valueSize];
        try (LsmStore lsm = LsmStore.open(store, options)) {
            long start = System.nanoTime();
            for (long i = 0; i < records; i++) {
                random.nextBytes(value);
                lsm.put(YcsbKeys.key(i, YcsbKeys.KeyOrder.HASHED), value);
            }
            double loadSeconds = (System.nanoTime() - start) / 1e9;
            lsm.flush();
            lsm.awaitMerges();
            double settleSeconds = (System.nanoTime() - start) / 1e9;
            IoStats io = lsm.ioStats();
            long mergeRead = io.bytesRead(IoCause.MERGE);
            long mergeWritten = io.bytesWritten(IoCause.MERGE);
            StoreMetrics afterLoad = lsm.metrics();

            Histogram latency = new Histogram(3);
            long gets = 0;
            long probedBefore = Math.round(afterLoad.reads().tablesProbedPerGet() * afterLoad.reads().gets());
            for (long op = 0; op < operations; op++) {
                byte[] key = YcsbKeys.key(random.nextLong(records), YcsbKeys.KeyOrder.HASHED);
                if (random.nextDouble() < readFraction) {
                    long t = System.nanoTime();
                    byte[] v = lsm.get(key);
                    latency.recordValue(Math.max(1, (System.nanoTime() - t) / 1000));
                    if (v == null) {
                        throw new IllegalStateException("a loaded key is missing under " + policy);
                    }
                    gets++;
                } else {
                    random.nextBytes(value);
                    lsm.put(key, value);
                }
            }
            lsm.awaitMerges();
            StoreMetrics end = lsm.metrics();
            long probed = Math.round(end.reads().tablesProbedPerGet() * end.reads().gets()) - probedBefore;
            return new Run(policy, records, loadSeconds, records / loadSeconds, settleSeconds, mergeRead,
                    mergeWritten, afterLoad.io().bytesWrittenByCause().get("flush"), afterLoad.merges().virtual(),
                    afterLoad.tables().virtual(), afterLoad.amplification().deviceWrite(), gets,
                    latency.getValueAtPercentile(50), latency.getValueAtPercentile(99),
                    gets == 0 ? 0 : (double) probed / gets, io.bytesRead(IoCause.MERGE) - mergeRead,
                    io.bytesWritten(IoCause.MERGE) - mergeWritten, end.tables().virtual());
        }
    }

    private static void print(Run r) {
        System.out.printf("%-10s load %6.1f s (%,9.0f writes/s, settled %6.1f s), compaction read %,6.0f MB written"
                + " %,6.0f MB, virtual merges %d, WA %.2f | gets p50 %,.0f us p99 %,.0f us, %.2f tables/get,"
                + " read-phase compaction %,.0f/%,.0f MB, virtual tables %d -> %d%n",
                r.policy().substring(0, r.policy().indexOf(':')), r.loadSeconds(), r.writesPerSecond(),
                r.settleSeconds(), r.loadMergeBytesRead() / 1e6, r.loadMergeBytesWritten() / 1e6, r.virtualMerges(),
                r.writeAmplification(), r.getP50Micros(), r.getP99Micros(), r.tablesProbedPerGet(),
                r.readPhaseMergeBytesRead() / 1e6, r.readPhaseMergeBytesWritten() / 1e6,
                r.virtualTablesAfterLoad(), r.virtualTablesAfterReads());
    }

    /** Medians over rounds of delayed / leveled. */
    private static void summarize(List<Run> runs) {
        List<Run> leveled = runs.stream().filter(r -> r.policy().startsWith("leveled")).toList();
        List<Run> delayed = runs.stream().filter(r -> r.policy().startsWith("delayed")).toList();
        System.out.println("delayed / leveled (median over rounds):");
        ratio("compaction bytes read+written (load)", leveled, delayed,
                r -> r.loadMergeBytesRead() + r.loadMergeBytesWritten());
        ratio("write throughput", leveled, delayed, Run::writesPerSecond);
        ratio("time until merges settled", leveled, delayed, Run::settleSeconds);
        ratio("get p50", leveled, delayed, Run::getP50Micros);
        ratio("get p99", leveled, delayed, Run::getP99Micros);
        ratio("tables probed per get", leveled, delayed, Run::tablesProbedPerGet);
    }

    private static void ratio(String what, List<Run> base, List<Run> other,
            ToDoubleFunction<Run> f) {
        System.out.printf("  %-40s %.2f%n", what, median(other, f) / median(base, f));
    }

    private static double median(List<Run> runs, ToDoubleFunction<Run> f) {
        double[] v = runs.stream().mapToDouble(f).sorted().toArray();
        return v.length == 0 ? Double.NaN : v[v.length / 2];
    }
}
