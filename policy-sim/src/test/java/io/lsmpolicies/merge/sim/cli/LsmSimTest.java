package io.lsmpolicies.merge.sim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The {@code bin/lsm-sim} command line, run in-process. */
class LsmSimTest {
    @TempDir
    Path dir;

    record Run(int status, String out, String err) {
    }

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = LsmSim.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int status = cl.execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void issueExamplePrintsOneJsonObjectWithTheDocumentedFields() throws Exception {
        Run r = run("--policy", "binomial", "--param", "k=6", "--flushes", "24000", "--flush-size", "constant:1",
                "--format", "json");
        assertThat(r.status()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.isObject()).isTrue();
        for (String field : List.of("policy", "parameters", "flushes", "writeAmplification", "modelWriteAmplification",
                "averageComponentCount", "maxComponentCount", "merges", "transientSpaceAmplification")) {
            assertThat(json.has(field)).as(field).isTrue();
        }
        assertThat(json.get("policy").asText()).isEqualTo("binomial");
        assertThat(json.get("parameters").get("k").asInt()).isEqualTo(6);
        assertThat(json.get("flushes").asLong()).isEqualTo(24000);
        assertThat(json.get("maxComponentCount").asInt()).isLessThanOrEqualTo(6);
        assertThat(json.get("writeAmplification").asDouble()).isGreaterThan(json.get("modelWriteAmplification")
                .asDouble());
    }

    @Test
    void severalPoliciesPrintAComparisonTable() {
        Run r = run("--policy", "binomial", "--policy", "minlatency", "--policy", "tiered", "--param", "k=4",
                "--flushes", "2000", "--flush-size", "uniform:1:10");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("binomial k=4").contains("minlatency k=4").contains("tiered ")
                .doesNotContain("tiered size-ratio")
                .contains("model WA").contains("uniform:1:10 (seed 42)");
        assertThat(r.out().lines().filter(l -> l.startsWith("binomial") || l.startsWith("minlatency")
                || l.startsWith("tiered")).count()).isEqualTo(3);
    }

    @Test
    void labelsShowRequiredAndNonDefaultParameters() {
        Run r = run("--policy", "prefix:max-mergable-component-size=1000", "--policy", "tiered:size-ratio=3",
                "--policy", "exploring:k=3,lambda=1.2", "--flushes", "100");
        assertThat(r.out()).contains("prefix max-mergable-component-size=1000 ").contains("tiered size-ratio=3 ")
                .contains("exploring k=3 ").doesNotContain("lambda");
    }

