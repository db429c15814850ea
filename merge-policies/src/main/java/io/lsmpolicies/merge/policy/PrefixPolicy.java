package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;

/**
 * Prefix: Apache AsterixDB's default merge policy ({@code PrefixMergePolicy} in
 * hyracks-storage-am-lsm-common, AsterixDB 0.9.x). Mao et al. (VLDB Journal 2021) evaluate AsterixDB's
 * earlier default, Constant, not this one; the definition here is AsterixDB's code, restated.
 *
 * <p>Components larger than {@code max-mergable-component-size} are never merged again. Looking from
 * the oldest component to the newest, for each mergeable start component the policy extends a window
 * over the newer mergeable components and merges it as soon as its total size exceeds
 * {@code max-mergable-component-size}; if the window reaches the newest component and holds at least
 * {@code max-tolerance-component-count} components, it is merged too. Either way the start component
 * must be smaller than 1.2 times the sum of the others in the window (a fixed guard AsterixDB took from
 * HBase, so a large component is not rewritten for a few small ones); a start that cannot meet the guard
 * is skipped. Also as in AsterixDB, the search from a start gives up early once the guard could not hold
 * even if every remaining newer component were as large as the current one; that shortcut assumes newer
 * components are not larger, so with uneven sizes a start whose guard would hold later in the window is
 * skipped (e.g. [300, 5, 90, 95, 99] oldest first with the defaults merges nothing, though 300 &lt; 1.2 * 289).
 * We keep the shortcut so that our schedule is AsterixDB's.
 *
 * <p>Parameters (AsterixDB's names and defaults): {@code max-mergable-component-size} in bytes
 * (default 1 GiB = 1073741824, 1..2^63-1) and {@code max-tolerance-component-count} (default 5,
 * 2..1,000,000). Lagging (AsterixDB's flow control): a merge is running and at least
 * {@code max-tolerance-component-count} mergeable components wait. (AsterixDB's lagging check also
 * schedules a merge when none runs; here {@link #decide} is always asked after a flush, so it need not.)
 */
public final class PrefixPolicy extends AbstractStackPolicy {
    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "prefix";
    /** AsterixDB's fixed guard ratio (not configurable there either). */
    static final double START_RATIO = 1.2;

    private final long maxSize;
    private final int tolerance;

    PrefixPolicy(PolicyParameters parameters) {
        super(NAME, parameters);
        this.maxSize = parameters.getLong("max-mergable-component-size");
        this.tolerance = parameters.getInt("max-tolerance-component-count");
    }

    @Override
    public Decision decide(TreeView view, PolicyState state) {
        List<SortedRun> stack = StackPolicies.stack(NAME, view);
        if (view.anyCompacting()) {
            return Decision.none(state);
        }
        int[] window = findWindow(stack);
        if (window == null) {
            return Decision.none(state);
        }
        int s = stack.size();
        // window is [first, last] oldest first; newest-first positions are s-1-last .. s-1-first.
        return Decision.of(StackPolicies.merge(stack, s - 1 - window[1], s - 1 - window[0],
                "prefix of " + (window[1] - window[0] + 1) + " mergeable components"), state);
    }

    @Override
    public boolean isMergeLagging(TreeView view, PolicyState state) {
        if (!view.anyCompacting()) {
            return false;
        }
        int[] window = findWindow(StackPolicies.stack(NAME, view));
        return window != null && window[1] - window[0] + 1 >= tolerance;
    }

    /** The window [first, last] (oldest-first indexes, inclusive) to merge, or null. */
    private int[] findWindow(List<SortedRun> stack) {
        int n = stack.size();
        long[] size = new long[n];
        boolean[] mergeable = new boolean[n];
        int j = n - 1;
        for (SortedRun run : stack) { // stack is newest first; fill oldest first
            size[j] = run.bytes();
            mergeable[j] = size[j] <= maxSize && !run.compacting();
            j--;
        }
        for (int first = 0; first < n; first++) {
            if (!mergeable[first]) {
                continue;
            }
            long head = size[first];
            long total = head;
            boolean guardHolds = true;
            int last = first + 1;
            for (; last < n; last++) {
                if (!mergeable[last]) {
                    break;
                }
                total += size[last];
                guardHolds = head < START_RATIO * (total - head);
                if (total > maxSize && guardHolds) {
                    return new int[] {first, last};
                }
                // Even if every remaining component were as large as this one, the guard could not hold.
                if (head >= START_RATIO * (total + size[last] * (double) (n - last - 1) - head)) {
                    break;
                }
            }
            if (last != n) {
                continue;
            }
            if (n - first >= tolerance && guardHolds) {
                return new int[] {first, n - 1};
            }
            if (n - first < tolerance) {
                return null;
            }
        }
        return null;
    }
}
