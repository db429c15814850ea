package io.lsmpolicies.bench.grid;

import io.lsmpolicies.bench.BenchFiles;
import io.lsmpolicies.lsm.ByteSizes;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code bin/bench-policies}: the merge-policy comparison of Mao et al. (VLDB Journal 2021, Sect. 4) on this
 * machine. Each cell loads the paper's workload (YCSB load phase, 1 KB records, hashed order, upserts) through
 * YCSB's own client into one system with one policy and one device profile, in a fresh JVM and directory, and
 * records the per-flush trace; then the figures and a CSV are written and a table printed. Our store runs every
 * policy; RocksDB and AsterixDB's LSM B-tree run beside it as peers, and their ratios are to the first cell of our
 * store on the same device.
 */
@Command(name = "bench-policies", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the merge-policy grid (policy x k x device) of Mao et al. under YCSB and writes CSV and "
                + "plots (docs/benchmarks.md).", "Presets: quick (the default; a few policies and peers, minutes), "
                + "paper (every stack policy at k = 3..10, tiered and leveled at B = 4..32, peers, three devices; "
                + "hours), asterixdb (AsterixDB's LSM B-tree with its prefix policy and with ours through the adapter). "
                + "Options given after the preset override it."})
public final class PolicyGrid implements Callable<Integer> {
    @Option(names = "--preset", description = "quick, paper or asterixdb (default ${DEFAULT-VALUE})",
            defaultValue = "quick")
    String preset;

    @Option(names = "--cell", description = "a cell, SYSTEM:POLICY (lsm:binomial:k=6, rocksdb:leveled, "
            + "hyracks:prefix, hyracks:minlatency:k=5); repeatable; replaces the preset's cells")
    List<String> cells;

    @Option(names = "--policies", split = ",", description = "stack policies taking k, run at every --k")
    List<String> policies;

    @Option(names = "--k", split = ",", description = "the k of the stack policies")
    List<Integer> ks;

    @Option(names = "--size-ratios", split = ",", description = "the B of tiered and leveled (ours and RocksDB's)")
    List<Integer> sizeRatios;

    @Option(names = "--peers", split = ",", description = "peer cells, e.g. rocksdb:leveled,hyracks:prefix; 'none'")
    List<String> peers;

    @Option(names = "--devices", split = ",", description = "device profiles: none, ssd, hdd")
    List<String> devices;

    @Option(names = "--emulation", description = "how ssd and hdd are emulated: block (bin/device-class: the same "
            + "throttled device and memory cap for every system; needs root and the cgroup controllers), engine (each "
            + "system's in-engine profile), auto (block where the machine allows it, else engine; the default)",
            defaultValue = "auto")
    String emulation;

    @Option(names = "--device-memory", description = "block emulation: memory cap of a cell's processes, page cache "
            + "included (default: the child's -Xmx plus 256MB)")
    String deviceMemory;

    @Option(names = "--device-size", description = "block emulation: the class's file system size (default: six "
            + "times the records' bytes, at least 1GB)")
    String deviceSize;

    @Option(names = "--device-backing", description = "block emulation: where the file system's backing file is "
            + "made (default bin/device-class's, /var/tmp; /dev/shm keeps the host disk out of the measurement)")
    Path deviceBacking;

    @Option(names = "--records", description = "records to load per cell (1 KB each)")
    Long records;

    @Option(names = "--reads", description = "point reads (Zipfian) after each load; 0: none")
    Long reads;

    @Option(names = "--memtable", description = "MemTable budget of every system (default 256KB)")
    String memtable;

    @Option(names = "--wal", description = "WAL mode of our store and RocksDB (default off: Hyracks' tree has no log)")
    String wal;

    @Option(names = "--threads", description = "YCSB client threads (default 1)")
    Integer threads;

    @Option(names = "--target", description = "YCSB's -target: the most operations per second the client issues "
            + "(0, the default: as fast as the system takes them)")
    long target;

    @Option(names = "--timeout", description = "seconds a cell's load may take before it is given up")
    Long timeout;

    @Option(names = "--out", description = "results directory (default results/bench-policies)")
    Path out;

