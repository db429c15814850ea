package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;

/**
 * Bigtable: with fewer than k SSTables, the flushed SSTable is added; otherwise it is merged with the i
 * newest SSTables, for the smallest i such that afterwards every SSTable is strictly larger than the sum
 * of all newer ones (roughly: each SSTable at most half the size of the next older one).
 *
 * <p>Definition: Mao et al., VLDB Journal 2021, Sect. 2 ("Bigtable"), after Mathieu et al. Parameter
 * {@code k} (required, 1..1,000,000). Lazy, eager, stable and bounded-depth.
 *
 * <p>Implementation: with sizes x_0 (flushed), x_1, ... newest first and prefix sums P, merging positions
 * 0..i leaves position q &gt; i satisfying the rule iff x_q &gt; P(q - 1); so i is the largest violating q
 * (at least 1), found in one pass.
 */
public final class BigtablePolicy extends AbstractStackPolicy {
    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "bigtable";
    private final int k;

    BigtablePolicy(PolicyParameters parameters) {
        super(NAME, parameters);
        this.k = parameters.getInt("k");
    }

    @Override
    public Decision decide(TreeView view, PolicyState state) {
        List<SortedRun> stack = StackPolicies.stack(NAME, view);
        if (stack.size() <= k || view.anyCompacting()) {
            return Decision.none(state);
        }
        long[] x = StackPolicies.sizes(stack);
        int i = 1;
        long newer = x[0];
        for (int q = 1; q < x.length; q++) {
            if (x[q] <= newer) {
                i = q;
            }
            newer += x[q];
        }
        return Decision.of(StackPolicies.merge(stack, 0, i,
                stack.size() + " SSTables > k=" + k + ": merge flushed with " + i + " newest"), state);
    }

    /** Lagging while the flushed SSTable has pushed the count above k and the merge has not finished. */
    @Override
    public boolean isMergeLagging(TreeView view, PolicyState state) {
        return StackPolicies.stack(NAME, view).size() > k;
    }
}
