package io.lsmpolicies.merge.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded family of traces: flush sizes drawn from one distribution and read counts following one pattern, so that
 * seed s always gives the same trace. The families of {@link #standard()} are the ones docs/policies.md (section 6.3)
 * reports.
 *
 * @param name  short name, e.g. {@code uniform/r=10}
 * @param sizes the flush-size distribution
 * @param reads the read pattern
 */
public record TraceFamily(String name, SizeDistribution sizes, ReadPattern reads) {

    /** Flush sizes in bytes. */
    public enum SizeDistribution {
        /** Uniform in [0.5 MB, 1.5 MB]. */
        UNIFORM("uniform", "uniform in [500000, 1500000]"),
        /** Normal, mean 1 MB, standard deviation 0.3 MB, negative samples 0. */
        NORMAL("normal", "normal, mean 1000000, sd 300000"),
        /** Pareto with shape 1.5 and minimum 1/3 MB (mean 1 MB), capped at 200 MB: heavy-tailed. */
        PARETO("pareto", "Pareto, shape 1.5, minimum 333333 (mean 1000000), capped at 200000000");

        private final String label;
        private final String description;

        SizeDistribution(String label, String description) {
            this.label = label;
            this.description = description;
        }

        /** {@return the distribution in words} */
        public String description() {
            return description;
        }

        /**
         * {@return {@code n} sizes drawn with {@code seed}}
         *
         * @param n    how many sizes
         * @param seed the seed
         */
        public long[] draw(int n, long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = switch (this) {
                    case UNIFORM -> random.nextLong(500_000, 1_500_001);
                    case NORMAL -> Math.max(0, Math.round(1_000_000 + 300_000 * gaussian(random)));
                    case PARETO -> Math.min(200_000_000L,
                            Math.round(333_333 / Math.pow(1 - random.nextDouble(), 1 / 1.5)));
                };
            }
            return out;
        }

        private static double gaussian(SplittableRandom random) {
            double u = 1 - random.nextDouble();
            double v = random.nextDouble();
            return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
        }
    }

    /**
     * Reads after each flush, as phases of (flushes, reads per flush) repeated to the trace's length.
     *
     * @param label  short text, e.g. {@code r=10}
     * @param phases pairs {flushes, reads}: the first {@code phases[0][0]} flushes have {@code phases[0][1]} reads
     *               each, and so on, the last phase lasting to the end
     */
    public record ReadPattern(String label, long[][] phases) {
        /**
         * {@return constant {@code r} reads after every flush}
         *
         * @param r the reads after every flush
         */
        public static ReadPattern constant(long r) {
            return new ReadPattern("r=" + r, new long[][] {{Long.MAX_VALUE, r}});
        }

        /**
         * {@return the counts of {@code n} flushes}
         *
         * @param n how many flushes
         */
        public long[] counts(int n) {
            long[] out = new long[n];
            int phase = 0;
            long left = phases[0][0];
            for (int i = 0; i < n; i++) {
                while (left == 0 && phase < phases.length - 1) {
                    phase++;
                    left = phases[phase][0];
                }
                out[i] = phases[phase][1];
                left--;
            }
            return out;
        }
    }

    /**
     * {@return the trace of seed {@code seed}, {@code n} flushes long: sizes then read counts}
     *
     * @param n    how many flushes
     * @param seed the seed of the sizes
     */
    public long[][] trace(int n, long seed) {
        return new long[][] {sizes.draw(n, seed), reads.counts(n)};
    }

    /**
     * The standard families: every size distribution with constant reads of 0, 1, 10, 100, 1,000 and 10,000 per
     * flush, and two phase patterns over 500 flushes: write-heavy, read-heavy and back ({@code 150x1, 200x1000,
     * 150x1}), and alternating quiet and read-heavy phases of 100 flushes ({@code 0, 100, 0, 10000, 0}).
     *
     * @return the families
     */
    public static List<TraceFamily> standard() {
        List<ReadPattern> patterns = new ArrayList<>();
        for (long r : new long[] {0, 1, 10, 100, 1_000, 10_000}) {
            patterns.add(ReadPattern.constant(r));
        }
        patterns.add(new ReadPattern("w/r/w", new long[][] {{150, 1}, {200, 1_000}, {150, 1}}));
        patterns.add(new ReadPattern("alt", new long[][] {{100, 0}, {100, 100}, {100, 0}, {100, 10_000},
            {100, 0}}));
        List<TraceFamily> out = new ArrayList<>();
        for (SizeDistribution d : SizeDistribution.values()) {
            for (ReadPattern p : patterns) {
                out.add(new TraceFamily(d.label + "/" + p.label(), d, p));
            }
        }
        return List.copyOf(out);
    }
}
