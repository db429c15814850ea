package io.lsmpolicies.merge.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The cost model played out literally over every schedule, for checking {@link OfflineOptimum} on small inputs.
 * It shares no code with it. The stack is a list of SSTables, each a flush interval [first, last], oldest first.
 * At step t the flush [t, t] is pushed; then every way of cutting the stack into contiguous groups is tried (each of
 * the m - 1 gaps between neighbours is merged or kept: 2^(m-1) ways). A group of two or more SSTables becomes one new
 * SSTable and costs its bytes; a group that is the flush alone costs l_t; an old SSTable left alone costs nothing.
 * Then r_t reads probe every SSTable. Several merges in one step are the groups; a cascade within a step (merging
 * again what the step just merged) reaches the same stack as one group and costs at least as much, so leaving it
 * out does not change the minimum. Runs in O(n! n) time: n &lt;= 10.
 */
final class ExhaustiveSchedules {
    private final long[] lengths;
    private final long[] reads;
    private final long readCost;
    private final int maxTables;
    private long best;
    private long schedules;

    private ExhaustiveSchedules(long[] lengths, long[] reads, long readCost, int maxTables) {
        this.lengths = lengths;
        this.reads = reads;
        this.readCost = readCost;
        this.maxTables = maxTables;
    }

    /** The least merge cost + read cost over all schedules. */
    static long minTotalCost(long[] lengths, long[] reads, long readCost) {
        ExhaustiveSchedules e = new ExhaustiveSchedules(lengths, reads, readCost, Integer.MAX_VALUE);
        return e.search();
    }

    /** The least merge cost over all schedules with at most {@code k} SSTables after every step. */
    static long minMergeCostWithDepth(long[] lengths, int k) {
        ExhaustiveSchedules e = new ExhaustiveSchedules(lengths, new long[lengths.length], 0, k);
        return e.search();
    }

    /** How many schedules (complete runs of n steps) the last search visited. */
    static long countSchedules(int n) {
        ExhaustiveSchedules e = new ExhaustiveSchedules(new long[n], new long[n], 0, Integer.MAX_VALUE);
        e.search();
        return e.schedules;
    }

    private long search() {
        best = Long.MAX_VALUE;
        step(0, new ArrayList<>(), 0);
        return best;
    }

    /** Runs step {@code t} (from 0) on {@code stack} (intervals {first, last}, oldest first) with cost so far. */
    private void step(int t, List<int[]> stack, long cost) {
        if (t == lengths.length) {
            schedules++;
            best = Math.min(best, cost);
            return;
        }
        List<int[]> withFlush = new ArrayList<>(stack);
        withFlush.add(new int[] {t, t});
        int m = withFlush.size();
        for (int cuts = 0; cuts < 1 << (m - 1); cuts++) {
            // bit g of cuts set: the gap between table g and table g + 1 is merged.
            List<int[]> next = new ArrayList<>();
            long stepCost = 0;
            int groupStart = 0;
            for (int g = 0; g < m; g++) {
                boolean mergedWithNext = g < m - 1 && (cuts & (1 << g)) != 0;
                if (mergedWithNext) {
                    continue;
                }
                int first = withFlush.get(groupStart)[0];
                int last = withFlush.get(g)[1];
                boolean isNew = g > groupStart || g == m - 1;
                if (isNew) {
                    for (int f = first; f <= last; f++) {
                        stepCost += lengths[f];
                    }
                }
                next.add(new int[] {first, last});
                groupStart = g + 1;
            }
            if (next.size() > maxTables) {
                continue;
            }
            stepCost += reads[t] * next.size() * readCost;
            step(t + 1, next, cost + stepCost);
        }
    }
}
