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

    /** 1 + B(m', min(m', k) - 1, t - T_k(m' - 1) - 1). REQUIRES: t &gt;= 1. */
    static int target(int k, long t) {
        long before = 0; // T_k(m - 1)
        long m = 1;
        while (true) {
            long block = Binomials.choose(m + Math.min(m, k) - 1, m);
            long through = Binomials.addSaturated(before, block); // T_k(m)
            if (through >= t) {
                break;
            }
            before = through;
            m++;
        }
        return 1 + Binomials.stackDepth(m, Math.min(m, k) - 1, t - before - 1);
    }
}
