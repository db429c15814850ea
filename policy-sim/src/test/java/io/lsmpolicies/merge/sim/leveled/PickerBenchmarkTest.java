package io.lsmpolicies.merge.sim.leveled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.spi.OutputCut;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class PickerBenchmarkTest {
    private static final TreeShape MAIN = new TreeShape(50, 50, 200, 4, 4, 7);
    private static final TreeShape SMALL = new TreeShape(25, 25, 100, 4, 4, 7);

    private static BenchmarkSettings.Builder tiny() {
        return BenchmarkSettings.builder().entryBytes(1).runs(3).operations(4_000).shape(MAIN).smallOperations(400)
                .smallShape(SMALL).trivialMoves(TrivialMoves.NON_SKIP).threads(2);
    }

    private static Contender reference(String label, ReferenceLeveledPolicy.Picker picker) {
        return new Contender(label, "test", shape -> new ReferenceLeveledPolicy(label, shape.scoring(1), shape.cut(1),
                picker, true));
    }

    private static List<Contender> contenders() {
        return List.of(reference("first", ReferenceLeveledPolicy.FIRST), reference("last", ReferenceLeveledPolicy.LAST),
                new Contender("mor", "test",
                        shape -> ReferenceLeveledPolicy.mor(shape.scoring(1), shape.cut(1), true)));
    }

    @Test
    void everyContenderRunsOnEveryWorkloadAndSeedAndTheOptimumIsNoWorseOnTheSmallOne() {
        BenchmarkResults r = BenchmarkRun.run(tiny().build(), contenders(), line -> { });
        assertThat(r.failures()).isEmpty();
        assertThat(r.workloads()).extracting(BenchWorkload::slug)
                .containsExactly("updates-0", "updates-50-uniform", "updates-50-zipfian");
        // 3 main workloads + the small one, 3 seeds, 3 contenders.
        assertThat(r.runs()).hasSize(4 * 3 * 3);
        assertThat(r.searches()).hasSize(3).allMatch(s -> s.result().complete());
        for (BenchmarkResults.Search s : r.searches()) {
            for (BenchmarkResults.Run run : r.runs()) {
                if (run.workload() == r.small() && run.seed() == s.seed()) {
                    assertThat(s.result().writeAmplification()).isLessThanOrEqualTo(run.result().writeAmplification());
                }
            }
        }
        Summary first = r.summary(r.workloads().get(1), "first");
        assertThat(first.count()).isEqualTo(3);
        assertThat(first.min()).isLessThanOrEqualTo(first.q1());
        assertThat(first.q3()).isLessThanOrEqualTo(first.max());
    }

    @Test
    void theResultsDoNotDependOnTheNumberOfThreads() {
        BenchmarkResults one = BenchmarkRun.run(tiny().threads(1).search(false).build(), contenders(), line -> { });
        BenchmarkResults two = BenchmarkRun.run(tiny().threads(2).search(false).build(), contenders(), line -> { });
        assertThat(one.runs().stream().map(BenchmarkResults.Run::result).toList())
                .isEqualTo(two.runs().stream().map(BenchmarkResults.Run::result).toList());
    }

    @Test
    void theReportPrintsATableAndWritesCsvFilesAndBoxPlots(@TempDir Path dir) throws IOException {
        BenchmarkResults r = BenchmarkRun.run(tiny().runs(2).build(), contenders(), line -> { });
        StringWriter text = new StringWriter();
        BenchmarkReport.print(new PrintWriter(text), r);
        assertThat(text.toString()).contains("0% updates (any distribution)", "50% updates, zipfian 0.99",
                "contender", "Q1", "optimal", "beat", "best contender");
        List<Path> csv = BenchmarkReport.writeCsv(dir, r);
        assertThat(csv).extracting(p -> p.getFileName().toString())
                .containsExactly("runs.csv", "search.csv", "summary.csv");
        assertThat(Files.readAllLines(dir.resolve("runs.csv"))).hasSize(1 + 4 * 2 * 3)
                .first().asString().startsWith("workload,contender,seed");
        assertThat(Files.readAllLines(dir.resolve("summary.csv"))).hasSize(1 + 1 + 4 * 3)
                .anyMatch(l -> l.startsWith("small,optimal,2,"));
        List<Path> png = WaBoxPlot.write(dir, r);
        assertThat(png).extracting(p -> p.getFileName().toString()).contains("wa-boxplot.png", "wa-small.png");
        for (Path p : png) {
            assertThat(Files.size(p)).isPositive();
        }
    }

    @Test
    void aContenderThatFailsIsReportedAndTheOthersStillRun(@TempDir Path dir) throws IOException {
        Contender broken = new Contender("broken", "test", shape -> new ReferenceLeveledPolicy("broken",
                shape.scoring(1), shape.cut(1), (view, t) -> {
                    throw new IllegalStateException("picker exploded");
                }, true));
        List<Contender> all = new ArrayList<>(contenders());
        all.add(broken);
        BenchmarkResults r = BenchmarkRun.run(tiny().runs(1).search(false).build(), all, line -> { });
        assertThat(r.failures()).hasSize(3).allMatch(f -> f.contender().equals("broken")
                && f.message().contains("picker exploded"));
        assertThat(r.runs()).hasSize(3 * 3);
        StringWriter text = new StringWriter();
        BenchmarkReport.print(new PrintWriter(text), r);
        assertThat(text.toString()).contains("broken                         failed", "3 runs failed");
        BenchmarkReport.writeCsv(dir, r);
        assertThat(Files.readAllLines(dir.resolve("failures.csv"))).hasSize(4);
    }

    @Test
    void quartilesInterpolateBetweenOrderStatistics() {
        Summary s = Summary.of(4, 1, 3, 2);
        assertThat(s.min()).isEqualTo(1);
        assertThat(s.q1()).isEqualTo(1.75);
        assertThat(s.mean()).isEqualTo(2.5);
        assertThat(s.q3()).isEqualTo(3.25);
        assertThat(s.max()).isEqualTo(4);
        assertThat(s.quartileDeviation()).isEqualTo(0.75);
        assertThatThrownBy(Summary::of).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void templatesFillTheirPlaceholdersAndRejectUnknownOnes() {
        Map<String, String> values = MAIN.placeholders(1024);
        assertThat(PickerBenchmark.fill(PickerBenchmark.DEFAULT_TEMPLATE.replace("{picker}", "coldest"), values))
                .isEqualTo("leveled:picker=coldest,size-ratio=4,l0-trigger=4,base-level-bytes=204800,"
                        + "target-file-bytes=51200");
        assertThatThrownBy(() -> PickerBenchmark.fill("x:{nope}", values)).hasMessageContaining("{nope}");
    }

    @Test
    void pickersAreTheChoicesOfLeveledsPickerParameter() {
        assertThat(PickerDiscovery.discover("leveled", "picker")).contains("round-robin", "min-overlapping-ratio",
                "refined-mor").hasSize(10);
        assertThatThrownBy(() -> PickerDiscovery.discover("leveled", "size-ratio")).hasMessageContaining("not a choice");
        assertThatThrownBy(() -> PickerDiscovery.discover("nope", "picker")).hasMessageContaining("no policy 'nope'");
    }

    private static int execute(StringWriter out, StringWriter err, String... args) {
        CommandLine cl = PickerBenchmark.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @Test
    void theCommandRunsSpecContendersAndWritesItsFiles(@TempDir Path dir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = execute(out, err, "--no-pickers", "--policy", "bin=binomial:k=4", "--policy", "tiered",
                "--runs", "2", "--operations", "3000", "--memtable", "100", "--deletes", "0.1", "--no-search",
                "--out", dir.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("bin ", "tiered ", "Wrote");
        assertThat(out.toString()).contains("50% updates, uniform, 10% deletes");
        assertThat(dir.resolve("runs.csv")).content().contains("updates-50-zipfian-deletes-10,bin,");
        assertThat(dir.resolve("wa-boxplot.png")).exists();
        assertThat(dir.resolve("search.csv")).doesNotExist();
    }

    @Test
    void badArgumentsExitWithTwoAndAMessage() {
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {"--policy-name", "no-such-policy", "--list"});
        cases.add(new String[] {"--pickers", "x", "--template", "no-such:picker={picker}", "--list"});
        cases.add(new String[] {"--no-pickers"});
        cases.add(new String[] {"--no-pickers", "--policy", "binomial", "--runs", "0"});
        cases.add(new String[] {"--no-pickers", "--policy", "binomial", "--trivial-moves", "sometimes"});
        cases.add(new String[] {"--no-pickers", "--policy", "delayed:vct=8", "--list"});
        cases.add(new String[] {"--pickers", "round-robin", "--template", "delayed:picker={picker}", "--list"});
        for (String[] args : cases) {
            StringWriter err = new StringWriter();
            assertThat(execute(new StringWriter(), err, args)).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString()).startsWith("bench-pickers: ");
        }
    }

    @Test
    void delayedCompactionRunsInTheModelOnlyWithoutVirtualMerges() {
        StringWriter err = new StringWriter();
        assertThat(execute(new StringWriter(), err, "--no-pickers", "--policy", "d=delayed:picker=coldest", "--list"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("policy d (delayed, vct=12) asks for virtual merges");
        StringWriter out = new StringWriter();
        assertThat(execute(out, new StringWriter(), "--no-pickers", "--policy", "d=delayed:vct=0,picker=coldest",
                "--list")).isZero();
        assertThat(out.toString()).contains("d  delayed:vct=0,picker=coldest");
    }

    @Test
    void theSmallWorkloadMirrorsThePapersSearchSetup() {
        BenchmarkSettings d = BenchmarkSettings.builder().build();
        assertThat(BenchWorkload.small(d).name()).isEqualTo("small: 50% updates uniform, 600 ops");
        assertThat(d.smallShape().scoring(1)).isEqualTo(new LevelScoring(4, 4, 100, 7));
        assertThat(d.smallShape().cut(2)).as("leveled's own cut, max compaction bytes 25 x target")
                .isEqualTo(new OutputCut.AtGrandparentBoundaries(50, 1250));
    }
}
