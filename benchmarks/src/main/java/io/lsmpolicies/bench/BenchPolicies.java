package io.lsmpolicies.bench;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import java.util.List;
import java.util.Map;

/**
 * How the benchmarks configure the registered policies: {@code k = 10} for every policy that has a
 * {@code k} parameter, the registered defaults for every other parameter (so {@code tiered} runs with its
 * default size ratio and {@code prefix} with AsterixDB's defaults).
 */
final class BenchPolicies {
    /** The bounded-depth parameter used for every policy that takes one. */
    static final int K = 10;

    /** Seed of the uniform flush sizes, fixed so every run sees the same sizes. */
    static final long SEED = 42L;

    /** The flush-size source of every benchmark, in the simulator's text form. */
    static final String FLUSH_SIZES = "uniform:1:100";

    private BenchPolicies() {
    }

    /** Policy {@code name} with {@code k = 10} if it takes {@code k}, defaults otherwise. */
    static MergePolicy create(String name) {
        List<ParameterSpec> specs = MergePolicies.factory(name).parameters();
        boolean takesK = specs.stream().anyMatch(p -> p.name().equals("k"));
        return MergePolicies.create(name, takesK ? Map.of("k", K) : Map.of());
    }
}
