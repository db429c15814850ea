package io.lsmpolicies.merge.policy;

/** Exact comparison of non-negative fractions, so that ties between averages are real ties. */
final class Fractions {
    private Fractions() {
    }

    /** Compares a/b with c/d. REQUIRES: a, c &gt;= 0 and b, d &gt; 0. */
    static int compare(long a, long b, long c, long d) {
        // a/b ? c/d  <=>  a*d ? c*b, compared as unsigned 128-bit products.
        long hi1 = Math.multiplyHigh(a, d);
        long hi2 = Math.multiplyHigh(c, b);
        if (hi1 != hi2) {
            return Long.compare(hi1, hi2);
        }
        return Long.compareUnsigned(a * d, c * b);
    }
}