    @Option(names = "--work", description = "where the cells' stores live while they run (default OUT/work)")
    Path work;

    @Option(names = "--root", description = "the repository (default: the working directory)", defaultValue = ".")
    Path root;

    @Option(names = "--java-option", description = "an option of the child JVMs (repeatable; default -Xmx1g)")
    List<String> javaOptions;

    private final PrintStream stdout = System.out;

    public static void main(String[] args) {
        System.exit(new CommandLine(new PolicyGrid()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Preset p = Preset.named(preset);
        List<Cell> grid;
        try {
            grid = cells(p);
        } catch (IllegalArgumentException e) {
            System.err.println("bench-policies: " + e.getMessage());
            return 2;
        }
        long n = records != null ? records : p.records;
        if (n < 1000) {
            System.err.println("bench-policies: --records must be at least 1000, was " + n);
            return 2;
        }
        String mem = memtable != null ? memtable : "256KB";
        try {
            ByteSizes.parse(mem);
        } catch (IllegalArgumentException e) {
            System.err.println("bench-policies: --memtable: " + e.getMessage());
            return 2;
        }
        String walMode = wal != null ? wal : "off";
        if (!List.of("sync", "async", "off").contains(walMode)) {
            System.err.println("bench-policies: --wal must be sync, async or off, was " + walMode);
            return 2;
        }
        Path outDir = (out != null ? out : Path.of("results", "bench-policies")).toAbsolutePath();
        Path workDir = (work != null ? work : outDir.resolve("work")).toAbsolutePath();
        Files.createDirectories(workDir);
        Path rootDir = root.toAbsolutePath().normalize();
        for (Cell c : grid) {
            Path jar = rootDir.resolve(c.system().module()).resolve("target")
                    .resolve(c.system().module() + "-0.1.0-SNAPSHOT.jar");
            if (!Files.isRegularFile(jar)) {
                System.err.println("bench-policies: " + jar + " is missing: build " + c.system().module()
                        + " first (bin/bench-policies does)");
                return 2;
            }
        }
        List<String> jvm = javaOptions != null ? javaOptions : List.of("-Xmx1g");
        DeviceClass deviceClass;
        try {
            deviceClass = new DeviceClass(rootDir.resolve("bin").resolve("device-class"),
                    deviceSize != null ? ByteSizes.parse(deviceSize) : DeviceClass.defaultSize(n),
                    deviceMemory != null ? ByteSizes.parse(deviceMemory) : DeviceClass.defaultMemory(jvm),
                    deviceBacking);
            grid = emulate(grid, deviceClass);
        } catch (IllegalArgumentException e) {
            System.err.println("bench-policies: " + e.getMessage());
            return 2;
        }
        CellRunner runner = new CellRunner(new CellRunner.Settings(rootDir, workDir, outDir, n,
                reads != null ? reads : p.reads, mem, walMode, threads != null ? threads : 1, target,
                timeout != null ? timeout : p.timeoutSeconds, jvm, deviceClass));
        stdout.printf(Locale.ROOT, "bench-policies: %d cells, %,d records of 1 KB each (%s MemTables, WAL %s), "
                + "results in %s%n", grid.size(), n, mem, walMode, outDir);
        List<CellResult> results = new ArrayList<>();
        GridProgress progress = new GridProgress(grid.size(), n, System.console() != null ? stdout : null);
        for (Cell c : grid) {
            progress.start(c);
            CellResult r = runner.run(c, progress::operations);
            progress.finish(r);
            results.add(r);
            writeCsv(results, outDir.resolve("results.csv"));
        }
        List<Path> plots = GridPlots.write(results, outDir);
        stdout.println();
        stdout.print(table(results));
        stdout.println();
        stdout.println("CSV: " + outDir.resolve("results.csv"));
        plots.forEach(f -> stdout.println("plot: " + f));
        BenchFiles.deleteTree(workDir);
        return results.stream().allMatch(CellResult::ok) ? 0 : 1;
    }

    /** The cells of this run: explicit ones, or the preset's grid with the options applied, per device. */
    List<Cell> cells(Preset p) {
        List<String> devs = devices != null ? devices : p.devices;
        List<String> specs = new ArrayList<>();
        if (cells != null) {
            specs.addAll(cells);
        } else {
            for (String policy : policies != null ? policies : p.policies) {
                for (int k : ks != null ? ks : p.ks) {
                    specs.add("lsm:" + policy + ":k=" + k);
                }
            }
            for (int b : sizeRatios != null ? sizeRatios : p.sizeRatios) {
                specs.add("lsm:tiered:size-ratio=" + b);
                specs.add("lsm:" + leveled(b));
            }
            List<String> peerSpecs = peers != null ? peers : p.peers;
            if (!(peerSpecs.size() == 1 && peerSpecs.get(0).equals("none"))) {
                specs.addAll(peerSpecs);
            }
        }
        List<Cell> out = new ArrayList<>();
        for (String d : devs) {
            for (String s : specs) {
                out.add(Cell.parse(s, d));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no cells to run");
        }
        return out;
    }

    /**
     * The cells with their devices' emulation: per device other than {@code none}, {@link Cell#BLOCK} when
     * {@code --emulation} is {@code block}, or {@code auto} and {@code bin/device-class DEVICE --check} passes;
     * {@link Cell#ENGINE} otherwise. Says on stdout which one each device got and why.
     *
     * @throws IllegalArgumentException for an unknown {@code --emulation}, or {@code block} where the machine
     *                                  cannot run the classes (with the script's reason)
     */
    List<Cell> emulate(List<Cell> grid, DeviceClass deviceClass) throws IOException, InterruptedException {
        if (!List.of("auto", Cell.BLOCK, Cell.ENGINE).contains(emulation)) {
            throw new IllegalArgumentException("--emulation must be auto, block or engine, was " + emulation);
        }
        Map<String, String> chosen = new LinkedHashMap<>();
        for (Cell c : grid) {
            if (c.device().equals("none") || chosen.containsKey(c.device())) {
                continue;
            }
            String why = emulation.equals(Cell.ENGINE) ? null : deviceClass.unavailable(c.device());
            if (emulation.equals(Cell.BLOCK) && why != null) {
                throw new IllegalArgumentException("--emulation block: " + why);
            }
            String e = emulation.equals(Cell.ENGINE) || why != null ? Cell.ENGINE : Cell.BLOCK;
            chosen.put(c.device(), e);
            if (e.equals(Cell.BLOCK)) {
                stdout.printf(Locale.ROOT, "bench-policies: device %s: block-layer class (bin/device-class %s, "
                        + "%d MiB file system, memory cap %d MiB), the same for every system%n", c.device(),
                        c.device(), deviceClass.size() >> 20, deviceClass.memory() >> 20);
            } else {
                stdout.printf(Locale.ROOT, "bench-policies: device %s: in-engine profiles%s%n", c.device(),
                        why == null ? "" : " (bin/device-class cannot run here: " + why + ")");
            }
        }
        return grid.stream().map(c -> c.withEmulation(chosen.getOrDefault(c.device(), Cell.NONE))).toList();
    }

    /**
     * Our leveled policy scaled to the grid's small MemTables: two SSTables in level 0 (the paper's setting), and
     * RocksDB's default proportions (a base level as large as level 0 at its trigger, 256 MiB = 4 x 64 MiB; output
     * files of one MemTable).
     */
    private String leveled(int b) {
        long mem = ByteSizes.parse(memtable != null ? memtable : "256KB");
        return "leveled:size-ratio=" + b + ",l0-trigger=2,base-level-bytes=" + (2 * mem) + ",target-file-bytes="
                + mem;
    }

    private static void writeCsv(List<CellResult> results, Path file) throws IOException {
        Files.createDirectories(file.getParent());
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("system,policy,family,parameter,device,emulation,status,records,flushes,write_amplification,"
                    + "simulated_write_amplification,read_amplification,transient_space_amplification,"
                    + "load_seconds,load_ops_per_s,insert_p50_us,insert_p99_us,insert_p999_us,insert_max_us,"
                    + "read_ops_per_s,read_avg_us,read_p50_us,read_p99_us,throughput_vs_lsm_reference,competitive_ratio,"
                    + "depth_ratio,optimum_exact");
            w.newLine();
            Map<String, Double> reference = references(results);
            for (CellResult r : results) {
                Cell c = r.cell();
                List<Object> f = new ArrayList<>(List.of(c.system().label(), quote(c.policy()), c.family(),
                        num(c.parameter()), c.device(), c.emulation(), quote(r.status())));
                if (r.load() != null && r.trace() != null) {
                    TraceSummary t = r.trace();
                    f.addAll(List.of((long) r.load().ok("INSERT"), t.flushes(), num(t.writeAmplification()),
                            num(r.modelWriteAmplification()), num(t.readAmplification()),
                            num(t.transientSpaceAmplification()), num(r.seconds()), num(r.load().throughput()),
                            num(r.load().latency("INSERT", "50")), num(r.load().latency("INSERT", "99")),
                            num(r.load().latency("INSERT", "99.9")), num(r.load().get("INSERT", "MaxLatency(us)"))));
                    if (r.reads() != null) {
                        f.addAll(List.of(num(r.reads().throughput()), num(r.reads().averageLatency("READ")),
                                num(r.reads().latency("READ", "50")), num(r.reads().latency("READ", "99"))));
                    } else {
                        f.addAll(List.of("", "", "", ""));
                    }
                    Double ref = reference.get(c.device());
                    f.add(ref == null ? "" : num(r.load().throughput() / ref));
                    ModelFit.Optimality o = r.optimality();
                    f.addAll(List.of(num(o.competitiveRatio()), num(o.depthRatio()),
                            Double.isNaN(o.competitiveRatio()) ? "" : Boolean.toString(o.exact())));
                }
                w.write(String.join(",", f.stream().map(Object::toString).toList()));
                w.newLine();
            }
        }
    }

    /** Per device, the load throughput of the first finished cell of our store: the peers' ratios are to it. */
    private static Map<String, Double> references(List<CellResult> results) {
        Map<String, Double> ref = new LinkedHashMap<>();
        for (CellResult r : results) {
            if (r.ok() && r.cell().system() == GridSystem.LSM) {
                ref.putIfAbsent(r.cell().device(), r.load().throughput());
            }
        }
        return ref;
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }

    /** The comparison table printed at the end. */
    static String table(List<CellResult> results) {
        Map<String, Double> reference = references(results);
        StringBuilder sb = new StringBuilder();
        String head = String.format(Locale.ROOT, "%-44s %-10s %8s %7s %7s %6s %6s %9s %7s %8s %8s %8s %8s %7s %7s%n",
                "cell", "device", "flushes", "WA", "sim WA", "readA", "TSA", "load/s", "vs lsm", "ins p99", "read/s",
                "rd avg", "rd p99", "vs opt", "vs optK");
        sb.append(head);
        for (CellResult r : results) {
            Cell c = r.cell();
            String name = c.system().label() + ":" + c.policy();
            if (name.length() > 44) {
                name = name.substring(0, 41) + "...";
            }
            if (!r.ok() && r.trace() == null) {
                sb.append(String.format(Locale.ROOT, "%-44s %-10s %s%n", name, deviceLabel(c), r.status()));
                continue;
            }
            TraceSummary t = r.trace();
            Double ref = reference.get(c.device());
            ModelFit.Optimality o = r.optimality();
            sb.append(String.format(Locale.ROOT, "%-44s %-10s %8d %7.2f %7s %6.2f %6.2f %9.0f %7s %8s %8s %8s %8s %7s %7s%n",
                    name, deviceLabel(c), t.flushes(), t.writeAmplification(),
                    Double.isNaN(r.modelWriteAmplification()) ? "-"
                            : String.format(Locale.ROOT, "%.2f", r.modelWriteAmplification()),
                    t.readAmplification(), t.transientSpaceAmplification(), r.load().throughput(),
                    ref == null ? "-" : String.format(Locale.ROOT, "%.2fx", r.load().throughput() / ref),
                    us(r.load().latency("INSERT", "99")), r.reads() == null ? "-"
                            : String.format(Locale.ROOT, "%.0f", r.reads().throughput()),
                    r.reads() == null ? "-" : us(r.reads().averageLatency("READ")),
                    r.reads() == null ? "-" : us(r.reads().latency("READ", "99")), ratio(o.competitiveRatio(), o.exact()),
                    ratio(o.depthRatio(), o.exact())));
        }
        sb.append(fitLine(results));
        if (results.stream().anyMatch(r -> !Double.isNaN(r.optimality().competitiveRatio()))) {
            sb.append("vs opt = the model's total cost (the read phase after the last flush, "
                    + "4096 B per SSTable probe) / the offline optimum on the cell's flush sizes; vs optK = its merge "
                    + "cost / the least with at most k SSTables; <= marks a lower-bound optimum (docs/policies.md, "
                    + "section 6.2)").append(System.lineSeparator());
        }
        return sb.toString();
    }

    /** The table's device column: {@code none}, or the device and its emulation, {@code hdd/block}. */
    private static String deviceLabel(Cell c) {
        return c.device().equals("none") ? "none" : c.device() + "/" + c.emulation();
    }

    /** A ratio to the optimum, with {@code <=} when the optimum is a lower bound (the ratio an upper bound). */
    private static String ratio(double v, boolean exact) {
        return Double.isNaN(v) ? "-" : (exact ? "" : "<=") + String.format(Locale.ROOT, "%.2f", v);
    }

    private static String us(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0fus", v);
    }

    /** R^2 of observed against simulated write amplification over every simulated cell, when there are 3+. */
    private static String fitLine(List<CellResult> results) {
        List<CellResult> m = results.stream().filter(r -> r.ok() && !Double.isNaN(r.modelWriteAmplification()))
                .toList();
        double r2 = ModelFit.rSquared(m.stream().mapToDouble(CellResult::modelWriteAmplification).toArray(),
                m.stream().mapToDouble(r -> r.trace().writeAmplification()).toArray());
        double worst = m.stream().mapToDouble(r -> Math.abs(r.trace().writeAmplification()
                / r.modelWriteAmplification() - 1)).max().orElse(Double.NaN);
        if (m.isEmpty()) {
            return "";
        }
        return String.format(Locale.ROOT, "%nmodel check (Fig. 11): %d cells, observed vs simulated write "
                + "amplification R^2 = %s, largest relative difference %.1f%%%n", m.size(),
                Double.isNaN(r2) ? "- (fewer than 3 cells)" : String.format(Locale.ROOT, "%.4f", r2), worst * 100);
    }

    /** A preset grid. */
    record Preset(List<String> policies, List<Integer> ks, List<Integer> sizeRatios, List<String> peers,
            List<String> devices, long records, long reads, long timeoutSeconds) {
        static Preset named(String name) {
            return switch (name) {
                case "quick" -> new Preset(List.of("binomial", "minlatency", "bigtable"), List.of(4), List.of(4),
                        List.of("rocksdb:leveled", "hyracks:prefix", "hyracks:binomial:k=4"), List.of("none"),
                        100_000, 20_000, 600);
                case "paper" -> new Preset(List.of("binomial", "minlatency", "bigtable", "exploring", "constant"),
                        List.of(3, 4, 5, 6, 7, 8, 10), List.of(4, 8, 16, 32),
                        List.of("rocksdb:leveled", "rocksdb:universal", "hyracks:prefix", "hyracks:binomial:k=6",
                                "hyracks:minlatency:k=6"), List.of("none", "ssd", "hdd"), 600_000, 50_000, 3_600);
                case "asterixdb" -> new Preset(List.of(), List.of(), List.of(), List.of("hyracks:prefix",
                        "hyracks:binomial:k=4", "hyracks:minlatency:k=4", "hyracks:bigtable:k=4",
                        "hyracks:exploring:k=4", "hyracks:tiered:size-ratio=4", "hyracks:binomial:k=6",
                        "hyracks:minlatency:k=6", "lsm:prefix", "lsm:binomial:k=4", "lsm:binomial:k=6"),
                        List.of("none"), 100_000, 0, 1_800);
                default -> throw new CommandLine.ParameterException(new CommandLine(new PolicyGrid()),
                        "unknown preset '" + name + "'; accepted: quick, paper, asterixdb");
            };
        }
    }
}
