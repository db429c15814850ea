package io.lsmpolicies.merge.sim;

import java.util.stream.IntStream;

/**
 * The offline optimum of the stack model with reads (the cost model of {@code docs/policies.md}, section 6): the
 * least {@code totalCost} any schedule of contiguous merges reaches on given flush lengths l_1..l_n and read
 * counts r_1..r_n ({@link #minTotalCost}), and the least {@code mergeCost} of a schedule that keeps at most K
 * SSTables after every step ({@link #minMergeCostWithDepth}). The problem is that of Mathieu, Staelin, Young and
 * Yousefi ("Bigtable merge compaction", arXiv:1407.3008, 2014); the recurrences are ours.
 *
 * <p><b>Why eager schedules suffice.</b> In the model the cost of step t is the bytes of the SSTables present
 * after step t and not before, plus r_t x (SSTables after step t) x the read cost. Take any schedule and an SSTable
 * X created at a step c after its newest flush j (j &lt; c). Creating X one step earlier, at c - 1, from the tables
 * then covering its flushes is a valid schedule: its cost is X's size at c - 1 instead of at c, minus the tables
 * inside X that step c - 1 created (no longer created), and the SSTable count after c - 1 drops, nothing else
 * changes. Repeating this (the sum of creation steps falls each time) ends with every SSTable created at the step
 * of its newest flush; then each step creates exactly one table, [a..t], which holds flush t: the schedule is
 * <i>eager</i>, and it costs no more, with no more SSTables at any step. So the optimum (with reads, and under the
 * depth bound) is reached by an eager schedule (Mao et al., VLDB Journal 2021, Sect. 3, state this without proof).
 *
 * <p><b>The recurrence.</b> For an eager schedule of flushes i..j (arriving at steps i..j), let [i..a] be the
 * oldest SSTable at step j. It was created at step a from everything present then, so steps i..a-1 are an eager
 * schedule of i..a-1; after step a it is never merged again, so steps a+1..j are an eager schedule of a+1..j that
 * sees one more SSTable below it at every step. That extra SSTable adds r_t x read cost at every step t of the
 * sub-run whatever the sub-schedule does, so with A(i, j) the optimum of flushes i..j alone (A of an empty range 0)
 * and R the read counts:
 * <pre>
 *   A(i, j) = min over a in [i, j] of  A(i, a-1) + L(i..a) + B r_a + A(a+1, j) + B R(a+1..j)
 * </pre>
 * and {@code minTotalCost} is A(1, n). Under the depth bound the extra SSTable uses one of the K slots instead:
 * D_k(i, j) = min over a of D_k(i, a-1) + L(i..a) + D_{k-1}(a+1, j), D_0 infinite on a non-empty range, and the
 * bounded optimum is D_K(1, n). Both are exact: every eager schedule decomposes this way, and every choice of the
 * a's is an eager schedule.
 *
 * <p><b>Cost.</b> A takes O(n^3 / 6) steps and O(n^2) memory (two n x n arrays of longs); D_K takes
 * O(K n^3 / 6) steps and O(n^2) memory (three arrays, one layer of k at a time), and is L(1..n) outright when
 * K &gt;= n. Sequences longer than the exact limit get a <b>lower bound</b>: the sum of the exact optima of
 * consecutive blocks. It is one because any schedule of the whole sequence, cut to a block's steps and to that
 * block's flushes (each SSTable intersected with the block), is a schedule of the block that creates no more bytes
 * at any step (an intersection is new only if its SSTable is) and has no more SSTables (so also keeps the depth
 * bound); the blocks' steps are disjoint, so the sum of their optima is at most the whole optimum.
 *
 * <p>All arithmetic is exact in 64 bits; an input whose worst schedule could exceed 2^62 bytes is refused.
 */
