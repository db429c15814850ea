package io.lsmpolicies.merge.sim.leveled;

import java.util.SplittableRandom;

/**
 * Draws ranks in {@code [0, n)} with P(rank = i) proportional to {@code 1 / (i + 1)^theta}, for an item count n
 * that may grow between draws. The method is the one of Gray et al. ("Quickly generating billion-record synthetic
 * databases", SIGMOD 1994) that YCSB's Zipfian generator uses: one uniform draw, an O(1) transformation, and the
 * generalized harmonic number zeta(n, theta) kept up to date incrementally as n grows (O(1) amortised per new
 * item), so a workload whose key set grows with every insert costs nothing extra. Ranks 0 and 1 have exactly
 * their Zipf probabilities; larger ranks follow the law through a continuous approximation (rank 2 comes out about
 * 16% too often at theta 0.99, ranks past 10 within a few percent), as in YCSB.
 *
 * <p>REQUIRES {@code 0 < theta < 1} (the transformation divides by {@code 1 - theta}); YCSB's default is 0.99.
 * Not thread-safe; draws are reproducible for a given {@link SplittableRandom}.
 */
public final class ZipfianGenerator {
    /** YCSB's default skew. */
    public static final double YCSB_THETA = 0.99;

    private final double theta;
    private final double alpha;
    private final double zeta2;
    private long items;
    private double zetaN;
    private double eta;

    /**
     * @param theta skew, in (0, 1)
     * @throws IllegalArgumentException if theta is outside (0, 1)
     */
    public ZipfianGenerator(double theta) {
        if (!(theta > 0 && theta < 1)) {
            throw new IllegalArgumentException("Zipfian theta must be in (0, 1), was " + theta);
        }
        this.theta = theta;
        this.alpha = 1.0 / (1.0 - theta);
        this.zeta2 = 1.0 + Math.pow(0.5, theta);
    }

    /** {@return the skew} */
    public double theta() {
        return theta;
    }

    /**
     * A rank in {@code [0, itemCount)}; rank 0 is the most likely.
     *
     * @param itemCount the current number of items, {@code >= 1} and never smaller than at an earlier call
     * @param random    the random source
     * @return the rank
     * @throws IllegalArgumentException if {@code itemCount} is below 1 or below an earlier item count
     */
    public long next(SplittableRandom random, long itemCount) {
        grow(itemCount);
        double u = random.nextDouble();
        double uz = u * zetaN;
        if (uz < 1.0) {
            return 0;
        }
        if (uz < 1.0 + Math.pow(0.5, theta)) {
            return Math.min(1, items - 1);
        }
        long rank = (long) (items * Math.pow(eta * u - eta + 1.0, alpha));
        return Math.min(Math.max(rank, 0), items - 1);
    }

    /**
     * {@return the exact probability of {@code rank} among {@code itemCount} items; for tests and reports}
     *
     * @param rank      a rank
     * @param itemCount the number of items
     */
    public double probability(long rank, long itemCount) {
        double z = 0;
        for (long i = 1; i <= itemCount; i++) {
            z += 1.0 / Math.pow(i, theta);
        }
        return 1.0 / Math.pow(rank + 1, theta) / z;
    }

    private void grow(long itemCount) {
        if (itemCount < 1 || itemCount < items) {
            throw new IllegalArgumentException("Zipfian item count must be >= 1 and never shrink: was " + items
                    + ", asked " + itemCount);
        }
        if (itemCount == items) {
            return;
        }
        for (long i = items + 1; i <= itemCount; i++) {
            zetaN += 1.0 / Math.pow(i, theta);
        }
        items = itemCount;
        eta = (1.0 - Math.pow(2.0 / items, 1.0 - theta)) / (1.0 - zeta2 / zetaN);
    }
}
