package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.PolicyParameters;

/**
 * MinLatency: the static schedule of Mathieu et al. with minimum worst-case write amplification among
 * bounded-depth stack-based policies.
 *
 * <p>Definition: Mao et al., "Comparison and evaluation of state-of-the-art LSM merge policies", VLDB
 * Journal 2021, Sect. 2, after Mathieu, Staelin, Young, Yousefi, "Bigtable merge compaction" (2014). In
 * response to flush t: let m' = min{m : C(m + k, m) &gt; t} and i = B(m', k, t) (see
 * {@link Binomials#stackDepth}); merge the i-th oldest SSTable with all newer SSTables and the flushed
 * MemTable, leaving i SSTables. Parameter {@code k} (required, 1..1,000,000).
 *
 * <p>Properties: lazy (it never merges while fewer than k SSTables exist), eager and stable. For
 * n = C(m + k, k) - 1 flushes its schedule is that of the tree tau*(m, k), whose merge depth is at most
 * m - 1, so the model write amplification is at most m on any flush sizes.
 *
 * <p>Continuation: m' grows with t, and the schedule for the first C(m + k, k) - 1 flushes is a prefix of
 * the one for m + 1 (flush C(m + k, k) merges everything into one SSTable, which then plays the role of
 * the tree's root), so the policy runs for any number of flushes with no state beyond t. m' is found by
 * doubling and bisection and B by {@link Binomials#stackDepth}: O((k + 1) log m') binomial coefficients of
 * O(min(m', k)) each per decision, exact and saturating (never wrapping) up to t = 2^62.
 */
public final class MinLatencyPolicy extends ScheduledStackPolicy {
    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "minlatency";

    MinLatencyPolicy(PolicyParameters parameters) {
        super(NAME, parameters);
    }

    @Override
    int target(long t) {
        return target(k, t);
    }

    /** i = B(m', k, t) with m' = min{m : C(m + k, m) &gt; t}. REQUIRES: 1 &lt;= t &lt;= 2^62. */
    static int target(int k, long t) {
        Binomials.checkFlushIndex(t);
        return Binomials.stackDepth(Binomials.smallestAbove(k, t), k, t);
    }
}
