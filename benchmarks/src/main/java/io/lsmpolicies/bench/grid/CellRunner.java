package io.lsmpolicies.bench.grid;

import io.lsmpolicies.bench.BenchFiles;
import io.lsmpolicies.ycsb.common.TraceFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs one cell: YCSB's own {@code site.ycsb.Client} in a child JVM on the cell's binding, loading the paper's
 * workload into an empty directory with the trace file on, then (optionally) a read-only run on the loaded store.
 * Every cell gets a fresh JVM and directory, so no cell inherits another's heap, JIT or page-cache-warmed files
 * beyond what the OS keeps. A cell whose device is emulated at the block layer ({@link Cell#BLOCK}) runs both
 * phases inside one {@code bin/device-class} invocation, on a fresh file system of the class, with the in-engine
 * profile off.
 */
final class CellRunner {
    private static final Pattern STATUS = Pattern.compile(" (\\d+) sec: (\\d+) operations;");

    private final Settings settings;

    /**
     * The settings every cell shares.
     *
     * @param root      the repository (workloads/ and the modules' target/ directories)
     * @param work      where the cells' data directories are made (each deleted after its cell)
     * @param out       the results directory (traces and YCSB logs are kept there)
     * @param records   records to load
     * @param reads     read operations after the load (0: none)
     * @param memtable  MemTable budget of every system
     * @param wal       WAL mode of the systems that have one
     * @param threads   YCSB client threads
     * @param target    YCSB's {@code -target} operations per second (0: unthrottled)
     * @param timeoutSeconds the longest a load may take before the cell is given up
     * @param javaOptions JVM options of the child
     * @param deviceClass how cells emulated at the block layer run ({@link Cell#BLOCK}); null if none is
     */
    record Settings(Path root, Path work, Path out, long records, long reads, String memtable, String wal,
            int threads, long target, long timeoutSeconds, List<String> javaOptions, DeviceClass deviceClass) {
    }

    CellRunner(Settings settings) {
        this.settings = settings;
    }

    /** Runs {@code cell}, reporting operations done to {@code progress}. */
    CellResult run(Cell cell, LongConsumer progress) throws IOException, InterruptedException {
        boolean block = cell.emulation().equals(Cell.BLOCK);
        Path cellDir = settings.work().resolve(cell.fileName());
        BenchFiles.deleteTree(cellDir);
        // on a block device class the store lives on the class's file system, mounted on the cell's directory
        Path dir = block ? DeviceClass.deviceDir(cellDir).resolve("db") : cellDir;
        Path trace = settings.out().resolve("traces").resolve(cell.fileName() + ".csv");
        Files.createDirectories(trace.getParent());
        Files.deleteIfExists(trace);
        List<String> props = new ArrayList<>(cell.system().properties(cell.policy(), dir, settings.memtable(),
                settings.wal(), block ? "none" : cell.device()));
        props.add("recordcount=" + settings.records());
        List<String> loadProps = new ArrayList<>(props);
        loadProps.add(TraceFile.PROPERTY + "=" + trace);
        List<String> readProps = null;
        if (settings.reads() > 0) {
            readProps = new ArrayList<>(props);
            readProps.addAll(List.of("operationcount=" + settings.reads(), "readproportion=1",
                    "updateproportion=0", "insertproportion=0", "scanproportion=0",
                    "readmodifywriteproportion=0", "requestdistribution=zipfian"));
        }
        try {
            Child[] phases = block ? runInClass(cell, cellDir, loadProps, readProps, progress)
                    : runApart(cell, loadProps, readProps, progress);
            Child load = phases[0];
            Child read = phases[1];
            if (load.status != null) {
                return new CellResult(cell, load.status, load.seconds, null, null, null, Double.NaN);
            }
            YcsbReport loadReport = YcsbReport.parse(load.stdout);
            long failed = loadReport.failed("INSERT");
            if (failed > 0 || loadReport.ok("INSERT") != settings.records()) {
                return new CellResult(cell, "failed: " + loadReport.ok("INSERT") + " inserts OK, " + failed
                        + " not (see " + log(cell, "load") + ")", load.seconds, loadReport, null, null, Double.NaN);
            }
            TraceSummary summary = TraceSummary.of(TraceFile.read(trace));
            double model = cell.simulatable() ? ModelFit.simulate(cell.policy(), summary.flushSizes()) : Double.NaN;
            ModelFit.Optimality optimality = cell.simulatable()
                    ? ModelFit.optimality(cell.policy(), summary.flushSizes(), settings.reads()) : ModelFit.Optimality.NONE;
            YcsbReport readReport = null;
            if (read != null) {
                if (read.status != null) {
                    return new CellResult(cell, "reads " + read.status, load.seconds, loadReport, null, summary,
                            model, optimality);
                }
                readReport = YcsbReport.parse(read.stdout);
            }
            double seconds = loadReport.get("OVERALL", "RunTime(ms)") / 1000.0;
            return new CellResult(cell, "ok", seconds, loadReport, readReport, summary, model, optimality);
        } finally {
            BenchFiles.deleteTree(cellDir);
        }
    }

    private Path log(Cell cell, String phase) {
        return settings.out().resolve("logs").resolve(cell.fileName() + "-" + phase + ".log");
    }

    /** One phase's outcome: its standard output, and why it has no results (null if it finished). */
    private static final class Child {
        String stdout = "";
        String status;
        double seconds;
    }

    /** The load and then, if it finished, the reads, each a child JVM; {load, reads or null}. */
    private Child[] runApart(Cell cell, List<String> loadProps, List<String> readProps, LongConsumer progress)
            throws IOException, InterruptedException {
        Child load = runPhase(cell, ycsb(cell, true, loadProps), "load", progress);
        Child read = load.status == null && readProps != null
                ? runPhase(cell, ycsb(cell, false, readProps), "reads", progress) : null;
        return new Child[] {load, read};
    }

    /**
     * Both phases in one {@code bin/device-class} invocation, so that they share the class's file system (it lives
     * as long as the invocation): a shell inside the class runs the load, and the reads if the load finished, each
     * with its standard output in a file. The class's calibration and both phases' stderr go to the load's log.
     * {load, reads or null}.
     */
    private Child[] runInClass(Cell cell, Path mount, List<String> loadProps, List<String> readProps,
            LongConsumer progress) throws IOException, InterruptedException {
        Path loadOut = settings.work().resolve(cell.fileName() + "-load.out");
        Path readOut = settings.work().resolve(cell.fileName() + "-reads.out");
        Files.deleteIfExists(loadOut);
        Files.deleteIfExists(readOut);
        StringBuilder script = new StringBuilder("set -e\n");
        script.append(quoted(ycsb(cell, true, loadProps))).append(" > ").append(DeviceClass.shellQuote(
                loadOut.toString())).append('\n');
        if (readProps != null) {
            script.append(quoted(ycsb(cell, false, readProps))).append(" > ").append(DeviceClass.shellQuote(
                    readOut.toString())).append('\n');
        }
        List<String> command = settings.deviceClass().command(cell.device(), mount, List.of("sh", "-c",
                script.toString()));
        long timeout = settings.timeoutSeconds() * (readProps != null ? 2 : 1);
        Child whole = runChild(command, log(cell, "load"), timeout, progress);
        boolean readsStarted = Files.exists(readOut);
        Child load = new Child();
        load.seconds = whole.seconds;
        load.stdout = Files.exists(loadOut) ? Files.readString(loadOut, StandardCharsets.UTF_8) : "";
        load.status = readsStarted || (whole.status == null && readProps == null) ? null
                : whole.status != null ? whole.status : "failed: no reads started (see " + log(cell, "load") + ")";
        Child read = null;
        if (readsStarted) {
            read = new Child();
            read.seconds = whole.seconds;
            read.stdout = Files.readString(readOut, StandardCharsets.UTF_8);
            read.status = whole.status;
        }
        appendToLog(log(cell, "load"), "\n--- load stdout\n" + load.stdout
                + (read != null ? "\n--- reads stdout\n" + read.stdout : ""));
        Files.deleteIfExists(loadOut);
        Files.deleteIfExists(readOut);
        return new Child[] {load, read};
    }

    private static String quoted(List<String> command) {
        return String.join(" ", command.stream().map(DeviceClass::shellQuote).toList());
    }

    /** YCSB's client on the cell's binding, as a command: the load phase or the read phase. */
    private List<String> ycsb(Cell cell, boolean load, List<String> props) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(settings.javaOptions());
        command.addAll(List.of("-cp", cell.system().classPath(settings.root()), "site.ycsb.Client",
                load ? "-load" : "-t", "-db", cell.system().dbClass(), "-P",
                settings.root().resolve("workloads").resolve("paper-load").toString(), "-threads",
                Integer.toString(settings.threads()), "-s", "-p", "status.interval=1", "-p",
                "hdrhistogram.percentiles=50,95,99,99.9"));
        if (settings.target() > 0) {
            command.addAll(List.of("-target", Long.toString(settings.target())));
        }
        for (String p : props) {
            command.add("-p");
            command.add(p);
        }
        return command;
    }

    /** One phase in its own child JVM, its stdout kept in its log. */
    private Child runPhase(Cell cell, List<String> command, String phase, LongConsumer progress)
            throws IOException, InterruptedException {
        Path logFile = log(cell, phase);
        Child c = runChild(command, logFile, settings.timeoutSeconds(), progress);
        appendToLog(logFile, "\n--- stdout\n" + c.stdout);
        return c;
    }

    /**
     * Runs {@code command} with its stderr in {@code logFile} (YCSB's status lines reported to {@code progress}
     * instead), for at most {@code timeoutSeconds}. A child that overruns gets SIGTERM first, so that {@code
     * bin/device-class} stops its command and cleans up, and SIGKILL a minute later.
     */
    private Child runChild(List<String> command, Path logFile, long timeoutSeconds, LongConsumer progress)
            throws IOException, InterruptedException {
        Files.createDirectories(logFile.getParent());
        Path stdoutFile = Files.createTempFile(settings.work(), "ycsb", ".out");
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectOutput(stdoutFile.toFile()).start();
        Thread errPump = new Thread(() -> pumpStatus(p, logFile, progress), "ycsb-stderr");
        errPump.setDaemon(true);
        errPump.start();
        Child c = new Child();
        boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        c.seconds = (System.nanoTime() - start) / 1e9;
        if (!done) {
            p.destroy();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor();
            }
            c.status = "timeout after " + timeoutSeconds + " s";
        }
        errPump.join(5_000);
        c.stdout = Files.readString(stdoutFile, StandardCharsets.UTF_8);
        Files.deleteIfExists(stdoutFile);
        if (done && p.exitValue() != 0) {
            c.status = "failed: exit status " + p.exitValue() + " (see " + logFile + ")";
        }
        return c;
    }

    private static void appendToLog(Path logFile, String text) throws IOException {
        Files.writeString(logFile, text, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND,
                java.nio.file.StandardOpenOption.CREATE);
    }

    /** Copies the child's stderr into its log and reports the operations of YCSB's status lines. */
    private static void pumpStatus(Process p, Path logFile, LongConsumer progress) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
                var w = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8)) {
            for (String line; (line = r.readLine()) != null; ) {
                Matcher m = STATUS.matcher(line);
                if (m.find()) {
                    progress.accept(Long.parseLong(m.group(2)));
                } else {
                    w.write(line);
                    w.newLine();
                }
            }
        } catch (IOException e) {
            // the child is gone; its log is as complete as it got
        }
    }
}
