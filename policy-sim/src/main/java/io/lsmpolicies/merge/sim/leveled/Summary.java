package io.lsmpolicies.merge.sim.leveled;

import java.util.Arrays;

/**
 * The five statistics Wei et al. (EDBT 2025, Sect. 3) report for ten runs of a workload, plus the quartile
 * deviation (Q3 - Q1) / 2 they use to compare stability. Quartiles interpolate linearly between order
 * statistics at position (n - 1) p (the usual "type 7" definition; XChart's {@code N_LESS_1_PLUS_1} box plot
 * computes the same box).
 *
 * @param count number of values
 * @param min   smallest value
 * @param q1    first quartile
 * @param mean  arithmetic mean
 * @param q3    third quartile
 * @param max   largest value
 */
public record Summary(int count, double min, double q1, double mean, double q3, double max) {

    /**
     * The summary of {@code values}.
     *
     * @param values the values
     * @return the summary
     * @throws IllegalArgumentException if there is no value or a value is not finite
     */
    public static Summary of(double... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("a summary needs at least one value");
        }
        double[] v = values.clone();
        Arrays.sort(v);
        double sum = 0;
        for (double x : v) {
            if (!Double.isFinite(x)) {
                throw new IllegalArgumentException("a summary needs finite values, got " + x);
            }
            sum += x;
        }
        return new Summary(v.length, v[0], quantile(v, 0.25), sum / v.length, quantile(v, 0.75), v[v.length - 1]);
    }

    /** {@return (Q3 - Q1) / 2} */
    public double quartileDeviation() {
        return (q3 - q1) / 2;
    }

    private static double quantile(double[] sorted, double p) {
        double pos = (sorted.length - 1) * p;
        int lo = (int) Math.floor(pos);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }
}
