package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;

/**
 * Exploring: HBase's default compaction policy, as defined by Mao et al., "Comparison and evaluation of
 * state-of-the-art LSM merge policies", VLDB Journal 2021, Sect. 2.
 *
 * <p>The flushed SSTable counts as the newest. Candidates are the contiguous windows (in creation order)
 * of {@code min}..{@code max} SSTables, both inclusive, whose largest member is at most {@code lambda}
 * times the sum of the others. With at most k SSTables (counting the flushed one) the longest candidate is
 * merged (ties: smaller total size, then older start); with more than k, the candidate with the smallest
 * average size (ties: older start, then fewer SSTables). With no candidate and more than k SSTables, the
 * {@code min} contiguous SSTables of smallest total size are merged (ties: older; all of them if fewer than
 * {@code min} exist, which only k &lt; min - 1 allows); otherwise nothing. The
 * chosen window need not contain the flushed SSTable.
 *
 * <p>Parameters: {@code k} (required, 1..1,000,000), {@code lambda} (default 1.2, HBase's
 * {@code hbase.hstore.compaction.ratio}), {@code min} (default 3) and {@code max} (default 10), the window
 * bounds ({@code hbase.hstore.compaction.min/max}), 2..1,000,000 with min &lt;= max.
 *
 * <p>As in the paper's model the policy decides once per flush (its state remembers which flush it
 * decided for); it decides again only if the SSTable count is still above k, which keeps the bound.
 * Not eager (the window may leave the flushed SSTable alone); stable.
 */
public final class ExploringPolicy extends AbstractStackPolicy {
    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "exploring";
    private final int k;
    private final double lambda;
    private final int min;
    private final int max;

    ExploringPolicy(PolicyParameters parameters) {
        super(NAME, parameters);
        this.k = parameters.getInt("k");
        this.lambda = parameters.getDouble("lambda");
        this.min = parameters.getInt("min");
        this.max = parameters.getInt("max");
    }

    @Override
    public PolicyState initialState() {
        return FlushCount.ZERO;
    }

    @Override
    public PolicyState decodeState(byte[] encoded) {
        return FlushCount.decode(NAME, encoded);
    }

    @Override
    public PolicyState onFlush(PolicyState state, TreeView view) {
        return FlushCount.of(NAME, state).nextFlush();
    }

    @Override
    public Decision decide(TreeView view, PolicyState state) {
        FlushCount count = FlushCount.of(NAME, state);
        List<SortedRun> stack = StackPolicies.stack(NAME, view);
        int s = stack.size();
        if ((!count.undecided() && s <= k) || view.anyCompacting()) {
            return Decision.none(state);
        }
        PolicyState next = count.markDecided();
        long[] newestFirst = StackPolicies.sizes(stack);
        long[] y = new long[s]; // oldest first
        for (int j = 0; j < s; j++) {
            y[j] = newestFirst[s - 1 - j];
        }
        long[] prefix = new long[s + 1];
        for (int j = 0; j < s; j++) {
            prefix[j + 1] = prefix[j] + y[j];
        }
        int bestStart = -1;
        int bestLen = 0;
        long bestSum = 0;
        for (int start = 0; start < s; start++) {
            long largest = 0;
            for (int len = 1; len <= max && start + len <= s; len++) {
                largest = Math.max(largest, y[start + len - 1]);
                if (len < min) {
                    continue;
                }
                long sum = prefix[start + len] - prefix[start];
                if (largest > lambda * (sum - largest)) {
                    continue;
                }
                boolean better;
                if (bestStart < 0) {
                    better = true;
                } else if (s <= k) { // longest, then smaller total; older start kept on ties
                    better = len > bestLen || (len == bestLen && sum < bestSum);
                } else { // smallest average; on ties the older start, then the shorter window, is kept
                    better = Fractions.compare(sum, len, bestSum, bestLen) < 0;
                }
                if (better) {
                    bestStart = start;
                    bestLen = len;
                    bestSum = sum;
                }
            }
        }
        String reason;
        if (bestStart >= 0) {
            reason = (s <= k ? "longest" : "smallest-average") + " candidate of " + bestLen + " SSTables";
        } else if (s > k) {
            bestLen = Math.min(min, s);
            for (int start = 0; start + bestLen <= s; start++) {
                long sum = prefix[start + bestLen] - prefix[start];
                if (bestStart < 0 || sum < bestSum) {
                    bestStart = start;
                    bestSum = sum;
                }
            }
            reason = "no candidate and " + s + " SSTables > k=" + k + ": smallest " + bestLen + " contiguous";
        } else {
            return Decision.none(next);
        }
        // Oldest-first window [bestStart, bestStart + bestLen - 1] as newest-first positions.
        int from = s - bestStart - bestLen;
        int to = s - 1 - bestStart;
        return Decision.of(StackPolicies.merge(stack, from, to, reason), next);
    }

    /** Lagging while the flushed SSTable has pushed the count above k and the merge has not finished. */
    @Override
    public boolean isMergeLagging(TreeView view, PolicyState state) {
        return StackPolicies.stack(NAME, view).size() > k;
    }
}
