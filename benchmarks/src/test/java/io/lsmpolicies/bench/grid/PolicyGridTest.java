package io.lsmpolicies.bench.grid;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The grid end to end on our store: YCSB loads in child JVMs, traces read, the model run, CSV and figures written,
 * the table printed. (The peers' bindings are tested in their modules.) Needs ycsb-binding packaged, as the
 * reactor build does before this module.
 */
@Timeout(300)
class PolicyGridTest {
    @TempDir
    Path tmp;

    @Test
    void aSmallGridWritesTheCsvTheFiguresAndTheTable() throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        assertThat(root.resolve("ycsb-binding/target/lib")).as("ycsb-binding must be packaged first").isDirectory();
        assertThat(root.resolve("ycsb-binding/target/ycsb-lib")).as("YCSB core for the binding").isDirectory();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new PolicyGrid()).execute("--root", root.toString(), "--out", tmp.toString(),
                    "--records", "4000", "--reads", "500", "--memtable", "64KB", "--cell", "lsm:binomial:k=3",
                    "--cell", "lsm:constant:k=3", "--cell", "lsm:tiered:size-ratio=3", "--cell",
                    "lsm:leveled:size-ratio=4,l0-trigger=2,base-level-bytes=524288,target-file-bytes=65536",
                    "--java-option", "-Xmx256m", "--java-option", "-XX:TieredStopAtLevel=1");
        } finally {
            System.setOut(saved);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(printed).isZero();
        List<String> csv = Files.readAllLines(tmp.resolve("results.csv"));
        assertThat(csv).hasSize(5);
        assertThat(csv.subList(1, 5)).allMatch(l -> l.contains(",ok,4000,"));
        // Constant merges everything every k flushes: far more write amplification than binomial at the same k.
        double binomial = column(csv, 1, "write_amplification");
        double constant = column(csv, 2, "write_amplification");
        assertThat(constant).isGreaterThan(1.5 * binomial);
        assertThat(binomial).isGreaterThan(1.5);
        // The model agrees with the engine on the engine's own flush sizes, within the file overhead: a merged file
        // carries one index, filter and footer for its inputs' several, so the engine writes a little less than the
        // model's sum of input sizes (more so with these tiny 64 KB MemTables than in the benchmark).
        for (int row = 1; row <= 3; row++) {
            double observed = column(csv, row, "write_amplification");
            double simulated = column(csv, row, "simulated_write_amplification");
            assertThat(observed / simulated).as(csv.get(row)).isBetween(0.8, 1.02);
        }
        assertThat(csv.get(4)).contains(",leveled,4.0000,none,none,ok,"); // leveled: no model, read amp from levels
        assertThat(column(csv, 1, "read_amplification")).isLessThanOrEqualTo(4.0);
        assertThat(column(csv, 3, "read_amplification")).isGreaterThan(column(csv, 1, "read_amplification"));
        assertThat(column(csv, 1, "read_p99_us")).isPositive();
        // the reads' mean latency, between the fastest and the slowest read
        assertThat(column(csv, 1, "read_avg_us")).isPositive().isLessThan(column(csv, 1, "read_p99_us") * 100);
        for (String f : List.of("fig3-wa-vs-flushes-none.png", "fig5-read-vs-write-none.png",
                "fig6-transient-space-none.png", "throughput-none.png", "fig11-model-vs-engine.png")) {
            assertThat(tmp.resolve(f)).isNotEmptyFile();
        }
        assertThat(tmp.resolve("traces/lsm_binomial_k=3_none.csv")).isNotEmptyFile();
        assertThat(printed).contains("lsm:binomial:k=3", "model check (Fig. 11): 3 cells", "R^2 = ");
        assertThat(tmp.resolve("work")).doesNotExist();
    }

    /**
     * A cell on the {@code hdd} class of {@code bin/device-class}: the store on the class's file system, the row
     * marked {@code block}, the calibration and both phases in the log, nothing left behind. Skipped with the
     * script's reason where the machine cannot run the classes.
     */
    @Test
    void aCellOnABlockDeviceClassSaysSoAndLeavesNothingBehind() throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Process check = new ProcessBuilder(root.resolve("bin/device-class").toString(), "hdd", "--check")
                .redirectErrorStream(true).start();
        String why = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        Assumptions.assumeTrue(check.waitFor() == 0, () -> "bin/device-class cannot run on this machine: " + why);
        Path backing = Files.createDirectories(tmp.resolve("backing"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new PolicyGrid()).execute("--root", root.toString(), "--out",
                    tmp.resolve("out").toString(), "--records", "1000", "--reads", "100", "--memtable", "64KB",
                    "--cell", "lsm:binomial:k=3", "--devices", "hdd", "--emulation", "block", "--device-size", "128MB",
                    "--device-memory", "384MB", "--device-backing", backing.toString(), "--java-option", "-Xmx64m",
                    "--java-option", "-XX:TieredStopAtLevel=1");
        } finally {
            System.setOut(saved);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(printed).isZero();
        assertThat(printed).contains("device hdd: block-layer class", "hdd/block");
        List<String> csv = Files.readAllLines(tmp.resolve("out/results.csv"));
        assertThat(csv.get(0)).contains(",device,emulation,status,");
        assertThat(csv.get(1)).contains(",hdd,block,ok,1000,");
        assertThat(column(csv, 1, "read_ops_per_s")).isPositive();
        assertThat(column(csv, 1, "read_avg_us")).isPositive();
        String log = Files.readString(tmp.resolve("out/logs/lsm_binomial_k=3_hdd-load.log"));
        assertThat(log).contains("device-class: hdd on /dev/loop", "sequential write + fsync", "--- load stdout",
                "--- reads stdout");
        assertThat(Files.readString(Path.of("/proc/mounts"))).doesNotContain(tmp.toString());
        try (Stream<Path> left = Files.list(backing)) {
            assertThat(left.toList()).as("backing files").isEmpty();
        }
        try (Stream<Path> loops = Files.list(Path.of("/sys/block"))) {
            for (Path loop : loops.filter(d -> d.getFileName().toString().startsWith("loop")).toList()) {
                Path file = loop.resolve("loop/backing_file");
                if (Files.exists(file)) {
                    assertThat(Files.readString(file)).doesNotContain(backing.toString());
                }
            }
        }
        assertThat(tmp.resolve("out/work")).doesNotExist();
    }

    @Test
    void aBadCellIsRefusedBeforeAnythingRuns() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        int exit;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = new CommandLine(new PolicyGrid()).execute("--out", tmp.toString(), "--cell", "lsm:binomial:k=0");
        } finally {
            System.setErr(saved);
        }
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("bench-policies:", "k");
    }

    private static double column(List<String> csv, int row, String name) {
        List<String> header = List.of(csv.get(0).split(","));
        String[] f = csv.get(row).replaceAll("\"[^\"]*\"", "x").split(",", -1);
        return Double.parseDouble(f[header.indexOf(name)]);
    }
}
