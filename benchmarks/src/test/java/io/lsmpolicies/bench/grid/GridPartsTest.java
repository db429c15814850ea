package io.lsmpolicies.bench.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.SimulationResult;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.ycsb.common.TraceFile.Event;
import io.lsmpolicies.ycsb.common.TraceFile.Row;
import io.lsmpolicies.ycsb.common.TraceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

class GridPartsTest {
    @Test
    void theTraceSummaryIsThePapersMetrics() {
        List<Row> rows = List.of(new Row(Event.FLUSH, 1, 100, 100, 1, 100),
                new Row(Event.FLUSH, 2, 200, 200, 2, 200),
                new Row(Event.FLUSH, 3, 300, 500, 3, 500), // the merge before flush 3 had 200 + 100 on disk at once
                new Row(Event.END, 3, 300, 800, 1, 600));
        TraceSummary s = TraceSummary.of(rows);
        assertThat(s.flushes()).isEqualTo(3);
        assertThat(s.flushSizes()).containsExactly(100, 100, 100);
        assertThat(s.curve()).containsExactly(1.0, 1.0, 500.0 / 300);
        assertThat(s.writeAmplification()).isEqualTo(800.0 / 300);
        assertThat(s.readAmplification()).isEqualTo(2.0);
        assertThat(s.transientSpaceAmplification()).isEqualTo(2.0);
    }

    @Test
    void theModelIsTheSimulatorOnTheSameFlushSizes() {
        long[] sizes = new long[64];
        java.util.Arrays.fill(sizes, 7);
        double expected = new Simulator(MergePolicies.parse("binomial:k=3"), FlushSizeSources.constant(7), 0)
                .run(64).writeAmplification();
        assertThat(ModelFit.simulate("binomial:k=3", sizes)).isEqualTo(expected).isGreaterThan(2);
    }

