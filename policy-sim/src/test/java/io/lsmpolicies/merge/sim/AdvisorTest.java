package io.lsmpolicies.merge.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The advisor's ranking on inputs small enough to work out by hand, and its input readers. */
class AdvisorTest {

    private static Map<String, MergePolicy> few() {
        Map<String, MergePolicy> m = new LinkedHashMap<>();
        m.put("no-merge", MergePolicies.create("no-merge", Map.of()));
        m.put("constant k=1", MergePolicies.create("constant", Map.of("k", 1)));
        m.put("constant k=2", MergePolicies.create("constant", Map.of("k", 2)));
        return m;
    }

    @Test
    void withoutReadsNeverMergingIsCheapestAndOptimal() {
        // 4 flushes of 100 bytes, no reads. no-merge writes each flush once: 400 = the optimum. constant k=1
        // keeps one SSTable: it creates [1], [1..2], [1..3], [1..4]: 100 + 200 + 300 + 400 = 1000.
        AdvisorWorkload w = new AdvisorWorkload(new long[] {100, 100, 100, 100}, new long[4], 1, "literal", "");
        Advisor.Advice a = Advisor.advise(w, few(), OfflineOptimum.DEFAULT_EXACT_LIMIT);
        assertThat(a.optimum().cost()).isEqualTo(400);
        assertThat(a.recommended().label()).isEqualTo("no-merge");
        assertThat(a.recommended().spec()).isEqualTo("no-merge");
        assertThat(a.recommended().vsOptimum()).isEqualTo(1.0);
        assertThat(a.ranking().get(2).label()).isEqualTo("constant k=1");
        assertThat(a.ranking().get(2).result().totalCost()).isEqualTo(1000);
        assertThat(a.ranking().get(2).vsOptimum()).isEqualTo(2.5);
        assertThat(a.reason()).contains("no-merge has the least predicted total cost, 1.000x the optimum")
                .contains("no reads");
    }

    @Test
    void readHeavyRanksOneSSTableFirstAndNeverMergingLast() {
        // 3 flushes of 100 bytes, 1000 reads after each, a probe costs 1 byte.
        // constant k=1: merge cost 100 + 200 + 300 = 600, read cost 1000 x (1 + 1 + 1) = 3000: 3600 (optimal).
        // constant k=2: [1]; [1],[2]; then 3 SSTables -> merge all: [1..3]. Merge cost 100 + 100 + 300 = 500,
        //   read cost 1000 x (1 + 2 + 1) = 4000: 4500.
        // no-merge: merge cost 300, read cost 1000 x (1 + 2 + 3) = 6000: 6300.
        AdvisorWorkload w = new AdvisorWorkload(new long[] {100, 100, 100}, new long[] {1000, 1000, 1000}, 1,
                "literal", "");
        Advisor.Advice a = Advisor.advise(w, few(), OfflineOptimum.DEFAULT_EXACT_LIMIT);
        assertThat(a.optimum().cost()).isEqualTo(3600);
        assertThat(a.ranking()).extracting(Advisor.Ranked::label)
                .containsExactly("constant k=1", "constant k=2", "no-merge");
        assertThat(a.ranking()).extracting(r -> r.result().totalCost()).containsExactly(3600L, 4500L, 6300L);
        assertThat(a.ranking()).extracting(Advisor.Ranked::vsOptimum).containsExactly(1.0, 1.25, 1.75);
        // Probes per read: 1; (1 + 2 + 1) / 3; (1 + 2 + 3) / 3.
        assertThat(a.ranking()).extracting(Advisor.Ranked::readAmplification)
                .containsExactly(1.0, 4.0 / 3, 2.0);
        assertThat(a.recommended().spec()).isEqualTo("constant:k=1");
        assertThat(a.reason()).contains("the next, constant k=2, costs 25.0% more").contains("reads are 83%");
    }

    @Test
    void defaultCandidatesAreAdaptiveAndTheStaticGrid() {
        Map<String, MergePolicy> c = Advisor.candidates(512);
        assertThat(c.keySet().iterator().next()).isEqualTo("adaptive read-cost=512");
        assertThat(c).containsKeys("binomial k=3", "tiered size-ratio=4", "no-merge")
                .hasSize(FamilyEvaluation.staticGrid().size() + 1);
        assertThat(Advisor.candidates(Simulator.DEFAULT_READ_COST_BYTES)).containsKey("adaptive");
    }