public final class OfflineOptimum {
    /** Flushes solved exactly by default (A on 2,000 flushes: 1.3 x 10^9 steps, 64 MB, about 3 s on 2 cores). */
    public static final int DEFAULT_EXACT_LIMIT = 2000;
    /** The largest exact limit accepted: two 4096 x 4096 arrays of longs are 268 MB (A takes about 35 s). */
    public static final int MAX_EXACT_LIMIT = 4096;

    private static final long INFINITE = Long.MAX_VALUE / 4;
    /** Rows of the dynamic program computed together (see {@link #totalCost}). */
    private static final int ROWS = 16;
    private static final double LIMIT = 0x1p62;

    private OfflineOptimum() {
    }

    /**
     * The least total cost (merge cost + read cost) of any schedule on {@code lengths} with {@code reads}.
     *
     * @param lengths       l_1..l_n, each {@code >= 0}
     * @param reads         r_1..r_n, each {@code >= 0}
     * @param readCostBytes bytes one read's probe of one SSTable costs, {@code >= 0}
     * @param exactLimit    sequences up to this many flushes are solved exactly, longer ones get the lower bound of
     *                      blocks of this many flushes; in [1, {@link #MAX_EXACT_LIMIT}]
     * @return the cost, exact or a labelled lower bound
     * @throws IllegalArgumentException on a negative value, different lengths, an empty sequence, an exact limit
     *                                  out of range, or a cost that could exceed 2^62
     */
    public static OptimalCost minTotalCost(long[] lengths, long[] reads, long readCostBytes, int exactLimit) {
        return totalOf(minTotalCostOfPrefixes(lengths, reads, readCostBytes, exactLimit), exactLimit);
    }

    /**
     * What {@link #minTotalCost} reports, given what {@link #minTotalCostOfPrefixes} returned for the same input and
     * exact limit: the last prefix's cost, exact or labelled with its blocks.
     *
     * @param prefixes   what {@link #minTotalCostOfPrefixes} returned
     * @param exactLimit the exact limit it was given
     * @return the cost of the whole sequence
     */
    public static OptimalCost totalOf(long[] prefixes, int exactLimit) {
        int n = prefixes.length;
        if (n <= exactLimit) {
            return new OptimalCost(prefixes[n - 1], true, 1, n);
        }
        int count = blockCount(n, exactLimit);
        return new OptimalCost(prefixes[n - 1], false, count, blockSize(n, count));
    }

    /**
     * For each t, the least total cost of the first t flushes alone ({@code [t - 1]}), exactly as
     * {@link #minTotalCost} computes it for the whole sequence (the last element is its cost): exact up to the limit,
     * else the sum of the blocks before t's block and the exact optimum of t's block up to t, a lower bound by the
     * same argument. Every schedule of the whole sequence has paid at least this after step t, since its first t
     * steps are a schedule of the first t flushes.
     *
     * @param lengths       l_1..l_n, each {@code >= 0}
     * @param reads         r_1..r_n, each {@code >= 0}
     * @param readCostBytes bytes one read's probe of one SSTable costs, {@code >= 0}
     * @param exactLimit    as {@link #minTotalCost}
     * @return the cost of each prefix
     * @throws IllegalArgumentException as {@link #minTotalCost}
     */
    public static long[] minTotalCostOfPrefixes(long[] lengths, long[] reads, long readCostBytes, int exactLimit) {
        check(lengths, exactLimit);
        if (reads.length != lengths.length) {
            throw new IllegalArgumentException("there are " + lengths.length + " flush lengths but " + reads.length
                    + " read counts");
        }
        if (readCostBytes < 0) {
            throw new IllegalArgumentException("read cost must be >= 0 bytes, was " + readCostBytes);
        }
        double readSum = 0;
        for (int t = 0; t < reads.length; t++) {
            if (reads[t] < 0) {
                throw new IllegalArgumentException("flush " + (t + 1) + " has negative read count " + reads[t]);
            }
            readSum += reads[t];
        }
        double worst = (double) lengths.length * (sum(lengths) + readSum * readCostBytes);
        refuseBeyond(worst);
        int n = lengths.length;
        int count = n <= exactLimit ? 1 : blockCount(n, exactLimit);
        int size = blockSize(n, count);
        long[] prefixes = new long[n];
        IntStream.range(0, count).parallel().forEach(b -> totalCost(lengths, reads, readCostBytes, b * size,
                Math.min(n, (b + 1) * size), prefixes));
        long before = 0;
        for (int b = 0; b < count; b++) {
            int to = Math.min(n, (b + 1) * size);
            for (int t = b * size; t < to; t++) {
                prefixes[t] += before;
            }
            before = prefixes[to - 1];
        }
        return prefixes;
    }

