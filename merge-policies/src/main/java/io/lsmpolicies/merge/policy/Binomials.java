package io.lsmpolicies.merge.policy;

import java.math.BigInteger;

/**
 * Exact integer arithmetic for the schedules of Mathieu et al. (MinLatency, Binomial). Binomial
 * coefficients overflow {@code long} quickly (C(68, 34) already does); every function here detects it and
 * <em>saturates</em> at {@link #SATURATED} instead of wrapping. Saturation is exact for the only use the
 * schedules make of these values: comparing them with a flush index, itself a {@code long}.
 */
final class Binomials {
    /** Stands for "at least {@code Long.MAX_VALUE}". */
    static final long SATURATED = Long.MAX_VALUE;

    private Binomials() {
    }

    /** C(n, r) for {@code 0 <= r <= n}, or {@link #SATURATED} if it does not fit. O(min(r, n - r)). */
    static long choose(long n, long r) {
        if (r < 0 || r > n) {
            throw new IllegalArgumentException("C(" + n + ", " + r + ") is undefined");
        }
        long s = Math.min(r, n - r);
        long c = 1;
        // Invariant: c = C(n - s + i, i), which never decreases with i; so once it saturates it stays saturated.
        for (long i = 1; i <= s; i++) {
            long factor = n - s + i;
            long hi = Math.multiplyHigh(c, factor);
            long lo = c * factor;
            if (hi == 0 && lo >= 0) {
                c = lo / i;
            } else {
                BigInteger exact = BigInteger.valueOf(c).multiply(BigInteger.valueOf(factor))
                        .divide(BigInteger.valueOf(i));
                if (exact.bitLength() > 63) {
                    return SATURATED;
                }
                c = exact.longValue();
            }
        }
        return c;
    }

    /** {@code a + b} for non-negative operands, saturating. */
    static long addSaturated(long a, long b) {
        long sum = a + b;
        return sum < 0 ? SATURATED : sum;
    }

    /**
     * The recurrence B(m, k, t) of Mao et al. (VLDBJ 2021, Sect. 2), after Mathieu et al.: the stack depth
     * of node t in the binary search tree tau*(m, k).
     * <pre>
     *   B(m, k, 0) = 0
     *   B(m, k, t) = B(m - 1, k, t)                     if t &lt; C(m + k - 1, k)
     *              = 1 + B(m, k - 1, t - C(m + k - 1, k)) otherwise
     * </pre>
     * Evaluated iteratively: each step lowers m or k, so at most m + k steps of O(min(m, k)) each.
     * REQUIRES: {@code 0 <= t < C(m + k, k)} (t is a node of tau*(m, k), or 0).
     */
    static int stackDepth(long m, long k, long t) {
        int depth = 0;
        while (t > 0) {
            if (m < 1 || k < 1) {
                throw new IllegalStateException("B(m, k, t) evaluated outside its domain (m=" + m + ", k=" + k
                        + ", t=" + t + ")");
            }
            long c = choose(m + k - 1, k);
            if (t < c) {
                m--;
            } else {
                depth++;
                t -= c;
                k--;
            }
        }
        return depth;
    }
}
