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
    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "binomial";

    /** T_k(1), T_k(2), ... for the blocks m &lt;= k that fit a long (at most 34 of them); computed once. */
    private final long[] blockEnds;

    BinomialPolicy(PolicyParameters parameters) {
        super(NAME, parameters);
        this.blockEnds = blockEnds(k);
    }

    @Override
    int target(long t) {
        return target(blockEnds, k, t);
    }

    /** 1 + B(m', min(m', k) - 1, t - T_k(m' - 1) - 1). REQUIRES: 1 &lt;= t &lt;= 2^62. */
    static int target(int k, long t) {
        return target(blockEnds(k), k, t);
    }

    /**
     * T_k(m) for m = 1, 2, ... up to k or up to the first block end that saturates, whichever comes first.
     * Blocks m &lt;= k have C(2m - 1, m) flushes, which passes 2^63 at m = 34.
     */
    static long[] blockEnds(int k) {
        long[] ends = new long[Math.min(k, 34)];
        long through = 0;
        int n = 0;
        for (long m = 1; m <= k && through < Binomials.SATURATED; m++) {
            through = Binomials.addSaturated(through, Binomials.choose(2 * m - 1, m));
            ends[n++] = through;
        }
        return java.util.Arrays.copyOf(ends, n);
    }

    private static int target(long[] blockEnds, int k, long t) {
        Binomials.checkFlushIndex(t);
        long before = 0; // T_k(m - 1)
        for (int j = 0; j < blockEnds.length; j++) {
            if (blockEnds[j] >= t) {
                long m = j + 1;
                return 1 + Binomials.stackDepth(m, m - 1, t - before - 1);
            }
            before = blockEnds[j];
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
