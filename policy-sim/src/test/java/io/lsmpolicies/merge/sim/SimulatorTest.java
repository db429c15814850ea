package io.lsmpolicies.merge.sim;

import static io.lsmpolicies.merge.TestPolicies.policy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

class SimulatorTest {

    private static SimulationResult run(MergePolicy policy, String sizes, long flushes) {
        return new Simulator(policy, FlushSizeSources.parse(sizes, 1), 1).run(flushes);
    }

    @Test
    void noMergeHasWriteAmplificationOneAndOneSSTablePerFlush() {
        SimulationResult r = run(policy("no-merge"), "uniform:1:9", 1000);
        assertThat(r.writeAmplification()).isEqualTo(1.0);
        assertThat(r.modelWriteAmplification()).isEqualTo(1.0);
        assertThat(r.maxComponentCount()).isEqualTo(1000);
        assertThat(r.averageComponentCount()).isEqualTo(500.5);
        assertThat(r.merges()).isZero();
        assertThat(r.transientSpaceAmplification()).isEqualTo(1.0);
    }

    @Test
    void constantWithKOneCountsBothConventionsExactly() {
        // k = 1, unit flushes: flush t merges the flush with the one SSTable of size t - 1 (from t = 2).
        // Engine: n flushed + sum_{t=2..n} t = n + n(n+1)/2 - 1. Model: the flush is not charged when merged.
        int n = 100;
        SimulationResult r = run(policy("constant", "k", 1), "constant:1", n);
        double mergeOut = n * (n + 1) / 2.0 - 1;
        assertThat(r.mergeOutputBytes()).isEqualTo((long) mergeOut);
        assertThat(r.writeAmplification()).isCloseTo((n + mergeOut) / n, within(1e-12));
        assertThat(r.modelWriteAmplification()).isCloseTo((n + mergeOut - (n - 1)) / n, within(1e-12));
        assertThat(r.merges()).isEqualTo(n - 1);
        assertThat(r.averageComponentCount()).isEqualTo(1.0);
        // At flush n, the SSTable of n - 1 and the flush (1) merge into n: (n + n) / n = 2.
        assertThat(r.transientSpaceAmplification()).isEqualTo(2.0);
    }

    @Test
    void tieredTransientSpaceIsTheLargestMergeOverFlushedSoFar() {
        // B = 2, 4 unit flushes: the cascade at flush 4 merges 2+2 while only 4 bytes exist: (4 + 4) / 4.
        SimulationResult r = run(policy("tiered", "size-ratio", 2), "constant:1", 4);
        assertThat(r.transientSpaceAmplification()).isEqualTo(2.0);
        assertThat(r.merges()).isEqualTo(3);
        // Engine: 4 flushed + merges 2 (flush 2), 2 and 4 (the cascade at flush 4).
        assertThat(r.mergeOutputBytes()).isEqualTo(2 + 2 + 4);
        assertThat(r.writeAmplification()).isCloseTo((4 + 8) / 4.0, within(1e-12));
        // Model: the SSTables new after each step: {1}, {1,2}, {3}, {1..4} -> 1 + 2 + 1 + 4. The flushes merged
        // at once and the cascade's intermediate {3,4} never exist at the end of a step.
        assertThat(r.modelWriteAmplification()).isCloseTo(8 / 4.0, within(1e-12));
    }

    @Test
    void stepsReportEachFlushItsMergesAndTheStackAfterwards() {
        List<SimulationStep> steps = new ArrayList<>();
        new Simulator(policy("binomial", "k", 4), FlushSizeSources.constant(3), 0).run(5, steps::add);
        assertThat(steps).extracting(SimulationStep::flush).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(steps).extracting(SimulationStep::componentCount).containsExactly(1, 1, 2, 2, 1);
        assertThat(steps.get(4).jobs()).hasSize(1);
        assertThat(steps.get(4).mergeBytes()).isEqualTo(15);
        assertThat(steps.get(4).view().level0Runs().get(0).first().flushSpan()).isEqualTo(5);
    }

