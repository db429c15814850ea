package io.lsmpolicies.bench.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.ycsb.TraceFile;
import io.lsmpolicies.ycsb.TraceFile.Event;
import io.lsmpolicies.ycsb.TraceFile.Row;
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
                "lsm.dir=/d", "lsm.memtable.size=256KB", "lsm.device=ssd", "lsm.policy=binomial:k=4", "lsm.wal=off");
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
