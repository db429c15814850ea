package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;

/**
 * Tiered (size-tiered, Cassandra's default): each tier holds at most B SSTables, each B times the size of
 * those in the tier above; when a tier has B SSTables they are merged into one SSTable of the next tier,
 * cascading.
 *
 * <p>Definition: Mao et al., VLDB Journal 2021, Sect. 2 ("Tiered and Leveled"). Parameter
 * {@code size-ratio} (B, default 4, 2..1,000,000).
 *
 * <p>Tiers are counted in flushes, not bytes: an SSTable holding the data of f flushes
 * ({@link io.lsmpolicies.merge.spi.SSTableInfo#flushSpan()}) belongs to tier floor(log_B f). With uniform
 * flushes this is exactly the size rule; with varying flush sizes or updates it keeps the schedule of the
 * model (a merge every B flushes, cascades every B^j) instead of one that jitters with sizes. The newest
 * tier with at least B contiguous SSTables has its B oldest merged; asked again after the merge, the policy
 * continues the cascade. Unbounded depth (about B log_B n SSTables), so never lagging.
 */
public final class TieredPolicy extends AbstractStackPolicy {
    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "tiered";
    private final int ratio;

    TieredPolicy(PolicyParameters parameters) {
        super(NAME, parameters);
        this.ratio = parameters.getInt("size-ratio");
    }

    @Override
    public Decision decide(TreeView view, PolicyState state) {
        List<SortedRun> stack = StackPolicies.stack(NAME, view);
        if (view.anyCompacting()) {
            return Decision.none(state);
        }
        int s = stack.size();
        int[] tiers = new int[s];
        int i = 0;
        for (SortedRun run : stack) {
            tiers[i++] = tier(run.first().flushSpan());
        }
        for (int start = 0; start < s; ) {
            int end = start;
            while (end + 1 < s && tiers[end + 1] == tiers[start]) {
                end++;
            }
            if (end - start + 1 >= ratio) {
                return Decision.of(StackPolicies.merge(stack, end - ratio + 1, end,
                        "tier " + tiers[start] + " holds " + (end - start + 1) + " SSTables"), state);
            }
            start = end + 1;
        }
        return Decision.none(state);
    }

    /** floor(log_B(flushSpan)), in integers. */
    int tier(long flushSpan) {
        int tier = 0;
        long span = flushSpan;
        while (span >= ratio) {
            span /= ratio;
            tier++;
        }
        return tier;
    }
}