    @Test
    void runsAreDeterministicForASeed() {
        for (String sizes : List.of("uniform:1:1000", "normal:100:50")) {
            SimulationResult a = new Simulator(policy("exploring", "k", 4), FlushSizeSources.parse(sizes, 9), 9)
                    .run(5000);
            SimulationResult b = new Simulator(policy("exploring", "k", 4), FlushSizeSources.parse(sizes, 9), 9)
                    .run(5000);
            SimulationResult c = new Simulator(policy("exploring", "k", 4), FlushSizeSources.parse(sizes, 10), 10)
                    .run(5000);
            assertThat(a).isEqualTo(b);
            assertThat(a.flushedBytes()).isNotEqualTo(c.flushedBytes());
        }
    }

    /** A policy that answers with {@code answer(view, t)} once per flush. */
    private static MergePolicy rogue(BiFunction<List<SortedRun>, Long, MergeJob> answer) {
        return new MergePolicy() {
            private long flushes;

            @Override
            public String name() {
                return "rogue";
            }

            @Override
            public PolicyParameters parameters() {
                return new PolicyParameters("rogue", Map.of());
            }

            @Override
            public PolicyState initialState() {
                return () -> new byte[0];
            }

            @Override
            public PolicyState decodeState(byte[] encoded) {
                return initialState();
            }

            @Override
            public PolicyState onFlush(PolicyState state, TreeView view) {
                flushes++;
                return state;
            }

            private long decided;

            @Override
            public Decision decide(TreeView view, PolicyState state) {
                if (decided == flushes) {
                    return Decision.none(state);
                }
                decided = flushes;
                MergeJob job = answer.apply(view.level0Runs(), flushes);
                return job == null ? Decision.none(state) : Decision.of(job, state);
            }
        };
    }

    @Test
    void rejectsAMergeOfNonContiguousSSTables() {
        MergePolicy unstable = rogue((stack, t) -> t < 3 ? null
                : MergeJob.stackMerge(List.of(stack.get(0).first(), stack.get(2).first()), "skip one"));
        assertThatThrownBy(() -> run(unstable, "constant:1", 5)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("rogue").hasMessageContaining("flush 3").hasMessageContaining("not contiguous");
    }

    @Test
    void rejectsJobsTheStackModelCannotRun() {
        MergePolicy leveled = rogue((stack, t) -> new MergeJob(List.of(stack.get(0).first()), 1,
                OutputCut.SINGLE_FILE, MergeKind.TRIVIAL_MOVE, "move"));
        assertThatThrownBy(() -> run(leveled, "constant:1", 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("TRIVIAL_MOVE").hasMessageContaining("level 1");
        MergePolicy virtual = rogue((stack, t) -> new MergeJob(List.of(stack.get(0).first()), 0,
                OutputCut.SINGLE_FILE, MergeKind.VIRTUAL, "delayed"));
        assertThatThrownBy(() -> run(virtual, "constant:1", 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("asked for a VIRTUAL into level 0")
                .hasMessageContaining("the stack model runs only real merges into level 0");
        MergePolicy ghost = rogue((stack, t) -> MergeJob.stackMerge(
                List.of(SSTableInfo.builder(999).flush(1).build()), "unknown"));
        assertThatThrownBy(() -> run(ghost, "constant:1", 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("[999]");
    }

    @Test
    void rejectsBadRunArguments() {
        Simulator s = new Simulator(policy("no-merge"), FlushSizeSources.constant(1), 0);
        assertThatThrownBy(() -> s.run(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("flushes must be >= 1");
        FlushSizes negative = new FlushSizes() {
            @Override
            public long next() {
                return -5;
            }

            @Override
            public long remaining() {
                return Long.MAX_VALUE;
            }

            @Override
            public String describe() {
                return "broken";
            }
        };
        assertThatThrownBy(() -> new Simulator(policy("no-merge"), negative, 0).run(3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flush 1")
                .hasMessageContaining("negative size -5");
    }

    @Test
    void leveledPoliciesAreRefusedWithTheStackPoliciesNamed() {
        assertThatThrownBy(() -> new Simulator(policy("leveled"), FlushSizeSources.constant(1), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("policy 'leveled' is a leveled policy; the simulator runs only stack policies "
                        + "(adaptive, bigtable, binomial, constant,");
        assertThatThrownBy(() -> new Simulator(policy("delayed"), FlushSizeSources.constant(1), 0))
                .as("delayed compaction writes virtual SSTables, which the stack model has not")
                .hasMessageStartingWith("policy 'delayed' is a leveled policy; the simulator runs only stack policies");
        Simulator.requireStack(policy("binomial", "k", 3));
    }
}
