package io.lsmpolicies.bench.mixed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A short smoke run of {@code bin/bench-mixed}: two policies, a few flushes per phase. */
class MixedPhasesTest {
    @Test
    void smokeRunReportsEveryPolicyWithConsistentCosts(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(new MixedPhases());
        cl.setOut(new PrintWriter(out, true));
        int exit = cl.execute("--dir", dir.toString(), "--records", "600", "--reads", "2000", "--value-size", "200",
                "--memtable-bytes", "16384", "--policy", "adaptive", "--policy", "no-merge", "--policy",
                "binomial:k=2");
        assertThat(exit).isZero();
        String text = out.toString();
        assertThat(text).contains("adaptive").contains("no-merge").contains("binomial:k=2").contains("model cost");
        // Columns: policy flushes written read modelProbes probed modelCost ...; model cost = written + probes x 4096.
        for (String policy : new String[] {"adaptive", "no-merge", "binomial:k=2"}) {
            String[] f = text.lines().filter(l -> l.startsWith(policy + " ")).findFirst().orElseThrow().trim()
                    .split("\\s+");
            assertThat(Long.parseLong(f[1])).as(policy + " flushes").isGreaterThanOrEqualTo(4);
            assertThat(Long.parseLong(f[6])).as(policy + " model cost")
                    .isEqualTo(Long.parseLong(f[2]) + Long.parseLong(f[4]) * 4096);
        }
        // Every get probes at most k = 2 SSTables under Binomial, every flush's under no-merge.
        assertThat(column(text, "binomial:k=2", 4)).isLessThanOrEqualTo(2 * 2000);
        assertThat(column(text, "no-merge", 4)).isGreaterThan(column(text, "binomial:k=2", 4));
    }

    @Test
    void withYcsbTheClientRunsThePhasesAgainstTheBinding(@TempDir Path dir) {
        Path root = Path.of("..").toAbsolutePath().normalize();
        assertThat(root.resolve("ycsb-binding/target/lib")).as("ycsb-binding must be packaged first").isDirectory();
        assertThat(root.resolve("ycsb-binding/target/ycsb-lib")).as("YCSB core for the binding").isDirectory();
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(new MixedPhases());
        cl.setOut(new PrintWriter(out, true));
        int exit = cl.execute("--ycsb", "--root", root.toString(), "--dir", dir.toString(), "--records", "400",
                "--reads", "1000", "--memtable-bytes", "65536", "--policy", "adaptive");
        assertThat(exit).isZero();
        String text = out.toString();
        assertThat(text).contains("run by YCSB's client");
        // Columns: policy flushes written read - probed - - I/O+probed ...: YCSB's records are 1 KB (10 x 100 bytes),
        // so two loads of 400 flush at least 10 times; every one of the 1,000 reads finds its record in a table.
        String[] f = text.lines().filter(l -> l.startsWith("adaptive ")).findFirst().orElseThrow().trim()
                .split("\\s+");
        assertThat(Long.parseLong(f[1])).as("flushes").isGreaterThanOrEqualTo(10);
        assertThat(f[4]).as("model probes: not sampled under YCSB").isEqualTo("-");
        assertThat(Long.parseLong(f[5])).as("tables probed").isGreaterThanOrEqualTo(1000);
        assertThat(Long.parseLong(f[8])).as("I/O + probed")
                .isEqualTo(Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[5]) * 4096);
    }

    private static long column(String text, String policy, int index) {
        return Long.parseLong(text.lines().filter(l -> l.startsWith(policy + " ")).findFirst().orElseThrow().trim()
                .split("\\s+")[index]);
    }
}
