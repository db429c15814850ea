package io.lsmpolicies.merge.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code adaptive} against the exact offline optimum on fixed seeds of the standard families, short traces (the
 * published table, docs/policies.md section 6.3, uses 500 flushes and three seeds: {@code bin/lsm-sim-families}).
 * The bounds pin down today's behaviour with some margin, so a change to the rule that makes it worse fails here.
 */
class AdaptiveAgainstOptimumTest {
    private static final int FLUSHES = 200;
    private static final long[] SEEDS = {1000};

    private static double ratio(String family) {
        TraceFamily f = TraceFamily.standard().stream().filter(x -> x.name().equals(family)).findFirst().orElseThrow();
        MergePolicy adaptive = MergePolicies.create("adaptive", Map.of());
        return FamilyEvaluation.evaluate(f, FLUSHES, SEEDS, Map.of("adaptive", adaptive), 4096).ratios()
                .get("adaptive");
    }

    @Test
    void withoutReadsItIsOptimal() {
        assertThat(ratio("uniform/r=0")).isEqualTo(1.0);
        assertThat(ratio("pareto/r=0")).isEqualTo(1.0);
    }

    @Test
    void staysWithinItsMeasuredRatiosOnTheOtherFamilies() {
        // Measured when written: 1.437, 1.087, 1.288, 1.508 (the optimum is never beaten: ratios >= 1).
        assertThat(ratio("uniform/r=10")).isBetween(1.0, 1.55);
        assertThat(ratio("uniform/r=1000")).isBetween(1.0, 1.2);
        assertThat(ratio("normal/r=10000")).isBetween(1.0, 1.4);
        assertThat(ratio("pareto/w/r/w")).isBetween(1.0, 1.65);
    }
}
