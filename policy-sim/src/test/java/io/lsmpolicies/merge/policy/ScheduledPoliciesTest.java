package io.lsmpolicies.merge.policy;

import static io.lsmpolicies.merge.TestPolicies.policy;
import static io.lsmpolicies.merge.sim.Schedules.unitSchedule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.SimulationResult;
import io.lsmpolicies.merge.sim.Simulator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MinLatency and Binomial against the closed forms of Mathieu et al. (as restated by Mao et al. 2021). */
class ScheduledPoliciesTest {

    /**
     * Minimum model cost of n unit flushes under depth bound k, over all binary search trees (eager, stable
     * schedules): a node costs 1 + its merge depth; the root's left subtree gains a merge level, its right
     * subtree uses one stack level. cost[n][k] = min_r (cost[r-1][k] + (r-1) + 1 + cost[n-r][k-1]).
     */
    private static long[][] optimalCost(int maxN, int maxK) {
        long inf = Long.MAX_VALUE / 4;
        long[][] cost = new long[maxN + 1][maxK + 1];
        for (int n = 1; n <= maxN; n++) {
            cost[n][0] = inf;
            for (int k = 1; k <= maxK; k++) {
                long best = inf;
                for (int r = 1; r <= n; r++) {
                    best = Math.min(best, cost[r - 1][k] + (r - 1) + 1 + cost[n - r][k - 1]);
                }
                cost[n][k] = best;
            }
        }
        return cost;
    }

    /** Bytes the model does not charge (flushes merged in their own step), recovered exactly from the result. */
    private static long modelUncharged(SimulationResult r) {
        double engine = r.flushedBytes() + r.mergeOutputBytes();
        return Math.round(engine - r.modelWriteAmplification() * r.flushedBytes());
    }

    @Test
    void minLatencyWriteAmplificationIsAtMostMAndOptimalForUniformFlushes() {
        long[][] optimal = optimalCost(800, 6);
        for (int k = 1; k <= 6; k++) {
            for (int m = 1; Binomials.choose(m + k, k) - 1 <= 800; m++) {
                int n = (int) (Binomials.choose(m + k, k) - 1);
                SimulationResult r = new Simulator(policy("minlatency", "k", k), FlushSizeSources.constant(1), 0)
                        .run(n);
                assertThat(r.modelWriteAmplification()).as("k=%d m=%d n=%d", k, m, n).isLessThanOrEqualTo(m);
                assertThat(r.flushedBytes() + r.mergeOutputBytes() - modelUncharged(r)).as("optimal cost k=%d n=%d", k, n)
                        .isEqualTo(optimal[n][k]);
                assertThat(r.maxComponentCount()).isLessThanOrEqualTo(k);
            }
        }
    }

    @Test
    void minLatencyWriteAmplificationIsAtMostMOnAnyFlushSizes() {
        // The bound holds for every input: each flushed byte is rewritten at most m - 1 times.
        for (int k : new int[] {2, 3, 5}) {
            for (int m = 2; m <= 6; m++) {
                long n = Binomials.choose(m + k, k) - 1;
                for (String sizes : List.of("uniform:1:1000", "normal:500:400")) {
                    SimulationResult r = new Simulator(policy("minlatency", "k", k),
                            FlushSizeSources.parse(sizes, 7 * m + k), 7).run(n);
                    assertThat(r.modelWriteAmplification()).as("k=%d m=%d %s", k, m, sizes).isLessThanOrEqualTo(m);
                }
            }
        }
    }

    @Test
    void minLatencyWriteAmplificationIsAtMostMForEveryPrefixOfTheTree() {
        // The first n flushes follow tau*(m, k) for the smallest m with C(m + k, k) - 1 >= n, whose merge depth
        // is at most m - 1: every byte is written at most m times, whatever n and the sizes.
        java.util.SplittableRandom random = new java.util.SplittableRandom(2026);
        for (int trial = 0; trial < 40; trial++) {
            int k = 2 + random.nextInt(6);
            int n = 1 + random.nextInt(20_000);
            long m = 1;
            while (Binomials.choose(m + k, k) - 1 < n) {
                m++;
            }
            SimulationResult r = new Simulator(policy("minlatency", "k", k),
                    FlushSizeSources.parse("uniform:0:5000", trial), trial).run(n);
            assertThat(r.modelWriteAmplification()).as("k=%d n=%d", k, n).isLessThanOrEqualTo(m);
        }
    }

    @Test
    void minLatencyIsLazyAndBinomialIsNot() {
        // Before 4^k flushes Binomial merges while fewer than k SSTables exist; MinLatency never does.
        List<List<Long>> minLatency = unitSchedule(policy("minlatency", "k", 6), 500);
        List<List<Long>> binomial = unitSchedule(policy("binomial", "k", 6), 500);
        for (int t = 1; t < minLatency.size(); t++) {
            if (minLatency.get(t - 1).size() < 6) {
                assertThat(minLatency.get(t).size()).isEqualTo(minLatency.get(t - 1).size() + 1);
            }
        }
        double binomialAverage = binomial.stream().mapToInt(List::size).average().orElseThrow();
        double minLatencyAverage = minLatency.stream().mapToInt(List::size).average().orElseThrow();
        // Measured: 4.75 against 4.97 over these 500 flushes (4^6 = 4096 is the regime boundary).
        assertThat(binomialAverage).isLessThan(minLatencyAverage);
        int eagerMerges = 0;
        for (int t = 1; t < binomial.size(); t++) {
            if (binomial.get(t - 1).size() < 6 && binomial.get(t).size() <= binomial.get(t - 1).size()) {
                eagerMerges++;
            }
        }
        assertThat(eagerMerges).isEqualTo(99); // exactly, since the schedule is static
        assertThat(binomial.get(1)).containsExactly(2L); // flush 2 already merges, with one SSTable present
    }

