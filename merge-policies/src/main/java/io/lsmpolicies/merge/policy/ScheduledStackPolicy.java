package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;

/**
 * A static stack-based policy (Mathieu et al.): the merge after flush t depends only on k and t. After
 * flush t the schedule names i = {@link #target}; the policy merges the i-th oldest SSTable with all newer
 * ones (the flushed one included), leaving i SSTables, or does nothing if at most i exist.
 *
 * <p>The only state is the flush counter t ({@link FlushCount}), so decisions are idempotent: asked again
 * after the merge, the policy finds i SSTables and answers nothing.
 */
abstract class ScheduledStackPolicy extends AbstractStackPolicy {
    final int k;

    ScheduledStackPolicy(String name, PolicyParameters parameters) {
        super(name, parameters);
        this.k = parameters.getInt("k");
    }

    /** The number of SSTables the schedule leaves after flush {@code t >= 1}; in [1, k]. */
    abstract int target(long t);

    @Override
    public final PolicyState initialState() {
        return FlushCount.ZERO;
    }

    @Override
    public final PolicyState decodeState(byte[] encoded) {
        return FlushCount.decode(name(), encoded);
    }

    @Override
    public final PolicyState onFlush(PolicyState state, TreeView view) {
        return FlushCount.of(name(), state).nextFlush();
    }

    @Override
    public final Decision decide(TreeView view, PolicyState state) {
        long t = FlushCount.of(name(), state).flushes();
        List<SortedRun> stack = StackPolicies.stack(name(), view);
        if (t == 0) {
            return Decision.none(state);
        }
        int i = target(t);
        int s = stack.size();
        // The O(stack) scan for running merges comes last: with k far above t the stack holds t SSTables.
        if (s <= i || view.anyCompacting()) {
            return Decision.none(state);
        }
        // The i-th oldest SSTable sits at newest-first position s - i.
        return Decision.of(StackPolicies.merge(stack, 0, s - i,
                "flush " + t + ": schedule keeps " + i + " SSTable(s)"), state);
    }

    /** Lagging while the merge the schedule asks for after the latest flush has not been installed. */
    @Override
    public final boolean isMergeLagging(TreeView view, PolicyState state) {
        long t = FlushCount.of(name(), state).flushes();
        return t > 0 && StackPolicies.stack(name(), view).size() > target(t);
    }
}
