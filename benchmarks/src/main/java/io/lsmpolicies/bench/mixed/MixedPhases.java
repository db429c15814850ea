package io.lsmpolicies.bench.mixed;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.io.IoStats;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.sim.leveled.ZipfianGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code bin/bench-mixed}: a YCSB-shaped run whose mix changes, on the engine, once per policy, in one process:
 * <ol>
 *   <li>load: {@code --records} inserts of YCSB's 1 KB records (keys {@code user<fnv hash>}, {@link YcsbKeys},
 *       hashed order), nothing read;</li>
 *   <li>workload C: {@code --reads} point reads, YCSB's scrambled Zipfian over the loaded records (theta 0.99),
 *       nothing written;</li>
 *   <li>second load: {@code --records} more inserts of new records, nothing read.</li>
 * </ol>
 * Each phase ends when its merges have settled. Per policy it reports the file-layer bytes written and read, the
 * gets' probes (the model's: SSTables a read may probe, sampled; and the SSTables whose pages a get really read),
 * the cost model's total (bytes written + model probes x {@code --read-cost}) and wall time per phase. By default
 * the operations are YCSB's core workloads' (keys, record size, Zipfian reads) driven on the engine's API, so that
 * one process runs every policy on identical operations and samples the SSTables a read may probe; with
 * {@code --ycsb} YCSB's own client runs them against our binding, one child JVM a phase ({@link YcsbPhases}), and the
 * report has the measured total (I/O bytes and real probes) without the model's probes.
 */
@Command(name = "bench-mixed", mixinStandardHelpOptions = true, usageHelpWidth = 110,
        description = "Load, then YCSB workload C, then a second load, for adaptive and every static policy of the"
                + " list, in one run (docs/benchmarks.md, \"A mix that changes\").")
public final class MixedPhases implements Callable<Integer> {
    /** adaptive and the static policies of bin/bench-policies' quick grid at k = 4, B = 4, plus prefix and no-merge. */
    static final List<String> DEFAULT_POLICIES = List.of("adaptive", "binomial:k=4", "minlatency:k=4",
            "bigtable:k=4", "exploring:k=4", "constant:k=4", "tiered:size-ratio=4", "prefix", "no-merge",
            "leveled:size-ratio=4");