    /** The definitions evaluated literally: linear searches for m', T_k summed term by term. */
    private static int naiveMinLatency(int k, long t) {
        long m = 1;
        while (Binomials.choose(m + k, m) <= t) {
            m++;
        }
        return Binomials.stackDepth(m, k, t);
    }

    private static int naiveBinomial(int k, long t) {
        long before = 0;
        long m = 1;
        while (before + Binomials.choose(m + Math.min(m, k) - 1, m) < t) {
            before += Binomials.choose(m + Math.min(m, k) - 1, m);
            m++;
        }
        return 1 + Binomials.stackDepth(m, Math.min(m, k) - 1, t - before - 1);
    }

    @Test
    void fastSearchesAgreeWithTheLiteralDefinitions() {
        for (int k = 1; k <= 8; k++) {
            for (long t = 1; t <= 30_000; t++) {
                assertThat(MinLatencyPolicy.target(k, t)).as("minlatency k=%d t=%d", k, t)
                        .isEqualTo(naiveMinLatency(k, t));
                assertThat(BinomialPolicy.target(k, t)).as("binomial k=%d t=%d", k, t).isEqualTo(naiveBinomial(k, t));
            }
        }
    }

    @Test
    void binomialAndMinLatencyCoincideInTheLargeNRegime() {
        for (int k = 1; k <= 6; k++) {
            // T_k(k) = sum_{j<=k} C(2j - 1, j); the schedules agree from then on, shifted by T_k(k) - C(2k, k) + 1.
            long tk = 0;
            for (int j = 1; j <= k; j++) {
                tk += Binomials.choose(2L * j - 1, j);
            }
            long shift = tk - Binomials.choose(2L * k, k) + 1;
            for (long t = tk + 1; t <= tk + 20_000; t++) {
                assertThat(BinomialPolicy.target(k, t)).as("k=%d t=%d", k, t)
                        .isEqualTo(MinLatencyPolicy.target(k, t - shift));
            }
        }
    }

    @Test
    void binomialAndMinLatencyWriteAmplificationConvergeForLargeN() {
        // k = 3: 4^k = 64 flushes; far beyond it the two cost the same up to the constant shift.
        SimulationResult b = new Simulator(policy("binomial", "k", 3), FlushSizeSources.constant(1), 0).run(200_000);
        SimulationResult m = new Simulator(policy("minlatency", "k", 3), FlushSizeSources.constant(1), 0).run(200_000);
        assertThat(b.modelWriteAmplification() / m.modelWriteAmplification()).isBetween(0.99, 1.01);
    }

    @Test
    void targetsStayWithinOneToKUpToTheLargestFlushIndex() {
        for (int k : new int[] {1, 2, 3, 10, 64, 1000, StackPolicies.MAX_K}) {
            for (long t : new long[] {1, 2, 1_000_000, 1L << 40, Binomials.MAX_FLUSH_INDEX - 1,
                    Binomials.MAX_FLUSH_INDEX}) {
                assertThat(MinLatencyPolicy.target(k, t)).as("minlatency k=%d t=%d", k, t).isBetween(1, k);
                assertThat(BinomialPolicy.target(k, t)).as("binomial k=%d t=%d", k, t).isBetween(1, k);
            }
            int kk = k;
            assertThatThrownBy(() -> MinLatencyPolicy.target(kk, Binomials.MAX_FLUSH_INDEX + 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flush index");
            assertThatThrownBy(() -> BinomialPolicy.target(kk, 0)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void theFlushCounterStopsBeforeTheSchedulesLeaveTheirDomain() {
        FlushCount last = new FlushCount(Binomials.MAX_FLUSH_INDEX, 0);
        assertThatThrownBy(last::nextFlush).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("overflow");
        assertThat(new FlushCount(Binomials.MAX_FLUSH_INDEX - 1, 0).nextFlush().flushes())
                .isEqualTo(Binomials.MAX_FLUSH_INDEX);
    }

    @Test
    void withKEqualToOneEveryFlushMergesEverything() {
        assertThat(unitSchedule(policy("minlatency", "k", 1), 4)).containsExactly(
                List.of(1L), List.of(2L), List.of(3L), List.of(4L));
        assertThat(unitSchedule(policy("binomial", "k", 1), 4)).containsExactly(
                List.of(1L), List.of(2L), List.of(3L), List.of(4L));
    }

    @Test
    void lagsUntilTheScheduledMergeIsInstalled() {
        var minLatency = policy("minlatency", "k", 4);
        // After flush 5 the schedule keeps 1 SSTable: [1,1,1,1,1] lags, [5] does not.
        FlushCount five = new FlushCount(5, 0);
        assertThat(minLatency.isMergeLagging(io.lsmpolicies.merge.Views.stack(1, 1, 1, 1, 1), five)).isTrue();
        assertThat(minLatency.isMergeLagging(io.lsmpolicies.merge.Views.stack(5), five)).isFalse();
        assertThat(minLatency.isMergeLagging(io.lsmpolicies.merge.Views.stack(), FlushCount.ZERO)).isFalse();
    }
}