    @Test
    void plainTraceWithAndWithoutReads(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("t.txt");
        Files.writeString(f, "# length reads\n100 5\n200,0\n\n300 7\n");
        AdvisorWorkload w = AdvisorInputs.trace(f, 4096);
        assertThat(w.lengths()).containsExactly(100, 200, 300);
        assertThat(w.reads()).containsExactly(5, 0, 7);
        assertThat(w.notes()).isEmpty();
        Files.writeString(f, "100\n200\n");
        assertThat(AdvisorInputs.trace(f, 4096).notes()).contains("no read counts");
        Files.writeString(f, "100\n2x0\n");
        assertThatThrownBy(() -> AdvisorInputs.trace(f, 4096)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2").hasMessageContaining("'2x0'");
        Files.writeString(f, "1 2 3\n");
        assertThatThrownBy(() -> AdvisorInputs.trace(f, 4096)).hasMessageContaining("line 1")
                .hasMessageContaining("LENGTH or LENGTH READS");
    }

    @Test
    void ycsbTraceGivesFlushLengthsAsDifferences(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("trace.csv");
        Files.writeString(f, "event,flushes,flushed_bytes,written_bytes,components,disk_bytes\n"
                + "flush,1,1000,1000,1,1000\nflush,2,2500,2500,2,2500\nflush,3,2600,5100,1,5100\n"
                + "end,3,2600,5100,1,2600\n");
        AdvisorWorkload w = AdvisorInputs.trace(f, 4096);
        assertThat(w.lengths()).containsExactly(1000, 1500, 100);
        assertThat(w.reads()).containsExactly(0, 0, 0);
        assertThat(w.notes()).contains("YCSB trace has no read counts");
    }

    @Test
    void ycsbWorkloadSpreadsTheRunPhasesReadsOverItsFlushes(@TempDir Path dir) throws IOException {
        // One field of 71 bytes: a record is 23 + 71 + 6 = 100 bytes. 100 records: 10,000 bytes, 10 flushes of
        // 1,000. Then 100 operations, half reads, half whole-record updates: 5,000 bytes (5 flushes) and 50
        // reads, at byte positions 10,050, 10,150, ..., 14,950: ten after each of flushes 10 to 14.
        Path f = dir.resolve("workload");
        Files.writeString(f, "recordcount=100\noperationcount=100\nfieldcount=1\nfieldlength=71\n"
                + "readproportion=0.5\nupdateproportion=0.5\nwriteallfields=true\n");
        AdvisorWorkload w = AdvisorInputs.ycsb(f, -1, 1000, 4096);
        assertThat(w.lengths()).hasSize(15).containsOnly(1000);
        assertThat(w.reads()).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 10, 10, 10, 10, 0);
    }

    @Test
    void ycsbReadOnlyWorkloadReadsAfterTheLoad(@TempDir Path dir) throws IOException {
        // Workload C: 25 records of 100 bytes (given on the command line, overriding the file's 1,000): 2,500
        // bytes, two full flushes and a last one of 500 at close; all 30 reads come after flush 2.
        Path f = dir.resolve("workloadc");
        Files.writeString(f, "recordcount=1000\noperationcount=30\nfieldcount=1\nfieldlength=71\n"
                + "readproportion=1\nupdateproportion=0\n");
        AdvisorWorkload w = AdvisorInputs.ycsb(f, 25, 1000, 4096);
        assertThat(w.lengths()).containsExactly(1000, 1000, 500);
        assertThat(w.reads()).containsExactly(0, 30, 0);
        Files.writeString(f, "readproportion=2\n");
        assertThatThrownBy(() -> AdvisorInputs.ycsb(f, 25, 1000, 4096))
                .hasMessageContaining("readproportion=2").hasMessageContaining("[0, 1]");
    }

    @Test
    void emptyOrMismatchedWorkloadIsRefused() {
        assertThatThrownBy(() -> new AdvisorWorkload(new long[0], new long[0], 1, "x", ""))
                .hasMessageContaining("no flush");
        assertThatThrownBy(() -> new AdvisorWorkload(new long[] {1}, new long[] {1, 2}, 1, "x", ""))
                .hasMessageContaining("1 flush lengths but 2 read counts");
    }
}
