package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/**
 * Creates {@code one-leveling}: level 0 is a tier whose {@code l0-trigger} runs merge all at once into the base
 * level, deeper levels are leveled with partial compaction by least overlap (Sarkar et al., PVLDB 2021, 1-Lvl;
 * RocksDB's default shape), the preset {@link CompactionStrategy#ONE_LEVELING}. Parameters: the leveled shape,
 * as for {@code full-leveling}.
 */
public final class OneLevelingPolicyFactory extends StrategyPolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public OneLevelingPolicyFactory() {
    }

    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "one-leveling";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "1-leveling: level 0 a tier merged whole into the base level, leveled partial compaction below";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return LeveledParameters.SHAPE;
    }

    @Override
    CompactionStrategy strategy(PolicyParameters parameters) {
        return CompactionStrategy.ONE_LEVELING;
    }
}
