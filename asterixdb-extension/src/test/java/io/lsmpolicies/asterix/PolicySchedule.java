package io.lsmpolicies.asterix;

import io.lsmpolicies.merge.hyracks.HyracksMergePolicy;
import io.lsmpolicies.merge.hyracks.StackMergePolicyFactory;
import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.SimulationStep;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What our policy's schedule is after a number of flushes, computed without AsterixDB: the policy object a
 * factory creates from AsterixDB parameters (the one the NC runs) driven by our {@link Simulator}. Valid for the
 * policies whose decisions do not depend on component sizes (Binomial, MinLatency, Constant, Tiered): every
 * flush is given the same size.
 */
final class PolicySchedule {
    private final MergePolicy policy;

    PolicySchedule(StackMergePolicyFactory factory, Map<String, String> asterixParameters) {
        this.policy = ((HyracksMergePolicy) factory.createMergePolicy(asterixParameters, null)).policy();
    }

    /** The components after {@code flushes} flushes and all their merges, as flush ranges, oldest first. */
    List<String> after(long flushes) {
        List<SimulationStep> last = new ArrayList<>(1);
        new Simulator(policy, FlushSizeSources.constant(1), 0).run(flushes, step -> {
            if (step.flush() == flushes) {
                last.add(step);
            }
        });
        List<String> ranges = new ArrayList<>();
        List<SortedRun> newestFirst = last.get(0).view().level0Runs();
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            for (SSTableInfo t : newestFirst.get(i).tables()) {
                ranges.add(t.minFlushIndex() == t.maxFlushIndex() ? Long.toString(t.minFlushIndex())
                        : t.minFlushIndex() + "-" + t.maxFlushIndex());
            }
        }
        return ranges;
    }
}
