package io.lsmpolicies.merge.policy;

import static io.lsmpolicies.merge.sim.Schedules.oldestFirst;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.RegisteredStackPolicies;
import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.FlushSizes;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Policy state is small, versioned, and a restart from its encoding continues the same schedule. */
class PolicyStateTest {

    @Test
    void flushCountRoundTripsAndRejectsDamagedEncodings() {
        MergePolicy binomial = MergePolicies.parse("binomial:k=4");
        FlushCount state = new FlushCount(123_456_789_012L, 123_456_789_000L);
        byte[] bytes = state.encode();
        assertThat(bytes).hasSize(17);
        assertThat(binomial.decodeState(bytes)).isEqualTo(state);
        assertThatThrownBy(() -> binomial.decodeState(new byte[16])).hasMessageContaining("'binomial'")
                .hasMessageContaining("17 bytes, was 16");
        byte[] badVersion = bytes.clone();
        badVersion[0] = 9;
        assertThatThrownBy(() -> binomial.decodeState(badVersion)).hasMessageContaining("unknown flush-count state "
                + "version 9");
        byte[] decidedAhead = new FlushCount(5, 5).encode();
        decidedAhead[16] = 6; // decided = 6 > flushes = 5
        assertThatThrownBy(() -> binomial.decodeState(decidedAhead)).hasMessageContaining("'binomial'")
                .hasMessageContaining("decided=6, flushes=5");
        MergePolicy constant = MergePolicies.parse("constant:k=4");
        assertThat(constant.initialState().encode()).isEmpty();
        assertThatThrownBy(() -> constant.decodeState(bytes)).hasMessageContaining("'constant' keeps no state");
        assertThatThrownBy(() -> binomial.decide(TreeView.stackOf(List.of()), constant.initialState()))
                .hasMessageContaining("'binomial' expects a flush-count state");
    }

    /**
     * An independent driver of the SPI protocol that "restarts" after flush {@code restartAt}: the policy is
     * created anew from its name and parameters and its state decoded from the encoded bytes.
     */
    private static List<List<Long>> runWithRestart(String spec, FlushSizes sizes, int flushes, int restartAt) {
        MergePolicy policy = MergePolicies.parse(spec);
        PolicyState state = policy.initialState();
        List<SortedRun> newestFirst = new ArrayList<>();
        List<List<Long>> after = new ArrayList<>();
        long id = 1;
        for (int t = 1; t <= flushes; t++) {
            long size = sizes.next();
            newestFirst.add(0, SortedRun.of(SSTableInfo.builder(id++).bytes(size).flush(t).build()));
            state = policy.onFlush(state, TreeView.stack(newestFirst));
            while (true) {
                Decision d = policy.decide(TreeView.stack(newestFirst), state);
                state = d.state();
                if (d.jobs().isEmpty()) {
                    break;
                }
                for (MergeJob job : d.jobs()) {
                    int at = newestFirst.indexOf(SortedRun.of(job.inputs().get(0)));
                    newestFirst.subList(at, at + job.inputs().size()).clear();
                    SSTableInfo oldest = job.inputs().get(job.inputs().size() - 1);
                    newestFirst.add(at, SortedRun.of(SSTableInfo.builder(id++).bytes(job.inputBytes())
                            .flushes(oldest.minFlushIndex(), job.inputs().get(0).maxFlushIndex()).build()));
                }
            }
            after.add(oldestFirst(TreeView.stack(newestFirst)));
            if (t == restartAt) {
                byte[] persisted = state.encode();
                policy = MergePolicies.parse(spec);
                state = policy.decodeState(persisted);
            }
        }
        return after;
    }

    /**
     * Every registered stack policy: with k = 3 or size ratio 3 where it takes one; prefix's size bound is in
     * flush-size units.
     */
    static Stream<String> restartedPolicies() {
        return RegisteredStackPolicies.names().stream().map(name -> name.equals("prefix")
                ? "prefix:max-mergable-component-size=5000,max-tolerance-component-count=4"
                : RegisteredStackPolicies.takes(name, "k") ? name + ":k=3"
                : RegisteredStackPolicies.takes(name, "size-ratio") ? name + ":size-ratio=3" : name);
    }

    @ParameterizedTest
    @MethodSource("restartedPolicies")
    void aRestartFromTheEncodedStateContinuesTheSameSchedule(String spec) {
        int n = 3000;
        List<List<Long>> continuous = new ArrayList<>();
        new Simulator(MergePolicies.parse(spec), FlushSizeSources.parse("uniform:1:100", 3), 3)
                .run(n, step -> continuous.add(oldestFirst(step.view())));
        for (int restartAt : new int[] {1, 7, 100, 1234}) {
            assertThat(runWithRestart(spec, FlushSizeSources.parse("uniform:1:100", 3), n, restartAt))
                    .as("%s restarted after flush %d", spec, restartAt).isEqualTo(continuous);
        }
    }
}