    @Option(names = "--dir", description = "scratch directory (default: a temporary one, deleted after)")
    Path dir;
    @Option(names = "--records", defaultValue = "20000", description = "records per load (default ${DEFAULT-VALUE})")
    long records;
    @Option(names = "--reads", defaultValue = "50000", description = "workload C's reads (default ${DEFAULT-VALUE})")
    long reads;
    @Option(names = "--value-size", defaultValue = "1000", description = "value bytes (default ${DEFAULT-VALUE})")
    int valueSize;
    @Option(names = "--memtable-bytes", defaultValue = "262144",
            description = "MemTable budget (default ${DEFAULT-VALUE}, bin/bench-policies' 256 KB)")
    long memtableBytes;
    @Option(names = "--read-cost", defaultValue = "4096", description = "bytes a model probe costs (default"
            + " ${DEFAULT-VALUE})")
    long readCost;
    @Option(names = "--policy", description = "policies to run (repeatable; default: adaptive and the static grid)")
    List<String> policies = new ArrayList<>();
    @Option(names = "--seed", defaultValue = "42")
    long seed;
    @Option(names = "--ycsb", description = "run the phases with YCSB's client (site.ycsb.Client) against our binding,"
            + " one child JVM a phase, instead of on the engine's API")
    boolean ycsb;
    @Option(names = "--root", defaultValue = ".", description = "with --ycsb: the repository (workloads/, the"
            + " binding's target/; default: the working directory)")
    Path repository;
    @Option(names = "--phase-timeout", defaultValue = "900", description = "with --ycsb: seconds one phase may take"
            + " (default ${DEFAULT-VALUE})")
    long phaseTimeout;
    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new MixedPhases()).execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (records < 1 || reads < 0 || valueSize < 1 || readCost < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--records, --value-size must be >= 1; --reads, --read-cost >= 0");
        }
        List<String> list = policies.isEmpty() ? DEFAULT_POLICIES : policies;
        PrintWriter out = spec.commandLine().getOut();
        Path root = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("bench-mixed");
        List<PhaseRun> runs = new ArrayList<>();
        try {
            YcsbPhases viaYcsb = ycsb ? new YcsbPhases(repository.toAbsolutePath().normalize(), records, reads, memtableBytes,
                    readCost, phaseTimeout) : null;
            for (String p : list) {
                Path storeDir = root.resolve(p.replaceAll("[^A-Za-z0-9=.-]", "_"));
                PhaseRun r = viaYcsb != null ? viaYcsb.run(storeDir, p, scaled(p)) : run(storeDir, p);
                runs.add(r);
                out.println(String.format(Locale.ROOT, "%s: %.1f s", p, r.seconds()));
                out.flush();
            }
        } finally {
            if (dir == null) {
                deleteTree(root);
            }
        }
        out.print(table(runs, records, reads, memtableBytes));
        out.flush();
        return 0;
    }

    /** Runs the three phases with {@code policy} in a fresh store under {@code storeDir}. */
    PhaseRun run(Path storeDir, String policy) throws IOException {
        deleteTree(storeDir);
        StoreOptions options = StoreOptions.builder().policy(scaled(policy)).memtableBytes(memtableBytes)
                .walMode(SyncMode.OFF).build();
        byte[] value = new byte[valueSize];
        new SplittableRandom(seed).nextBytes(value);
        long[] nanos = new long[3];
        long modelProbes = 0;
        try (LsmStore store = LsmStore.open(storeDir, options)) {
            long start = System.nanoTime();
            for (long i = 0; i < records; i++) {
                store.put(YcsbKeys.key(i, YcsbKeys.KeyOrder.HASHED), value);
            }
            settle(store);
            nanos[0] = System.nanoTime() - start;

            start = System.nanoTime();
            ZipfianGenerator zipf = new ZipfianGenerator(ZipfianGenerator.YCSB_THETA);
            SplittableRandom random = new SplittableRandom(seed + 1);
            int components = store.sample().components();
            for (long i = 0; i < reads; i++) {
                if ((i & 15) == 0) {
                    components = store.sample().components();
                }
                long record = Math.floorMod(YcsbKeys.fnvhash64(zipf.next(random, records)), records);
                if (store.get(YcsbKeys.key(record, YcsbKeys.KeyOrder.HASHED)) == null) {
                    throw new IllegalStateException(policy + ": record " + record + " is missing");
                }
                modelProbes += components;
            }
            settle(store);
            nanos[1] = System.nanoTime() - start;

            start = System.nanoTime();
            for (long i = records; i < 2 * records; i++) {
                store.put(YcsbKeys.key(i, YcsbKeys.KeyOrder.HASHED), value);
            }
            settle(store);
            nanos[2] = System.nanoTime() - start;

            IoStats io = store.ioStats();
            long written = io.bytesWritten(IoCause.FLUSH) + io.bytesWritten(IoCause.MERGE);
            long read = io.bytesRead(IoCause.MERGE) + io.bytesRead(IoCause.READ);
            var m = store.metrics();
            long probed = Math.round(m.reads().tablesProbedPerGet() * m.reads().gets());
            return new PhaseRun(policy, nanos, m.flushes().count(), written, read, m.reads().gets(), modelProbes,
                    probed, readCost);
        }
    }

    /** Our leveled policy scaled to small MemTables as bin/bench-policies scales it; others unchanged. */
    String scaled(String policy) {
        if (policy.startsWith("leveled") && !policy.contains("base-level-bytes")) {
            String sep = policy.contains(":") ? "," : ":";
            return policy + sep + "l0-trigger=2,base-level-bytes=" + 2 * memtableBytes + ",target-file-bytes="
                    + memtableBytes;
        }
        return policy;
    }

    private static void settle(LsmStore store) throws IOException {
        store.flush();
        store.awaitMerges();
    }

    /** The report: one row per policy, cheapest model cost first, and each one's ratio to adaptive's. */
    static String table(List<PhaseRun> runs, long records, long reads, long memtable) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%-24s %8s %14s %14s %12s %12s %14s %7s %14s %7s %8s %8s %8s %8s%n",
                "policy", "flushes", "written", "read", "model probes", "probed", "model cost", "/adapt",
                "I/O+probed", "/adapt", "load s", "C s", "load2 s", "total s"));
        s.append("-".repeat(176)).append('\n');
        PhaseRun adaptive = runs.stream().filter(r -> r.policy().startsWith("adaptive")).findFirst().orElse(null);
        boolean model = runs.stream().allMatch(r -> r.modelProbes() >= 0);
        List<PhaseRun> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingLong(model ? PhaseRun::modelCost : PhaseRun::measuredCost));
        for (PhaseRun r : sorted) {
            s.append(String.format(Locale.ROOT, "%-24s %8d %14d %14d %12s %12d %14s %7s %14d %7s %8.2f %8.2f %8.2f"
                            + " %8.2f%n", r.policy(), r.flushes(), r.writtenBytes(), r.readBytes(),
                    model ? Long.toString(r.modelProbes()) : "-", r.tablesProbed(),
                    model ? Long.toString(r.modelCost()) : "-",
                    model ? ratio(r.modelCost(), adaptive == null ? 0 : adaptive.modelCost()) : "-",
                    r.measuredCost(), ratio(r.measuredCost(), adaptive == null ? 0 : adaptive.measuredCost()),
                    r.phaseNanos()[0] / 1e9, r.phaseNanos()[1] / 1e9, r.phaseNanos()[2] / 1e9, r.seconds()));
        }
        if (!model) {
            s.append("\nrun by YCSB's client (site.ycsb.Client) against io.lsmpolicies.ycsb.EmbeddedLsmDB, one JVM a"
                    + " phase; model probes are not sampled there (-); phase times include the JVM's start");
        }
        s.append(String.format(Locale.ROOT, "%nload %d records, workload C %d Zipfian reads, load %d more; MemTable %d"
                + " bytes, WAL off. written/read = SSTable bytes at the file layer (flushes, merges, gets); model"
                + " probes = SSTables a read may probe, summed over gets; probed = SSTables a get really read (Bloom"
                + " filter passed); model cost = written + model probes x %d; I/O+probed = written + read + probed x"
                + " %d; /adapt = ratio to adaptive's%n", records, reads, records, memtable,
                runs.isEmpty() ? 0 : runs.get(0).readCostBytes(), runs.isEmpty() ? 0 : runs.get(0).readCostBytes()));
        return s.toString();
    }

    private static String ratio(long value, long reference) {
        return reference <= 0 ? "-" : String.format(Locale.ROOT, "%.3f", (double) value / reference);
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
