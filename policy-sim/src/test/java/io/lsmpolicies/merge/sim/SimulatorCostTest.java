package io.lsmpolicies.merge.sim;

import static io.lsmpolicies.merge.TestPolicies.policy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cost model with reads: merge cost, read cost and total cost of a simulation. */
class SimulatorCostTest {

    private static SimulationResult run(MergePolicy policy, long[] sizes, long[] reads, long readCost) {
        return new Simulator(policy, FlushSizeSources.of(sizes, "test"), ReadCountSources.of(reads, "reads"), readCost,
                0).run(sizes.length);
    }

    @Test
    void noMergeReadsProbeEverySSTable() {
        // Counts after steps 1..3 are 1, 2, 3: probes 1x1 + 0x2 + 2x3 = 7, at 10 bytes each.
        SimulationResult r = run(policy("no-merge"), new long[] {1, 2, 3}, new long[] {1, 0, 2}, 10);
        assertThat(r.mergeCost()).isEqualTo(6);
        assertThat(r.readCost()).isEqualTo(70);
        assertThat(r.totalCost()).isEqualTo(76);
        assertThat(r.reads()).isEqualTo("reads");
        assertThat(r.readCostBytes()).isEqualTo(10);
    }

    @Test
    void constantKOneMergesEverythingEveryStep() {
        // k = 1: one SSTable after every step; the merge at step t writes l_1 + ... + l_t, the flush once.
        long[] sizes = {3, 1, 4, 1, 5};
        SimulationResult r = run(policy("constant", "k", 1), sizes, new long[] {2, 2, 2, 2, 2}, 4096);
        assertThat(r.mergeCost()).isEqualTo(3 + 4 + 8 + 9 + 14);
        assertThat(r.readCost()).isEqualTo(5 * 2 * 4096);
        assertThat(r.totalCost()).isEqualTo(38 + 5 * 2 * 4096);
    }

    @Test
    void mergeCostIsTheNumeratorOfModelWriteAmplificationForEveryPolicy() {
        List<String> names = new ArrayList<>(MergePolicies.names(PolicyLayout.STACK));
        for (String name : names) {
            Map<String, Object> params = MergePolicies.factory(name).parameters().stream()
                    .anyMatch(p -> p.name().equals("k")) ? Map.of("k", 3) : Map.of();
            MergePolicy p = MergePolicies.create(name, params);
            List<SimulationStep> steps = new ArrayList<>();
            SimulationResult r = new Simulator(p, FlushSizeSources.uniform(1, 50, 9), ReadCountSources.constant(3),
                    100, 9).run(400, steps::add);
            assertThat((double) r.mergeCost()).as(name)
                    .isEqualTo(r.modelWriteAmplification() * r.flushedBytes(), org.assertj.core.api.Assertions
                            .within(1e-6 * r.mergeCost()));
            long probes = 0;
            for (SimulationStep s : steps) {
                probes += 3L * s.componentCount();
            }
            assertThat(r.readCost()).as(name).isEqualTo(probes * 100);
            SimulationStep last = steps.get(steps.size() - 1);
            assertThat(last.mergeCost()).as(name).isEqualTo(r.mergeCost());
            assertThat(last.readCost()).as(name).isEqualTo(r.readCost());
            assertThat(last.totalCost()).as(name).isEqualTo(r.totalCost());
            assertThat(last.reads()).isEqualTo(3);
        }
    }

    @Test
    void withoutReadsTotalCostIsMergeCost() {
        SimulationResult r = new Simulator(policy("binomial", "k", 4), FlushSizeSources.constant(7), 0).run(100);
        assertThat(r.readCost()).isZero();
        assertThat(r.totalCost()).isEqualTo(r.mergeCost());
        assertThat(r.reads()).isEqualTo("constant:0");
        assertThat(r.readCostBytes()).isEqualTo(Simulator.DEFAULT_READ_COST_BYTES);
    }

    @Test
    void rejectsTooFewReadsANegativeReadCostAndOverflow() {
        assertThatThrownBy(() -> run(policy("no-merge"), new long[] {1, 2, 3}, new long[] {1, 2}, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("reads 'reads' give read counts for only 2 flushes, but 3 flushes were asked for");
        assertThatThrownBy(() -> run(policy("no-merge"), new long[] {1}, new long[] {1}, -1))
                .hasMessage("read cost must be >= 0 bytes, was -1");
        assertThatThrownBy(() -> run(policy("no-merge"), new long[] {1, 1}, new long[] {Long.MAX_VALUE / 2, 1}, 4096))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds 2^63-1");
    }
}
