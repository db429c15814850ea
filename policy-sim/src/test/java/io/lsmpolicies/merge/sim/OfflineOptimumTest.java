package io.lsmpolicies.merge.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.RegisteredStackPolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OfflineOptimumTest {
    private static final int LIMIT = OfflineOptimum.DEFAULT_EXACT_LIMIT;

    private static long[] randomLengths(SplittableRandom random, int n) {
        long[] l = new long[n];
        int max = random.nextBoolean() ? 10 : 1000;
        for (int t = 0; t < n; t++) {
            l[t] = random.nextInt(4) == 0 ? random.nextInt(max + 1) : random.nextInt(1, max + 1);
        }
        return l;
    }

    private static long[] randomReads(SplittableRandom random, int n) {
        long[] r = new long[n];
        int max = new int[] {0, 1, 5, 50}[random.nextInt(4)];
        for (int t = 0; t < n; t++) {
            r[t] = random.nextInt(max + 1);
        }
        return r;
    }

    @Test
    void theEnumeratorVisitsEveryScheduleOnce() {
        // Boundary b (between flushes b and b+1) disappears at one of the steps b+1..n or never: n! schedules.
        long factorial = 1;
        for (int n = 1; n <= 7; n++) {
            factorial *= n;
            assertThat(ExhaustiveSchedules.countSchedules(n)).isEqualTo(factorial);
        }
    }

    @Test
    void totalCostMatchesExhaustiveEnumerationOnEverySmallCase() {
        SplittableRandom random = new SplittableRandom(18);
        int cases = 0;
        for (int n = 1; n <= 9; n++) {
            int seeds = n <= 6 ? 120 : n == 7 ? 40 : n == 8 ? 12 : 3;
            for (int s = 0; s < seeds; s++) {
                long[] l = randomLengths(random, n);
                long[] r = randomReads(random, n);
                long readCost = new long[] {0, 1, 7, 4096}[random.nextInt(4)];
                long expected = ExhaustiveSchedules.minTotalCost(l, r, readCost);
                OptimalCost got = OfflineOptimum.minTotalCost(l, r, readCost, LIMIT);
                assertThat(got.exact()).isTrue();
                assertThat(got.cost()).as("n=%d l=%s r=%s B=%d", n, java.util.Arrays.toString(l),
                        java.util.Arrays.toString(r), readCost).isEqualTo(expected);
                cases++;
            }
        }
        assertThat(cases).isGreaterThan(500);
    }

    @Test
    void depthBoundedMergeCostMatchesExhaustiveEnumerationOnEverySmallCase() {
        SplittableRandom random = new SplittableRandom(1407);
        for (int n = 1; n <= 9; n++) {
            int seeds = n <= 6 ? 60 : n == 7 ? 20 : n == 8 ? 6 : 2;
            for (int s = 0; s < seeds; s++) {
                long[] l = randomLengths(random, n);
                int k = random.nextInt(1, n + 2);
                long expected = ExhaustiveSchedules.minMergeCostWithDepth(l, k);
                OptimalCost got = OfflineOptimum.minMergeCostWithDepth(l, k, LIMIT);
                assertThat(got.exact()).isTrue();
                assertThat(got.cost()).as("n=%d k=%d l=%s", n, k, java.util.Arrays.toString(l)).isEqualTo(expected);
            }
        }
    }

    @Test
    void tenFlushesMatchEnumerationToo() {
        SplittableRandom random = new SplittableRandom(10);
        long[] l = randomLengths(random, 10);
        long[] r = {3, 0, 0, 9, 1, 1, 0, 4, 2, 8};
        assertThat(OfflineOptimum.minTotalCost(l, r, 5, LIMIT).cost())
                .isEqualTo(ExhaustiveSchedules.minTotalCost(l, r, 5));
        assertThat(OfflineOptimum.minMergeCostWithDepth(l, 3, LIMIT).cost())
                .isEqualTo(ExhaustiveSchedules.minMergeCostWithDepth(l, 3));
    }

    @Test
    void closedForms() {
        SplittableRandom random = new SplittableRandom(3);
        for (int n : new int[] {1, 2, 17, 300}) {
            long[] l = randomLengths(random, n);
            long sum = 0;
            long everyStepMergesAll = 0;
            for (long x : l) {
                sum += x;
                everyStepMergesAll += sum;
            }
            // Without reads never merging is optimal: every flush is written once.
            assertThat(OfflineOptimum.minTotalCost(l, new long[n], 4096, LIMIT).cost()).isEqualTo(sum);
            assertThat(OfflineOptimum.minTotalCost(l, constant(n, 5), 0, LIMIT).cost()).isEqualTo(sum);
            // At most one SSTable: the only schedule merges everything at every step.
            assertThat(OfflineOptimum.minMergeCostWithDepth(l, 1, LIMIT).cost()).isEqualTo(everyStepMergesAll);
            // K >= n never binds.
            assertThat(OfflineOptimum.minMergeCostWithDepth(l, n, LIMIT).cost()).isEqualTo(sum);
            // Reads dearer than every merge there could be: one SSTable at every step.
            long dear = n * sum + 1;
            assertThat(OfflineOptimum.minTotalCost(l, constant(n, 1), dear, LIMIT).cost())
                    .isEqualTo(everyStepMergesAll + n * dear);
        }
    }

    @Test
    void noBoundedPolicyWritesLessThanTheDepthOptimumOnUnitFlushes() {
        // Unit flushes, K = 2: every depth-bounded policy keeps the bound, so none may write less than the optimum.
        long[] l = constant(500, 1);
        long optimum = OfflineOptimum.minMergeCostWithDepth(l, 2, LIMIT).cost();
        for (String name : RegisteredStackPolicies.taking("k")) { // every depth-bounded policy
            SimulationResult r = new Simulator(MergePolicies.create(name, Map.of("k", 2)), FlushSizeSources.of(l, "1"),
                    0).run(l.length);
            assertThat(r.maxComponentCount()).isLessThanOrEqualTo(2);
            assertThat(r.mergeCost()).as(name).isGreaterThanOrEqualTo(optimum);
        }
    }

    @Test
    void noPolicyBeatsTheOptimumOnRandomTraces() {
        SplittableRandom random = new SplittableRandom(42);
        for (int trial = 0; trial < 12; trial++) {
            int n = random.nextInt(20, 160);
            long[] l = randomLengths(random, n);
            long[] r = randomReads(random, n);
            long readCost = new long[] {1, 64, 4096}[random.nextInt(3)];
            int k = random.nextInt(1, 8);
            OptimalCost optimum = OfflineOptimum.minTotalCost(l, r, readCost, LIMIT);
            OptimalCost depth = OfflineOptimum.minMergeCostWithDepth(l, k, LIMIT);
            for (String name : MergePolicies.names(PolicyLayout.STACK)) {
                boolean bounded = MergePolicies.factory(name).parameters().stream().anyMatch(p -> p.name().equals("k"));
                MergePolicy p = MergePolicies.create(name, bounded ? Map.of("k", k) : Map.of());
                SimulationResult result = new Simulator(p, FlushSizeSources.of(l, "l"), ReadCountSources.of(r, "r"),
                        readCost, 0).run(n);
                assertThat(optimum.ratio(result.totalCost())).as("%s trial %d", name, trial).isGreaterThanOrEqualTo(1);
                if (bounded) {
                    assertThat(depth.ratio(result.mergeCost())).as("%s k=%d trial %d", name, k, trial)
                            .isGreaterThanOrEqualTo(1);
                }
            }
        }
    }

    @Test
    void constantKOneIsTheDepthOneOptimum() {
        long[] l = randomLengths(new SplittableRandom(5), 200);
        SimulationResult r = new Simulator(MergePolicies.create("constant", Map.of("k", 1)), FlushSizeSources.of(l,
                "l"), 0).run(l.length);
        assertThat(OfflineOptimum.minMergeCostWithDepth(l, 1, LIMIT).ratio(r.mergeCost())).isEqualTo(1.0);
    }

    @Test
    void beyondTheExactLimitBlocksGiveALowerBound() {
        SplittableRandom random = new SplittableRandom(77);
        for (int trial = 0; trial < 5; trial++) {
            int n = random.nextInt(60, 200);
            long[] l = randomLengths(random, n);
            long[] r = randomReads(random, n);
            OptimalCost exact = OfflineOptimum.minTotalCost(l, r, 100, LIMIT);
            OptimalCost bound = OfflineOptimum.minTotalCost(l, r, 100, 25);
            assertThat(exact.exact()).isTrue();
            assertThat(exact.describe()).isEqualTo("exact");
            assertThat(bound.exact()).isFalse();
            assertThat(bound.blocks()).isEqualTo((n + 24) / 25);
            assertThat(bound.blockFlushes()).isLessThanOrEqualTo(25);
            assertThat(bound.describe()).startsWith("lower bound (").contains("blocks of <= ");
            assertThat(bound.cost()).isLessThanOrEqualTo(exact.cost());
            OptimalCost depthExact = OfflineOptimum.minMergeCostWithDepth(l, 3, LIMIT);
            OptimalCost depthBound = OfflineOptimum.minMergeCostWithDepth(l, 3, 25);
            assertThat(depthBound.exact()).isFalse();
            assertThat(depthBound.cost()).isLessThanOrEqualTo(depthExact.cost());
        }
    }

    @Test
    void prefixOptimaAreTheOptimaOfEachPrefixAndBoundEveryPolicysCostSoFar() {
        SplittableRandom random = new SplittableRandom(99);
        long[] l = randomLengths(random, 120);
        long[] r = randomReads(random, 120);
        long[] prefixes = OfflineOptimum.minTotalCostOfPrefixes(l, r, 64, LIMIT);
        for (int t : new int[] {1, 2, 7, 60, 120}) {
            assertThat(prefixes[t - 1]).as("t=%d", t).isEqualTo(OfflineOptimum.minTotalCost(
                    java.util.Arrays.copyOf(l, t), java.util.Arrays.copyOf(r, t), 64, LIMIT).cost());
        }
        assertThat(OfflineOptimum.totalOf(prefixes, LIMIT)).isEqualTo(OfflineOptimum.minTotalCost(l, r, 64, LIMIT));
        long[] bounds = OfflineOptimum.minTotalCostOfPrefixes(l, r, 64, 50);
        assertThat(OfflineOptimum.totalOf(bounds, 50).exact()).isFalse();
        for (int t = 0; t < l.length; t++) {
            assertThat(bounds[t]).isLessThanOrEqualTo(prefixes[t]);
        }
        assertThat(java.util.Arrays.copyOf(bounds, 40)).isEqualTo(java.util.Arrays.copyOf(prefixes, 40));
        for (String name : MergePolicies.names(PolicyLayout.STACK)) {
            boolean bounded = MergePolicies.factory(name).parameters().stream().anyMatch(p -> p.name().equals("k"));
            MergePolicy p = MergePolicies.create(name, bounded ? Map.of("k", 3) : Map.of());
            new Simulator(p, FlushSizeSources.of(l, "l"), ReadCountSources.of(r, "r"), 64, 0).run(l.length,
                    step -> assertThat(step.totalCost()).as("%s after flush %d", name, step.flush())
                            .isGreaterThanOrEqualTo(prefixes[(int) step.flush() - 1]));
        }
    }

    @Test
    void rejectsBadInput() {
        assertThatThrownBy(() -> OfflineOptimum.minTotalCost(new long[] {1}, new long[] {1, 2}, 1, LIMIT))
                .hasMessage("there are 1 flush lengths but 2 read counts");
        assertThatThrownBy(() -> OfflineOptimum.minTotalCost(new long[] {1, -2}, new long[2], 1, LIMIT))
                .hasMessage("flush 2 has negative length -2");
        assertThatThrownBy(() -> OfflineOptimum.minTotalCost(new long[] {1}, new long[] {-1}, 1, LIMIT))
                .hasMessage("flush 1 has negative read count -1");
        assertThatThrownBy(() -> OfflineOptimum.minTotalCost(new long[0], new long[0], 1, LIMIT))
                .hasMessage("the optimum needs at least one flush");
        assertThatThrownBy(() -> OfflineOptimum.minTotalCost(new long[] {1}, new long[1], 1, 0))
                .hasMessageContaining("the exact limit must be in [1, 4096] flushes, was 0");
        assertThatThrownBy(() -> OfflineOptimum.minMergeCostWithDepth(new long[] {1}, 0, LIMIT))
                .hasMessage("the depth bound K must be >= 1, was 0");
        assertThatThrownBy(() -> OfflineOptimum.minTotalCost(new long[] {Long.MAX_VALUE / 2, 1}, new long[2], 1,
                LIMIT)).hasMessageContaining("could exceed 2^62 bytes");
    }

    private static long[] constant(int n, long value) {
        long[] a = new long[n];
        java.util.Arrays.fill(a, value);
        return a;
    }
}
