package io.lsmpolicies.merge.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.RegisteredStackPolicies;
import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.SimulationStep;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Properties every stack policy must keep, on random flush sizes, checked after every flush. The policies are the
 * registered stack policies: one that takes {@code k} runs at several k and keeps at most k SSTables, one that
 * takes {@code size-ratio} runs at several ratios, any other with its defaults or the parameters below.
 */
class StackPolicyPropertiesTest {
    /** Parameters a policy's defaults would not exercise here: prefix's size bound is in flush-size units. */
    private static final Map<String, String> SPECS = Map.of(
            "prefix", "prefix:max-mergable-component-size=20000,max-tolerance-component-count=5");

    static Stream<Arguments> runs() {
        List<Arguments> out = new ArrayList<>();
        for (String sizes : List.of("uniform:1:1000", "normal:100:80", "constant:1")) {
            for (String name : RegisteredStackPolicies.names()) {
                if (SPECS.containsKey(name)) {
                    out.add(Arguments.of(SPECS.get(name), sizes, Integer.MAX_VALUE));
                } else if (RegisteredStackPolicies.takes(name, "k")) {
                    for (int k : new int[] {1, 2, 3, 5, 10}) {
                        out.add(Arguments.of(name + ":k=" + k, sizes, k));
                    }
                } else if (RegisteredStackPolicies.takes(name, "size-ratio")) {
                    for (int b : new int[] {2, 3, 4, 10}) {
                        out.add(Arguments.of(name + ":size-ratio=" + b, sizes, Integer.MAX_VALUE));
                    }
                } else {
                    out.add(Arguments.of(name, sizes, Integer.MAX_VALUE));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("runs")
    void boundedStableAndDeterministic(String spec, String sizes, int k) {
        MergePolicy policy = MergePolicies.parse(spec);
        List<SimulationStep> first = new ArrayList<>();
        new Simulator(policy, FlushSizeSources.parse(sizes, 11), 11).run(3000, step -> {
            first.add(step);
            List<SortedRun> stack = step.view().level0Runs();
            // Bounded depth.
            assertThat(stack.size()).as("SSTables after flush %d", step.flush()).isLessThanOrEqualTo(k);
            // Stability: newest first, each SSTable holds a contiguous range of flushes, ranges adjacent.
            long expectedMax = step.flush();
            for (SortedRun run : stack) {
                SSTableInfo t = run.first();
                assertThat(t.maxFlushIndex()).as("flush %d", step.flush()).isEqualTo(expectedMax);
                expectedMax = t.minFlushIndex() - 1;
            }
            assertThat(expectedMax).isZero();
            // Every merge takes at least two SSTables and is not lagging afterwards.
            for (MergeJob job : step.jobs()) {
                assertThat(job.inputs().size()).isGreaterThanOrEqualTo(2);
            }
            assertThat(policy.isMergeLagging(step.view(), step.state())).as("lagging after flush %d", step.flush())
                    .isFalse();
        });
        List<SimulationStep> second = new ArrayList<>();
        new Simulator(MergePolicies.parse(spec), FlushSizeSources.parse(sizes, 11), 11).run(3000, second::add);
        assertThat(second).extracting(s -> s.view().level0Runs().size())
                .isEqualTo(first.stream().map(s -> s.view().level0Runs().size()).toList());
        assertThat(second).extracting(s -> s.jobs().size())
                .isEqualTo(first.stream().map(s -> s.jobs().size()).toList());
    }
}
