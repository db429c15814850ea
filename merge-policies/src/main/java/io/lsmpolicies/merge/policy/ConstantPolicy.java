package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;

/**
 * Constant: with fewer than k SSTables, the flushed SSTable is simply added; otherwise the flushed
 * SSTable and all k SSTables are merged into one.
 *
 * <p>Definition: Mao et al., "Comparison and evaluation of state-of-the-art LSM merge policies", VLDB
 * Journal 2021, Sect. 2 ("Constant", AsterixDB's policy before version 0.9.4). Parameter {@code k}
 * (required, 1..1,000,000): the bound on the SSTable count. Lazy, eager, stable and bounded-depth;
 * its write amplification grows as O(t / k).
 */
public final class ConstantPolicy extends AbstractStackPolicy {
    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "constant";
    private final int k;

    ConstantPolicy(PolicyParameters parameters) {
        super(NAME, parameters);
        this.k = parameters.getInt("k");
    }

    @Override
    public Decision decide(TreeView view, PolicyState state) {
        List<SortedRun> stack = StackPolicies.stack(NAME, view);
        if (stack.size() <= k || view.anyCompacting()) {
            return Decision.none(state);
        }
        return Decision.of(StackPolicies.merge(stack, 0, stack.size() - 1,
                stack.size() + " SSTables > k=" + k + ": merge all"), state);
    }

    /** Lagging while the flushed SSTable has pushed the count above k and the merge has not finished. */
    @Override
    public boolean isMergeLagging(TreeView view, PolicyState state) {
        return StackPolicies.stack(NAME, view).size() > k;
    }
}