    @Test
    void samePolicyWithDifferentParametersGetsDistinctRows() throws Exception {
        Run r = run("--policy", "binomial:k=3", "--policy", "binomial:k=5", "--flushes", "500", "--format", "json");
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.isArray()).isTrue();
        assertThat(json.get(0).get("parameters").get("k").asInt()).isEqualTo(3);
        assertThat(json.get(1).get("parameters").get("k").asInt()).isEqualTo(5);
    }

    @Test
    void traceOutWritesOneRowPerFlushAndPolicyAndPlotWritesAPng() throws Exception {
        Path trace = dir.resolve("out/trace.csv");
        Path plot = dir.resolve("out/wa.png");
        Run r = run("--policy", "constant:k=3", "--policy", "bigtable:k=3", "--flushes", "300", "--trace-out",
                trace.toString(), "--plot", plot.toString(), "--format", "csv");
        assertThat(r.status()).as(r.err()).isZero();
        List<String> rows = Files.readAllLines(trace);
        assertThat(rows.get(0)).isEqualTo(TraceCsv.HEADER);
        assertThat(rows).hasSize(1 + 2 * 300);
        assertThat(rows.get(1)).startsWith("constant k=3,1,1,1,0,0,");
        byte[] png = Files.readAllBytes(plot);
        assertThat(png).hasSizeGreaterThan(1000);
        assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
        assertThat(r.out().lines().count()).isEqualTo(3); // CSV header + 2 rows
    }

    @Test
    void traceFlushSizesDefaultTheFlushCount() throws Exception {
        Path sizes = dir.resolve("sizes.txt");
        Files.writeString(sizes, "5\n5\n5\n5\n5\n");
        Run r = run("--policy", "no-merge", "--flush-size", "trace:" + sizes, "--format", "json");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(new ObjectMapper().readTree(r.out()).get("flushes").asLong()).isEqualTo(5);
    }

    @Test
    void badInputExitsWithStatusTwoAndAClearMessage() throws Exception {
        assertThat(run("--policy", "binomal", "--flushes", "10").err())
                .contains("unknown merge policy 'binomal'; known policies:");
        Run zeroK = run("--policy", "binomial", "--param", "k=0", "--flushes", "10");
        assertThat(zeroK.status()).isEqualTo(2);
        assertThat(zeroK.err()).contains("parameter 'k' = 0 is out of range; accepted: integer in [1, 1000000]");
        assertThat(run("--policy", "binomial", "--param", "k=4", "--flushes", "10", "--flush-size", "uniform:5:1")
                .err()).contains("A=5 exceeds B=1");
        assertThat(run("--policy", "binomial", "--param", "k=4").err()).contains("--flushes N is required");
        assertThat(run("--policy", "binomial", "--param", "k=4", "--param", "lambda=2", "--flushes", "9").err())
                .contains("none of the selected policies (binomial) has a parameter 'lambda'");
        assertThat(run("--policy", "binomial", "--param", "tiered.size-ratio=3", "--param", "k=2", "--flushes", "9")
                .err()).contains("policy 'tiered' is not selected");
        assertThat(run("--flushes", "9").err()).contains("no policy selected");
        assertThat(run("--policy", "no-merge", "--flushes", "0").err()).contains("--flushes must be >= 1, was 0");
        Path bad = dir.resolve("bad.txt");
        Files.writeString(bad, "1\nx\n");
        Run badTrace = run("--policy", "no-merge", "--flush-size", "trace:" + bad);
        assertThat(badTrace.status()).isEqualTo(2);
        assertThat(badTrace.err()).contains("line 2: 'x' is not a non-negative integer flush size");
        assertThat(run("--policy", "no-merge", "--flushes", "x").status()).isEqualTo(2);
    }

    @Test
    void readsAndReadCostAppearInEveryFormat() throws Exception {
        String[] common = {"--policy", "no-merge", "--policy", "constant:k=1", "--flushes", "4", "--flush-size",
            "constant:10", "--reads", "phases:2x0,2x3", "--read-cost", "100"};
        // no-merge: counts 1..4, probes 3x3 + 3x4 = 21; constant k=1: count 1, probes 6, merges 10+20+30+40.
        Run json = run(concat(common, "--format", "json"));
        assertThat(json.status()).as(json.err()).isZero();
        JsonNode results = new ObjectMapper().readTree(json.out());
        assertThat(results.get(0).get("mergeCost").asLong()).isEqualTo(40);
        assertThat(results.get(0).get("readCost").asLong()).isEqualTo(2100);
        assertThat(results.get(0).get("totalCost").asLong()).isEqualTo(2140);
        assertThat(results.get(0).get("reads").asText()).isEqualTo("phases:2x0,2x3");
        assertThat(results.get(0).get("readCostBytes").asLong()).isEqualTo(100);
        assertThat(results.get(1).get("mergeCost").asLong()).isEqualTo(100);
        assertThat(results.get(1).get("readCost").asLong()).isEqualTo(600);
        Run csv = run(concat(common, "--format", "csv"));
        List<String> lines = csv.out().lines().toList();
        assertThat(lines.get(0)).endsWith(",reads,read_cost_bytes,merge_cost,read_cost,total_cost");
        assertThat(lines.get(1)).endsWith(",\"phases:2x0,2x3\",100,40,2100,2140");
        Run table = run(common);
        assertThat(table.out()).contains("merge cost").contains("read cost").contains("total cost")
                .contains("reads: phases:2x0,2x3 after each flush, 100 bytes per SSTable probe");
        assertThat(table.out().lines().filter(l -> l.startsWith("no-merge")).findFirst().orElseThrow())
                .contains(" 40 ").contains(" 2100 ").contains(" 2140 ");
        Path trace = dir.resolve("trace.csv");
        Path costPlot = dir.resolve("plots/cost.png");
        Run traced = run(concat(common, "--trace-out", trace.toString(), "--cost-plot", costPlot.toString()));
        assertThat(traced.status()).as(traced.err()).isZero();
        List<String> rows = Files.readAllLines(trace);
        assertThat(rows.get(0)).endsWith(",reads,merge_cost,read_cost,total_cost");
        assertThat(rows.get(3)).startsWith("no-merge,3,10,3,").endsWith(",3,30,900,930");
        assertThat(rows.get(4)).endsWith(",3,40,2100,2140");
        byte[] png = Files.readAllBytes(costPlot);
        assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    @Test
    void badReadsExitWithStatusTwoNamingTheFlag() throws Exception {
        Run unknown = run("--policy", "no-merge", "--flushes", "4", "--reads", "zipf:3");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("lsm-sim: --reads 'zipf:3': unknown source 'zipf'");
        Run shortPhases = run("--policy", "no-merge", "--flushes", "4", "--reads", "phases:3x1");
        assertThat(shortPhases.status()).isEqualTo(2);
        assertThat(shortPhases.err()).contains("--reads 'phases:3x1' gives read counts for only 3 flushes, but 4 "
                + "flushes are simulated");
        Run negative = run("--policy", "no-merge", "--flushes", "4", "--read-cost", "-1");
        assertThat(negative.status()).isEqualTo(2);
        assertThat(negative.err()).contains("--read-cost must be >= 0 bytes, was -1");
        Run notANumber = run("--policy", "no-merge", "--flushes", "4", "--read-cost", "4k");
        assertThat(notANumber.status()).isEqualTo(2);
        assertThat(notANumber.err()).contains("--read-cost").contains("4k");
        Path bad = dir.resolve("reads.txt");
        Files.writeString(bad, "1\n2\nmany\n");
        Run badTrace = run("--policy", "no-merge", "--flushes", "3", "--reads", "trace:" + bad);
        assertThat(badTrace.status()).isEqualTo(2);
        assertThat(badTrace.err()).contains("--reads 'trace:").contains("line 3: 'many' is not a non-negative "
                + "integer read count");
    }

    @Test
    void optimalAddsTheOptimaAndEachPolicysRatios() throws Exception {
        String[] common = {"--policy", "no-merge", "--policy", "constant:k=1", "--flushes", "6", "--flush-size",
            "constant:10", "--optimal", "--optimal-depth", "1"};
        Run json = run(concat(common, "--format", "json"));
        assertThat(json.status()).as(json.err()).isZero();
        JsonNode results = new ObjectMapper().readTree(json.out());
        // No reads: never merging (60 bytes) is optimal. One SSTable: merge all every step, 10 + 20 + ... + 60.
        for (JsonNode r : results) {
            assertThat(r.get("optimalCost").asLong()).isEqualTo(60);
            assertThat(r.get("optimalBound").asText()).isEqualTo("exact");
            assertThat(r.get("optimalDepthK").asInt()).isEqualTo(1);
            assertThat(r.get("optimalDepthCost").asLong()).isEqualTo(210);
            assertThat(r.get("optimalDepthBound").asText()).isEqualTo("exact");
        }
        assertThat(results.get(0).get("competitiveRatio").asDouble()).isEqualTo(1.0);
        assertThat(results.get(1).get("competitiveRatio").asDouble()).isEqualTo(3.5);
        assertThat(results.get(1).get("optimalDepthRatio").asDouble()).isEqualTo(1.0);
        assertThat(results.get(1).get("keepsDepthBound").asBoolean()).isTrue();
        assertThat(results.get(0).get("keepsDepthBound").asBoolean()).isFalse();
        Run csv = run(concat(common, "--format", "csv"));
        List<String> lines = csv.out().lines().toList();
        assertThat(lines.get(0)).endsWith(",total_cost,optimal_cost,optimal_bound,competitive_ratio,optimal_depth_k,"
                + "optimal_depth_cost,optimal_depth_bound,optimal_depth_ratio,keeps_depth_bound");
        assertThat(lines.get(2)).endsWith(",60,exact,3.500000,1,210,exact,1.000000,true");
        Run table = run(common);
        assertThat(table.out()).contains("vs optimum").contains("vs depth-1")
                .contains("optimum: least total cost of any schedule 60 (exact)")
                .contains("depth-1 optimum: least merge cost with at most 1 SSTables after every flush 210 (exact)");
        assertThat(table.out().lines().filter(l -> l.startsWith("no-merge")).findFirst().orElseThrow()).endsWith("*");
        Run plain = run("--policy", "no-merge", "--flushes", "6", "--format", "csv");
        assertThat(plain.out().lines().findFirst().orElseThrow()).endsWith(",total_cost");
    }

    @Test
    void beyondTheExactLimitTheOptimumIsALabelledLowerBound() throws Exception {
        Run r = run("--policy", "binomial:k=3", "--flushes", "40", "--flush-size", "uniform:1:100", "--reads",
                "constant:3", "--read-cost", "20", "--optimal", "--optimal-depth", "3", "--optimal-exact-limit", "10",
                "--format", "json");
        assertThat(r.status()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("optimalBound").asText()).isEqualTo("lower bound (4 blocks of <= 10 flushes)");
        assertThat(json.get("optimalDepthBound").asText()).startsWith("lower bound (");
        assertThat(json.get("competitiveRatio").asDouble()).isGreaterThanOrEqualTo(1.0);
        Run exact = run("--policy", "binomial:k=3", "--flushes", "40", "--flush-size", "uniform:1:100", "--reads",
                "constant:3", "--read-cost", "20", "--optimal", "--format", "json");
        assertThat(new ObjectMapper().readTree(exact.out()).get("optimalCost").asLong())
                .isGreaterThanOrEqualTo(json.get("optimalCost").asLong());
        Run table = run("--policy", "binomial:k=3", "--flushes", "40", "--optimal", "--optimal-exact-limit", "10");
        assertThat(table.out()).contains("(lower bound (4 blocks of <= 10 flushes)); vs optimum = total cost / "
                + "optimum, an upper bound on the ratio");
    }

    @Test
    void theCostPlotShowsTheOptimumOfEachPrefixWithOptimal() throws Exception {
        Path costPlot = dir.resolve("cost.png");
        Run r = run("--policy", "binomial:k=3", "--policy", "no-merge", "--flushes", "60", "--flush-size",
                "uniform:1:100", "--reads", "constant:2", "--read-cost", "50", "--optimal", "--cost-plot",
                costPlot.toString(), "--format", "json");
        assertThat(r.status()).as(r.err()).isZero();
        byte[] png = Files.readAllBytes(costPlot);
        assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    @Test
    void badOptimumFlagsExitWithStatusTwo() {
        Run depth = run("--policy", "no-merge", "--flushes", "4", "--optimal-depth", "0");
        assertThat(depth.status()).isEqualTo(2);
        assertThat(depth.err()).contains("--optimal-depth must be >= 1 SSTables, was 0");
        Run limit = run("--policy", "no-merge", "--flushes", "4", "--optimal", "--optimal-exact-limit", "5000");
        assertThat(limit.status()).isEqualTo(2);
        assertThat(limit.err()).contains("--optimal-exact-limit must be in [1, 4096] flushes, was 5000");
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void listShowsEveryPolicyWithItsParameters() {
        Run r = run("--list");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("binomial - ").contains("    k  integer in [1, 1000000], required")
                .contains("    lambda  number in [0.0, 1.0E9], default 1.2")
                .contains("    max-tolerance-component-count  integer in [2, 1000000], default 5");
    }

    @Test
    void adaptivePricesAProbeAtTheSimulatorsReadCostUnlessToldOtherwise() throws Exception {
        Run r = run("--policy", "adaptive", "--policy", "binomial:k=3", "--read-cost", "512", "--flushes", "20",
                "--reads", "constant:5", "--format", "json");
        assertThat(r.status()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get(0).get("parameters").get("read-cost").asLong()).isEqualTo(512);
        assertThat(json.get(1).get("parameters").has("read-cost")).isFalse();
        Run given = run("--policy", "adaptive", "--param", "read-cost=64", "--read-cost", "512", "--flushes", "20",
                "--format", "json");
        assertThat(given.status()).as(given.err()).isZero();
        assertThat(new ObjectMapper().readTree(given.out()).get("parameters").get("read-cost").asLong())
                .isEqualTo(64);
    }

    @Test
    void allSelectsEveryRegisteredStackPolicy() throws Exception {
        Run r = run("--all", "--param", "k=3", "--flushes", "100", "--format", "json");
        assertThat(r.status()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.size()).isEqualTo(9);
        for (JsonNode result : json) {
            assertThat(result.get("policy").asText()).isNotIn("leveled", "full-leveling", "one-leveling", "universal",
                    "composed", "delayed");
        }
    }

    @Test
    void namingALeveledPolicyIsAClearError() {
        Run r = run("--policy", "leveled:picker=round-robin", "--flushes", "10");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("policy 'leveled' is a leveled policy; the simulator runs only stack policies "
                + "(adaptive, bigtable, binomial, constant, exploring, minlatency, no-merge, prefix, tiered): run "
                + "'leveled' in the key-level model (bin/bench-pickers --policy, which needs keys, not only flush sizes) or in the "
                + "engine (lsm-core)");
        assertThat(r.out()).isEmpty();
        assertThat(run("--policy", "binomial:k=3", "--policy", "universal", "--flushes", "10").err())
                .contains("policy 'universal' is a leveled policy");
        Run delayed = run("--policy", "delayed:vct=8,picker=round-robin", "--flushes", "10");
        assertThat(delayed.status()).isEqualTo(2);
        assertThat(delayed.err()).contains("policy 'delayed' is a leveled policy");
    }

    @Test
    void listMarksLeveledPoliciesAndShowsChoices() {
        Run r = run("--list");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("leveled - ").contains("[leveled: runs in the engine, not simulated]")
                .contains("    picker  one of round-robin, min-overlapping-ratio, refined-mor, ")
                .contains(", default min-overlapping-ratio  ")
                .contains("    level-targets  one of static, dynamic, default static  ");
        assertThat(r.out().lines().filter(l -> l.startsWith("binomial - ")).findFirst().orElseThrow())
                .doesNotContain("[leveled");
    }
}