    @Test
    void eachCellIsComparedWithTheOfflineOptimumOnItsOwnFlushSizes() {
        long[] sizes = new long[300];
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = random.nextLong(900, 1100);
        }
        long flushed = java.util.Arrays.stream(sizes).sum();
        // No reads: never merging is optimal, so the ratio is the model write amplification.
        ModelFit.Optimality noReads = ModelFit.optimality("binomial:k=3", sizes, 0);
        SimulationResult binomial = new Simulator(MergePolicies.parse("binomial:k=3"), FlushSizeSources.of(sizes, "s"),
                0).run(sizes.length);
        assertThat(noReads.competitiveRatio()).isCloseTo((double) binomial.mergeCost() / flushed, offset(1e-12));
        assertThat(noReads.depthRatio()).isGreaterThanOrEqualTo(1.0);
        assertThat(noReads.exact()).isTrue();
        // A read phase after the load: no policy beats the optimum; only bounded policies get a depth ratio.
        for (String policy : List.of("binomial:k=3", "minlatency:k=5", "tiered:size-ratio=4", "no-merge")) {
            ModelFit.Optimality o = ModelFit.optimality(policy, sizes, 100_000);
            assertThat(o.competitiveRatio()).as(policy).isGreaterThanOrEqualTo(1.0);
            assertThat(Double.isNaN(o.depthRatio())).as(policy).isEqualTo(!policy.contains("k="));
        }
        assertThat(ModelFit.optimality("no-merge", sizes, 100_000).competitiveRatio()).isGreaterThan(
                ModelFit.optimality("binomial:k=3", sizes, 100_000).competitiveRatio());
    }

    @Test
    void theTableShowsTheRatiosToTheOptimumAndMarksLowerBounds() {
        List<CellResult> cells = new java.util.ArrayList<>(GridPlotsTest.run().subList(0, 5));
        CellResult a = cells.get(0);
        cells.set(0, new CellResult(a.cell(), a.status(), a.seconds(), a.load(), a.reads(), a.trace(),
                a.modelWriteAmplification(), new ModelFit.Optimality(1.234, 1.5, true)));
        CellResult b = cells.get(1);
        cells.set(1, new CellResult(b.cell(), b.status(), b.seconds(), b.load(), b.reads(), b.trace(),
                b.modelWriteAmplification(), new ModelFit.Optimality(2.5, 1.75, false)));
        String table = PolicyGrid.table(cells);
        assertThat(table.lines().findFirst().orElseThrow()).endsWith("   rd avg   rd p99  vs opt vs optK");
        assertThat(table.lines().filter(l -> l.startsWith("lsm:binomial:k=4")).findFirst().orElseThrow())
                .endsWith("   1.23    1.50");
        assertThat(table.lines().filter(l -> l.startsWith("lsm:minlatency:k=4")).findFirst().orElseThrow())
                .endsWith("  <=2.50  <=1.75");
        assertThat(table.lines().filter(l -> l.startsWith("lsm:leveled")).findFirst().orElseThrow())
                .endsWith("       -       -");
        assertThat(table).contains("vs opt = the model's total cost");
    }

    @Test
    void rSquaredIsThatOfTheLeastSquaresLine() {
        assertThat(ModelFit.rSquared(new double[] {1, 2, 3, 4}, new double[] {3, 5, 7, 9})).isCloseTo(1, offset(1e-12));
        assertThat(ModelFit.rSquared(new double[] {1, 2, 3}, new double[] {1, 3, 2})).isCloseTo(0.25, offset(1e-12));
        assertThat(ModelFit.rSquared(new double[] {1, 2}, new double[] {1, 2})).isNaN();
        assertThat(ModelFit.rSquared(new double[] {1, 1, 1}, new double[] {1, 2, 3})).isNaN();
    }

    @Test
    void ycsbsReportIsParsed() {
        YcsbReport r = YcsbReport.parse("""
                Loading workload...
                [OVERALL], RunTime(ms), 2000
                [OVERALL], Throughput(ops/sec), 1500.5
                [INSERT], Operations, 3000
                [INSERT], AverageLatency(us), 30.25
                [INSERT], 50thPercentileLatency(us), 12
                [INSERT], 99.9PercentileLatency(us), 900
                [INSERT], Return=OK, 2990
                [INSERT], Return=ERROR, 10
                [CLEANUP], MaxLatency(us), 5.5E3
                """);
        assertThat(r.throughput()).isEqualTo(1500.5);
        assertThat(r.latency("INSERT", "50")).isEqualTo(12);
        assertThat(r.latency("INSERT", "99.9")).isEqualTo(900);
        assertThat(r.latency("INSERT", "99")).isNaN();
        assertThat(r.averageLatency("INSERT")).isEqualTo(30.25);
        assertThat(r.averageLatency("READ")).isNaN();
        assertThat(r.ok("INSERT")).isEqualTo(2990);
        assertThat(r.failed("INSERT")).isEqualTo(10);
        assertThat(r.get("CLEANUP", "MaxLatency(us)")).isEqualTo(5500);
    }

    @Test
    void cellsAreParsedAndCheckedBeforeAnythingRuns() {
        Cell c = Cell.parse("binomial:k=6", "ssd");
        assertThat(c.system()).isEqualTo(GridSystem.LSM);
        assertThat(c.parameter()).isEqualTo(6);
        assertThat(c.simulatable()).isTrue();
        assertThat(Cell.parse("lsm:leveled:size-ratio=8", "none").simulatable()).isFalse();
        assertThat(Cell.parse("lsm:leveled:size-ratio=8", "none").parameter()).isEqualTo(8);
        Cell h = Cell.parse("hyracks:prefix", "none");
        assertThat(h.family()).isEqualTo("hyracks-prefix");
        assertThat(h.simulatable()).isFalse();
        assertThat(Cell.parse("hyracks:minlatency:k=5", "hdd").simulatable()).isTrue();
        assertThat(Cell.parse("rocksdb:universal:size-ratio=4", "none").parameter()).isEqualTo(4);
        assertThat(Cell.parse("lsm:binomial:k=6", "none").fileName()).isEqualTo("lsm_binomial_k=6_none");
        assertThatThrownBy(() -> Cell.parse("binomial:k=0", "none")).hasMessageContaining("k");
        assertThatThrownBy(() -> Cell.parse("nosuch", "none")).hasMessageContaining("nosuch");
        assertThatThrownBy(() -> Cell.parse("rocksdb:tiered", "none")).hasMessageContaining("leveled or universal");
        assertThatThrownBy(() -> Cell.parse("lsm", "none")).hasMessageContaining("no policy");
        assertThatThrownBy(() -> Cell.parse("binomial:k=4", "nvme")).hasMessageContaining("none, ssd, hdd");
    }

    @Test
    void eachSystemGetsItsOwnProperties() {
        java.nio.file.Path d = java.nio.file.Path.of("/d");
        assertThat(GridSystem.LSM.properties("binomial:k=4", d, "256KB", "off", "ssd")).containsExactly(
                "lsm.dir=/d", "lsm.memtable.size=256KB", "lsm.device=ssd", "lsm.policy=binomial:k=4", "lsm.wal=off",
                "lsm.mergeorder=FLUSH_THEN_MERGE");
        assertThat(GridSystem.ROCKSDB.properties("universal:size-ratio=4", d, "256KB", "off", "none"))
                .contains("rocksdb.compaction=universal", "rocksdb.size-ratio=4", "rocksdb.wal=off",
                        "rocksdb.target-file-bytes=262144");
        assertThat(GridSystem.ROCKSDB.properties("leveled", d, "256KB", "off", "none"))
                .contains("rocksdb.base-level-bytes=1048576");
        assertThat(GridSystem.HYRACKS.properties("prefix", d, "256KB", "off", "hdd"))
                .contains("hyracks.policy=prefix", "hyracks.device=hdd").noneMatch(p -> p.contains("wal"));
        assertThat(TraceFile.PROPERTY).isEqualTo("bench.trace.file");
    }
}
