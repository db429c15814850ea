package io.lsmpolicies.merge.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code adaptive} against the exact offline optimum: on constant flush lengths and read rates, where its schedule
 * tree is the least-cost tree of the rate, and on fixed seeds of the standard families, short traces (the published
 * table, docs/policies.md section 6.3, uses 500 flushes and three seeds: {@code bin/lsm-sim-families}). The bounds
 * sit a few percent above the ratios measured when this was written, so a change to the rule that makes it worse
 * fails here. Deterministic, about a second.
 */
class AdaptiveAgainstOptimumTest {
    private static final int FLUSHES = 200;
    private static final long[] SEEDS = {1000};

    private static double ratio(String family) {
        return ratio(family, SEEDS);
    }

    /** The mean ratio on {@code family}'s traces of {@link #FLUSHES} flushes for {@code seeds}. */
    private static double ratio(String family, long[] seeds) {
        TraceFamily f = TraceFamily.standard().stream().filter(x -> x.name().equals(family)).findFirst().orElseThrow();
        MergePolicy adaptive = MergePolicies.create("adaptive", Map.of());
        return FamilyEvaluation.evaluate(f, FLUSHES, seeds, Map.of("adaptive", adaptive), 4096).ratios()
                .get("adaptive");
    }

    /** The ratio on {@code n} flushes of 1 MB with {@code reads} reads after each. */
    private static double constantRatio(int n, long reads) {
        long[] lengths = new long[n];
        long[] counts = new long[n];
        Arrays.fill(lengths, 1_000_000);
        Arrays.fill(counts, reads);
        SimulationResult r = new Simulator(MergePolicies.create("adaptive", Map.of()),
                FlushSizeSources.of(lengths, "1 MB"), ReadCountSources.of(counts, "constant"), 4096, 1).run(n);
        return OfflineOptimum.minTotalCost(lengths, counts, 4096, OfflineOptimum.DEFAULT_EXACT_LIMIT)
                .ratio(r.totalCost());
    }

    @Test
    void withoutReadsItIsOptimal() {
        assertThat(ratio("uniform/r=0")).isEqualTo(1.0);
        assertThat(ratio("pareto/r=0")).isEqualTo(1.0);
    }

    @Test
    void onConstantLengthsAndRatesItIsNearTheOptimum() {
        // Measured when written: 1.000, 1.001, 1.035 (600 flushes; the tree is optimal whenever it has just completed
        // a least-cost tree, and its whole-stack merges fall at other times for other rates and lengths).
        assertThat(constantRatio(600, 10_000)).isBetween(1.0, 1.02);
        assertThat(constantRatio(600, 1_000)).isBetween(1.0, 1.02);
        assertThat(constantRatio(600, 100)).isBetween(1.0, 1.06);
    }

    @Test
    void atOneHundredReadsTheTreeCountsFlushesAndALongFlushMergesInItsOwnStep() {
        // Measured when written: 1.207 (Pareto lengths, mean of seeds 1000 to 1009, whose ratios spread from 1.07 to
        // 1.36) and 1.032 (uniform lengths, seed 1000); Tiered with size ratio 4: 1.190 and 1.089. When a merge
        // output's size was its bytes in mean flush lengths (a flush of 50 MB counted as 50 flushes) and a long flush
        // was a leaf like any other: 1.287 and 1.103.
        long[] tenSeeds = java.util.stream.LongStream.range(1000, 1010).toArray();
        assertThat(ratio("pareto/r=100", tenSeeds)).isBetween(1.0, 1.24);
        assertThat(ratio("uniform/r=100")).isBetween(1.0, 1.07);
    }

    @Test
    void staysWithinItsMeasuredRatiosOnTheOtherFamilies() {
        // Measured when written: 1.070, 1.028, 1.007, 1.147, 1.320 (the optimum is never beaten: ratios >= 1). The
        // last is a surge: 150 flushes with one read, then 1,000 reads after each of the last 50, which the first
        // step of the surge pays with every SSTable kept for one read a flush.
        assertThat(ratio("uniform/r=10")).isBetween(1.0, 1.12);
        assertThat(ratio("uniform/r=1000")).isBetween(1.0, 1.07);
        assertThat(ratio("normal/r=10000")).isBetween(1.0, 1.05);
        assertThat(ratio("uniform/alt")).isBetween(1.0, 1.2);
        assertThat(ratio("pareto/w/r/w")).isBetween(1.0, 1.7);
    }
}
