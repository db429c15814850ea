package io.lsmpolicies.merge.policy.leveled;

/** Saturating byte arithmetic: level targets grow geometrically and must not wrap around. */
final class Sizes {
    private Sizes() {
    }

    /** {@code a * b}, or {@link Long#MAX_VALUE} if that overflows. REQUIRES: {@code a, b >= 0}. */
    static long multiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }

    /** {@code a + b}, or {@link Long#MAX_VALUE} if that overflows. REQUIRES: {@code a, b >= 0}. */
    static long add(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
