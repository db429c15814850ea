package io.lsmpolicies.bench.vsrocks;

import io.lsmpolicies.bench.BenchFiles;
import io.lsmpolicies.lsm.MergeOrder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code bin/bench-vs-rocksdb}: our store against RocksDB on the same records and settings (docs/performance.md,
 * "Side by side with RocksDB"). For each round, for each pairing, both systems run, every phase in a child JVM of
 * its own ({@link BenchChild}): for each client-thread count, each system's load into an empty directory, the two
 * one after the other in an order that alternates ({@link #loadOrder}); then, on the two stores the first loads
 * made, point reads and scans, {@code --read-repeats} times per system, the systems alternating and which goes
 * first alternating too, each after the loads' dirty pages are written out ({@code sync}) and the store's files are
 * read through once (page cache warm). The report sets
 * every measurement side by side with the ratio ours / RocksDB's per sample (median and range over the rounds and,
 * for reads, the repeats) and the write amplification beside the loads; it writes a JSON file and a plot of the
 * get latency percentiles.
 */
@Command(name = "bench-vs-rocksdb", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Our store against RocksDB, same records and settings, alternating rounds "
                + "(see docs/performance.md).")
public final class VsRocksDb implements Callable<Integer> {
    @Option(names = "--pairs", defaultValue = Pairing.DEFAULTS,
            description = "';'-separated OURS-POLICY/ROCKSDB-STYLE pairings (default: ${DEFAULT-VALUE})")
    String pairs;

    @Option(names = "--rounds", defaultValue = "2", description = "Rounds, each running ours then RocksDB")
    int rounds;

    @Option(names = "--records", defaultValue = "1000000")
    long records;

    @Option(names = "--value-size", defaultValue = "1000", description = "Bytes per value")
    int valueSize;

    @Option(names = "--threads", defaultValue = "1,4", split = ",",
            description = "Client thread counts of the loads (reads and scans use the first load's store)")
    List<Integer> threads;

    @Option(names = "--gets", defaultValue = "200000", description = "Timed point reads")
    int gets;

    @Option(names = "--scans", defaultValue = "50000", description = "Timed scans (1..100 records each)")
    int scans;

    @Option(names = "--load-warmup", defaultValue = "200000", description = "Records each load child first loads "
            + "into a store of its own, then deletes, before the timed load: the JIT's warm-up (default: "
            + "${DEFAULT-VALUE}; 0: a cold JVM)")
    long loadWarmup;

    @Option(names = "--read-repeats", defaultValue = "3", description = "Read phases (gets, then scans) per system "
            + "and round, on the round's loaded stores, the systems alternating (default: ${DEFAULT-VALUE})")
    int readRepeats;

    @Option(names = "--quick", description = "A smoke run: 100,000 records, 20,000 gets, 5,000 scans, 20,000 "
            + "warm-up records, 1 round")
    boolean quick;

    @Option(names = "--dir", description = "Where the stores go (default: a temporary directory under target/)")
    Path dir;

    @Option(names = "--out", defaultValue = "results/bench-vs-rocksdb/report.json", description = "The JSON report")
    Path out;

    @Option(names = "--plot", defaultValue = "results/bench-vs-rocksdb/latency.png",
            description = "The plot of get latency percentiles")
    Path plot;

    @Option(names = "--java-options", defaultValue = "-Xmx512m",
            description = "JVM options of every child, space-separated (default: ${DEFAULT-VALUE}, the same heap cap "
                    + "for both systems; give an empty string for the JVM's own default heap)")
    String javaOptions;

    @Option(names = "--subcompactions", defaultValue = "0", description = "Threads one compaction may be split "
            + "across, in both systems (ours: subcompactions, RocksDB: max_subcompactions); 0 (default) keeps each "
            + "system's default: ours 2, RocksDB's 1")
    int subcompactions;

    @Option(names = "--merge-order", description = "Our stack policies' merge order: MERGE_MEMTABLE_SMALL (the "
            + "store's default: a flush the policy merges at once is written only inside the merge while the merge is "
            + "small), MERGE_MEMTABLE (always: the cost model's write amplification) or FLUSH_THEN_MERGE (as "
            + "AsterixDB); leveled always flushes first")
    MergeOrder mergeOrder;

    @Option(names = "--page-bytes", defaultValue = "0", description = "Our page size: 0 (default) fits pages to "
            + "the entries (4 KiB for 1 KB records); otherwise every table's pages are this size (RocksDB's blocks "
            + "stay 4 KiB)")
    int pageBytes;

    @Option(names = "--scan-starts", defaultValue = "UNIFORM", description = "Where the scans start: UNIFORM "
            + "(default: a uniformly random record, the same ranges for both systems) or ZIPFIAN (as YCSB's workload E, "
            + "with YCSB's own generator)")
    ScanStarts scanStarts;

    /** The run's changes from the defaults, built from the options above when the run starts. */
    private Tuning tuning = Tuning.DEFAULTS;

    @Option(names = "--timeout", defaultValue = "3600", description = "Seconds a child may run")
    long timeoutSeconds;

    public static void main(String[] args) {
        System.exit(new CommandLine(new VsRocksDb()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (quick) {
            records = 100_000;
            gets = 20_000;
            scans = 5_000;
            loadWarmup = 20_000;
            rounds = 1;
        }
        List<Pairing> pairings = Pairing.parseList(pairs);
        try {
            tuning = new Tuning(subcompactions, mergeOrder, pageBytes);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--subcompactions or --page-bytes: "
                    + e.getMessage());
        }
        if (rounds < 1 || readRepeats < 1 || records < 1 || loadWarmup < 0 || valueSize < 0 || gets < 1 || scans < 1
                || threads.isEmpty()
                || threads.stream().anyMatch(t -> t < 1)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--rounds, --read-repeats, --records, "
                    + "--gets, --scans and every --threads must be at least 1, --value-size and --load-warmup at "
                    + "least 0");
        }
        boolean ownDir = dir == null;
        Path work = ownDir ? Files.createTempDirectory(Files.createDirectories(Path.of("target")), "bench-vs-rocksdb-")
                : Files.createDirectories(dir);
        List<PhaseResult> results = new ArrayList<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                for (int p = 0; p < pairings.size(); p++) {
                    results.addAll(runPairing(work, round, p, pairings.get(p)));
                }
            }
        } finally {
            if (ownDir) {
                BenchFiles.deleteTree(work);
            }
        }
        Report report = new Report(settings(pairings), results, Ratio.of(results));
        System.out.println(report.table());
        report.writeJson(out);
        LatencyPlot.write(results, plot);
        System.err.println("wrote " + out + " and " + plot);
        return 0;
    }

    private Map<String, Object> settings(List<Pairing> pairings) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("pairs", pairings.stream().map(Pairing::toString).toList());
        s.put("rounds", rounds);
        s.put("records", records);
        s.put("valueSize", valueSize);
        s.put("loadThreads", threads);
        s.put("gets", gets);
        s.put("scans", scans);
        s.put("readRepeats", readRepeats);
        s.put("scanStarts", scanStarts.name());
        s.put("loadWarmup", loadWarmup);
        s.put("memtableBytes", Side.MEMTABLE_BYTES);
        s.put("blockCacheBytes", Side.BLOCK_CACHE_BYTES);
        s.put("wal", "async");
        s.put("mergeOrder", mergeOrder == null ? "default (MERGE_MEMTABLE_SMALL)" : mergeOrder.name());
        s.put("pageBytes", pageBytes == 0 ? "fitted" : Integer.toString(pageBytes));
        s.put("subcompactions", subcompactions == 0 ? "defaults: ours 2, RocksDB 1" : Integer.toString(subcompactions));
        s.put("javaOptions", javaOptions);
        s.put("java", System.getProperty("java.version"));
        s.put("cores", Runtime.getRuntime().availableProcessors());
        s.put("loadAverage", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return s;
    }

    /**
     * One round of one pairing: each system's loads (each in its child, into an empty directory, in the order of
     * {@link #loadOrder}; the stores of loads with other than the first thread count are deleted at once), then
     * {@link #readRepeats} read phases per system on the first loads' stores, alternating between the systems and, from one repeat to the next, which goes first; before
     * each, the loads' dirty pages are written out so that no read phase runs beside the kernel's writeback, and
     * the store's files are read once, so that each system's reads find its pages in the page cache (at 5M records
     * the 37 GB RocksDB wrote after our load had pushed our store out of it).
     */
    private List<PhaseResult> runPairing(Path work, int round, int pairIndex, Pairing pairing)
            throws IOException, InterruptedException {
        List<PhaseResult> results = new ArrayList<>();
        Map<Side, Path> readDirs = new EnumMap<>(Side.class);
        try {
            for (int ti = 0; ti < threads.size(); ti++) {
                int t = threads.get(ti);
                for (Side side : loadOrder(round, ti)) {
                    Path d = work.resolve("pair" + pairIndex + "-" + side.label() + "-" + t + "t");
                    BenchFiles.deleteTree(d);
                    boolean first = ti == 0;
                    if (first) {
                        readDirs.put(side, d);
                    }
                    try {
                        results.addAll(child(work, round, 1, pairing, side, List.of("--mode", "load", "--dir",
                                d.toString(), "--threads", Integer.toString(t), "--load-warmup",
                                Long.toString(loadWarmup))));
                    } finally {
                        if (!first) {
                            BenchFiles.deleteTree(d);
                        }
                    }
                }
            }
            for (int repeat = 1; repeat <= readRepeats; repeat++) {
                List<Side> order = repeat % 2 == 1 ? List.of(Side.OURS, Side.ROCKSDB)
                        : List.of(Side.ROCKSDB, Side.OURS);
                for (Side side : order) {
                    BenchFiles.syncDisks();
                    BenchFiles.readThrough(readDirs.get(side)); // page cache warm, whoever wrote last
                    results.addAll(child(work, round, repeat, pairing, side, List.of("--mode", "read", "--dir",
                            readDirs.get(side).toString(), "--gets", Integer.toString(gets), "--scans",
                            Integer.toString(scans), "--scan-starts", scanStarts.name())));
                }
            }
        } finally {
            for (Path d : readDirs.values()) {
                BenchFiles.deleteTree(d);
            }
        }
        return results;
    }

    /**
     * The order of the two systems' loads with the {@code threadIndex}-th client-thread count in {@code round}: the
     * two loads of one thread count run one after the other, and which system goes first alternates from one thread
     * count to the next and from one round to the next. A load runs slower right after another (this machine's
     * virtual disk takes writes more slowly after gigabytes of them: 20 to 25 % on a 1M load), so a fixed order
     * would favour whichever system always went first.
     */
    static List<Side> loadOrder(int round, int threadIndex) {
        return (round + threadIndex) % 2 == 1 ? List.of(Side.OURS, Side.ROCKSDB) : List.of(Side.ROCKSDB, Side.OURS);
    }

    private List<PhaseResult> child(Path work, int round, int repeat, Pairing pairing, Side side, List<String> args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String o : javaOptions.trim().split("\\s+")) {
            if (!o.isEmpty()) {
                command.add(o);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchChild.class.getName(),
                "--side", side.label(), "--pair", pairing.toString(), "--records", Long.toString(records),
                "--value-size", Integer.toString(valueSize)));
        command.addAll(tuning.args());
        command.addAll(args);
        Path log = work.resolve("child-" + round + "-" + side.label() + ".log");
        String what = String.format(Locale.ROOT, "round %d%s, %s, %s, %s", round,
                args.contains("read") ? " read " + repeat : "", pairing, side.label(),
                String.join(" ", args.subList(0, 2)) + (args.contains("--threads")
                        ? " " + args.get(args.indexOf("--threads") + 1) + " threads" : ""));
        System.err.println(what + " ...");
        Path stdoutFile = work.resolve("child-" + round + "-" + side.label() + ".out");
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).redirectOutput(stdoutFile.toFile())
                .start();
        // a stopped benchmark (Ctrl-C, SIGTERM) stops its child too
        Thread stopChild = new Thread(p::destroyForcibly, "stop-child");
        Runtime.getRuntime().addShutdownHook(stopChild);
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor();
                throw new IOException(what + ": still running after " + timeoutSeconds + " s; its log: " + log);
            }
        } finally {
            Runtime.getRuntime().removeShutdownHook(stopChild);
        }
        byte[] stdout = Files.readAllBytes(stdoutFile);
        Files.delete(stdoutFile);
        if (p.exitValue() != 0) {
            throw new IOException(what + ": the child failed with exit status " + p.exitValue() + "; its log:\n"
                    + tail(log));
        }
        List<PhaseResult> results = BenchChild.parse(new String(stdout, StandardCharsets.UTF_8), pairing.toString(),
                side.label(), round, repeat);
        for (PhaseResult r : results) {
            System.err.println("  " + r.phase() + ": " + brief(r));
        }
        if (results.isEmpty()) {
            throw new IOException(what + ": the child printed no result; its log:\n" + tail(log));
        }
        Files.deleteIfExists(log);
        return results;
    }

    private static String brief(PhaseResult r) {
        StringBuilder b = new StringBuilder();
        for (Metric m : Metric.ALL) {
            if (m.appliesTo(r.phase())) {
                b.append(m.label()).append(' ').append(m.format(r.value(m.key()))).append(", ");
            }
        }
        return b.length() == 0 ? "" : b.substring(0, b.length() - 2);
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(no log)";
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