    /**
     * The least merge cost of a schedule on {@code lengths} that has at most {@code k} SSTables after every step
     * (reads play no part).
     *
     * @param exactLimit the work limit: a block is as long as keeps K n^3 within what {@link #minTotalCost} spends on
     *                   {@code exactLimit} flushes (n^3), so the depth bound solves fewer flushes exactly for larger K
     * @param lengths    l_1..l_n, each {@code >= 0}
     * @param k          the most SSTables after every step, {@code >= 1}
     * @return the cost, exact or a labelled lower bound
     * @throws IllegalArgumentException as {@link #minTotalCost}, or if {@code k < 1}
     */
    public static OptimalCost minMergeCostWithDepth(long[] lengths, int k, int exactLimit) {
        check(lengths, exactLimit);
        if (k < 1) {
            throw new IllegalArgumentException("the depth bound K must be >= 1, was " + k);
        }
        refuseBeyond((double) lengths.length * sum(lengths));
        int n = lengths.length;
        if (k >= n) {
            return new OptimalCost((long) sum(lengths), true, 1, n);
        }
        double work = Math.pow(exactLimit, 3);
        int block = 1;
        while (block < MAX_EXACT_LIMIT && Math.pow(block + 1, 3) * Math.min(k, block + 1) <= work) {
            block++;
        }
        return blocks(n, block, (from, to) -> depthCost(lengths, k, from, to));
    }

    private interface Block {
        long solve(int from, int to);
    }

    private static int blockCount(int n, int limit) {
        return (n + limit - 1) / limit;
    }

    private static int blockSize(int n, int count) {
        return (n + count - 1) / count;
    }

    /** One block if n fits the limit, else the sum over consecutive blocks, solved in parallel. */
    private static OptimalCost blocks(int n, int limit, Block solver) {
        if (n <= limit) {
            return new OptimalCost(solver.solve(0, n), true, 1, n);
        }
        int count = blockCount(n, limit);
        int size = blockSize(n, count);
        long sum = IntStream.range(0, count).parallel()
                .mapToLong(b -> solver.solve(b * size, Math.min(n, (b + 1) * size))).sum();
        return new OptimalCost(sum, false, count, size);
    }

    /**
     * A(from, to - 1) of the class comment, flushes [from, to) indexed from 0; A(from, t) is also stored at
     * {@code prefixes[t]} for every t in [from, to) if {@code prefixes} is not null.
     */
    static long totalCost(long[] l, long[] r, long readCost, int from, int to, long[] prefixes) {
        int n = to - from;
        long[] prefixL = new long[n + 1];
        long[] prefixR = new long[n + 1];
        for (int t = 0; t < n; t++) {
            prefixL[t + 1] = prefixL[t] + l[from + t];
            prefixR[t + 1] = prefixR[t] + r[from + t];
        }
        // u[i*n + a] = A(i, a-1) + L(i..a) + B r_a; wt[j*n + a] = A(a+1, j) + B R(a+1..j) (0 when a = j).
        long[] u = new long[n * n];
        long[] wt = new long[n * n];
        long[] left = new long[n]; // left[i] = A(i, j-1)
        long whole = 0;
        // Rows i in groups of ROWS, from the bottom; within a group all rows advance together in j, so the column
        // wt[j*n ..] is read from memory once per group rather than once per row. Row i at column j needs
        // wt[j][a] for a >= i: from rows a+1 > i, either earlier groups or this group's rows below i, which come
        // first at the same j.
        for (int top = n - 1; top >= 0; top -= ROWS) {
            int low = Math.max(0, top - ROWS + 1);
            for (int j = low; j < n; j++) {
                int col = j * n;
                for (int i = Math.min(top, j); i >= low; i--) {
                    int row = i * n;
                    u[row + j] = (j == i ? 0 : left[i]) + prefixL[j + 1] - prefixL[i] + readCost * r[from + j];
                    long best = Long.MAX_VALUE;
                    for (int a = i; a <= j; a++) {
                        best = Math.min(best, u[row + a] + wt[col + a]);
                    }
                    left[i] = best;
                    if (i > 0) {
                        wt[col + i - 1] = best + readCost * (prefixR[j + 1] - prefixR[i]);
                    } else {
                        if (prefixes != null) {
                            prefixes[from + j] = best;
                        }
                        if (j == n - 1) {
                            whole = best;
                        }
                    }
                }
            }
        }
        return whole;
    }

