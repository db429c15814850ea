package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/**
 * Creates {@code universal}: RocksDB's universal (tiered) compaction (Sarkar et al., PVLDB 2021, Tier), the
 * preset {@link CompactionStrategy#UNIVERSAL}; see {@link UniversalCompaction}. Parameters and defaults (RocksDB's):
 * {@code size-ratio-percent} 1, {@code min-merge-width} 2, {@code max-merge-width} unbounded
 * ({@link Integer#MAX_VALUE}), {@code max-size-amplification-percent} 200, {@code l0-trigger} 4 (runs),
 * {@code l0-stop-trigger} 36, {@code num-levels} 7.
 */
public final class UniversalPolicyFactory extends StrategyPolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public UniversalPolicyFactory() {
    }

    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "universal";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "universal (tiered): sorted runs merge by space amplification, size ratio or run count (RocksDB)";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return LeveledParameters.UNIVERSAL;
    }

    @Override
    CompactionStrategy strategy(PolicyParameters parameters) {
        return CompactionStrategy.UNIVERSAL;
    }
}
