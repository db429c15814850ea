package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.PolicyParameters;

/**
 * Binomial: the static schedule of Mathieu et al. that also keeps the SSTable count low before the
 * large-n regime (about 4^k flushes), where it behaves like {@link MinLatencyPolicy}.
 *
 * <p>Definition: Mao et al., VLDB Journal 2021, Sect. 2, after Mathieu et al. (2014). With
 * T_k(m) = sum_{j=1..m} C(j + min(j, k) - 1, j) and m' = min{m : T_k(m) &gt;= t}, in response to flush t
 * let i = 1 + B(m', min(m', k) - 1, t - T_k(m' - 1) - 1) (see {@link Binomials#stackDepth}); merge the i-th
 * oldest SSTable with all newer SSTables and the flushed MemTable, leaving i SSTables. Parameter {@code k}
 * (required, 1..1,000,000).
 *
 * <p>Not lazy: it merges whenever the schedule says so, also while fewer than k SSTables exist. Flushes
 * T_k(m - 1) + 1 .. T_k(m) form block m; the first flush of each block merges everything, and the
 * blocks continue for ever (m' grows with t), so no state beyond t is needed. For m' &gt; k every block
 * is the MinLatency block of the same size, shifted by the constant T_k(k) - C(2k, k) + 1 flushes: the
 * two policies coincide in the large-n regime.
 */
public final class BinomialPolicy extends ScheduledStackPolicy {
    public static final String NAME = "binomial";

    BinomialPolicy(PolicyParameters parameters) {
        super(NAME, parameters);
    }

    @Override
    int target(long t) {
        return target(k, t);
    }

    /** 1 + B(m', min(m', k) - 1, t - T_k(m' - 1) - 1). REQUIRES: 1 &lt;= t &lt;= 2^62. */
    static int target(int k, long t) {
        Binomials.checkFlushIndex(t);
        // Blocks m <= k have C(2m - 1, m) flushes: walk them (they saturate long by m = 34).
        long before = 0; // T_k(m - 1)
        long m = 1;
        for (; m <= k; m++) {
            long through = Binomials.addSaturated(before, Binomials.choose(2 * m - 1, m));
            if (through >= t) {
                return 1 + Binomials.stackDepth(m, m - 1, t - before - 1);
            }
            before = through;
        }
        // Past block k, by the hockey-stick identity T_k(m) = T_k(k) + C(m + k, k) - C(2k, k): the first
        // m with T_k(m) >= t is the first with C(m + k, k) > t - 1 - T_k(k) + C(2k, k).
        // Reached only for k <= 33 (else block k alone passes 2^63), so C(2k, k) fits and
        // base = C(2k, k) - T_k(k) <= C(2k, k) / 2 < 2^62: t - 1 + base and T_k(m2 - 1) + base stay below 2^63.
        long base = Binomials.choose(2L * k, k) - before;
        long m2 = Binomials.smallestAbove(k, t - 1 + base);
        long beforeBlock = Binomials.choose(m2 - 1 + k, k) - base; // T_k(m2 - 1)
        return 1 + Binomials.stackDepth(m2, k - 1, t - beforeBlock - 1);
    }
}