    /** D_k(from, to - 1) of the class comment, flushes [from, to) indexed from 0. */
    static long depthCost(long[] l, int k, int from, int to) {
        int n = to - from;
        if (k >= n) {
            long s = 0;
            for (int t = from; t < to; t++) {
                s += l[t];
            }
            return s;
        }
        long[] prefixL = new long[n + 1];
        for (int t = 0; t < n; t++) {
            prefixL[t + 1] = prefixL[t] + l[from + t];
        }
        long[] u = new long[n * n];
        long[] below = new long[n * n]; // D_{k-1}(a+1, j) at [j*n + a], 0 when a = j
        long[] current = new long[n * n];
        // D_0 is infinite on every non-empty range.
        for (int j = 0; j < n; j++) {
            for (int a = 0; a < j; a++) {
                below[j * n + a] = INFINITE;
            }
        }
        long[] left = new long[n];
        long whole = INFINITE;
        for (int layer = 1; layer <= k; layer++) {
            // As in totalCost, rows advance in groups; here a row needs only the previous layer's values.
            for (int top = n - 1; top >= 0; top -= ROWS) {
                int low = Math.max(0, top - ROWS + 1);
                for (int j = low; j < n; j++) {
                    int col = j * n;
                    for (int i = Math.min(top, j); i >= low; i--) {
                        int row = i * n;
                        u[row + j] = (j == i ? 0 : left[i]) + prefixL[j + 1] - prefixL[i];
                        long best = INFINITE;
                        for (int a = i; a <= j; a++) {
                            best = Math.min(best, u[row + a] + below[col + a]);
                        }
                        left[i] = best;
                        if (i > 0) {
                            current[col + i - 1] = best;
                        } else if (j == n - 1) {
                            whole = best;
                        }
                    }
                }
            }
            long[] swap = below;
            below = current;
            current = swap;
        }
        return whole;
    }

    private static void check(long[] lengths, int exactLimit) {
        if (lengths.length == 0) {
            throw new IllegalArgumentException("the optimum needs at least one flush");
        }
        if (exactLimit < 1 || exactLimit > MAX_EXACT_LIMIT) {
            throw new IllegalArgumentException("the exact limit must be in [1, " + MAX_EXACT_LIMIT + "] flushes, was "
                    + exactLimit);
        }
        for (int t = 0; t < lengths.length; t++) {
            if (lengths[t] < 0) {
                throw new IllegalArgumentException("flush " + (t + 1) + " has negative length " + lengths[t]);
            }
        }
    }

    private static double sum(long[] values) {
        double s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }

    private static void refuseBeyond(double worst) {
        if (!(worst < LIMIT)) {
            throw new IllegalArgumentException("the costs of this input could exceed 2^62 bytes, beyond exact 64-bit "
                    + "arithmetic: use fewer flushes, smaller flush sizes, fewer reads or a smaller read cost");
        }
    }
}
