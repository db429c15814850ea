package io.lsmpolicies.merge.policy;

import java.math.BigInteger;

/**
 * Exact integer arithmetic for the schedules of Mathieu et al. (MinLatency, Binomial). Binomial
 * coefficients overflow {@code long} quickly (C(68, 34) already does); every function here detects it and
 * <em>saturates</em> at {@link #SATURATED} instead of wrapping. Saturation is exact for the only use the
 * schedules make of these values: comparing them with a flush index t &lt;= {@link #MAX_FLUSH_INDEX}, which is
 * strictly below {@code SATURATED}, so a saturated value is correctly "greater than t".
 */
final class Binomials {
    /** Stands for "at least {@code Long.MAX_VALUE}". */
    static final long SATURATED = Long.MAX_VALUE;

    /**
     * The largest flush index the schedules accept, 2^62 (146,000 years at a million flushes a second). Below
     * it every intermediate value of {@link BinomialPolicy#target} fits a {@code long} exactly and every
     * comparison with a saturated coefficient is exact.
     */
    static final long MAX_FLUSH_INDEX = 1L << 62;

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

    /** Checks {@code 1 <= t <= MAX_FLUSH_INDEX}, the domain of the schedules. */
    static void checkFlushIndex(long t) {
        if (t < 1 || t > MAX_FLUSH_INDEX) {
            throw new IllegalArgumentException("flush index must be in [1, " + MAX_FLUSH_INDEX + "], was " + t);
        }
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
     * Evaluated iteratively. A run of the first case is one galloping search for the largest m' &lt;= m with
     * C(m' + k - 1, k) &lt;= t, and once m = 1 the rest is B(1, k, t) = t in closed form, so the work is
     * O(B' log m) coefficients of O(min(m, k)) each, B' &lt;= B &lt;= k the steps taken with m &gt;= 2: small for
     * every k even when m is huge (k = 1: m' = t) or k is huge (k &gt;&gt; t: m' = 1).
     * REQUIRES: {@code 0 <= t < C(m + k, k)} (t is a node of tau*(m, k), or 0).
     */
    static int stackDepth(long m, long k, long t) {
        int depth = 0;
        while (t > 0) {
            if (m == 1 && t <= k) {
                // C(k, k) = 1 at every step: B(1, k, t) = t, in one step instead of t.
                return depth + (int) t;
            }
            if (m < 1 || k < 1) {
                throw new IllegalStateException("B(m, k, t) evaluated outside its domain (m=" + m + ", k=" + k
                        + ", t=" + t + ")");
            }
            if (choose(m + k - 1, k) > t) {
                m = largestAtMost(k, t, m);
            }
            depth++;
            t -= choose(m + k - 1, k);
            k--;
        }
        return depth;
    }

    /**
     * The largest m' in [1, m) with C(m' + k - 1, k) &lt;= t (it exists because C(k, k) = 1 &lt;= t), by galloping
     * down from m and then bisecting: one coefficient when m' = m - 1, the common case.
     */
    private static long largestAtMost(long k, long t, long m) {
        long hi = m; // C(hi + k - 1, k) > t
        long lo = 1; // C(lo + k - 1, k) <= t
        for (long step = 1; ; step *= 2) {
            long candidate = hi - step;
            if (candidate <= 1) {
                break;
            }
            if (choose(candidate + k - 1, k) <= t) {
                lo = candidate;
                break;
            }
            hi = candidate;
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (choose(mid + k - 1, k) <= t) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The smallest m &gt;= 1 with C(m + k, k) &gt; t, by doubling then bisection: O(log m) coefficients.
     * REQUIRES: {@code 0 <= t < SATURATED}, and {@code t <= MAX_FLUSH_INDEX} when k = 1.
     */
    static long smallestAbove(long k, long t) {
        long hi = 1;
        // Capped at 2^62: C(2^62 + k, k) exceeds every t passed here (k = 1 gets t <= 2^62, k >= 2 saturates).
        while (hi < MAX_FLUSH_INDEX && choose(hi + k, k) <= t) {
            hi *= 2;
        }
        long lo = hi / 2; // 0, or a value with C(lo + k, k) <= t
        if (lo == 0) {
            return 1;
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (choose(mid + k, k) <= t) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }
}
