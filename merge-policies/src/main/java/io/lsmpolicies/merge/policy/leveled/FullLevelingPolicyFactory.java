package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/**
 * Creates {@code full-leveling}: a saturated level merges whole with the whole next level (Sarkar et al., PVLDB
 * 2021, Full), the preset {@link CompactionStrategy#FULL_LEVELING}. Parameters: the leveled shape
 * ({@code size-ratio} 10, {@code l0-trigger} 4, {@code l0-stop-trigger} 36, {@code base-level-bytes} 256 MiB,
 * {@code level-targets} static, {@code target-file-bytes} 64 MiB, {@code max-compaction-bytes} 25 x target for the
 * grandparent cut, {@code num-levels} 7).
 */
public final class FullLevelingPolicyFactory extends StrategyPolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public FullLevelingPolicyFactory() {
    }

    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "full-leveling";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "full leveling: a saturated level merges whole with the whole next level";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return LeveledParameters.SHAPE;
    }

    @Override
    CompactionStrategy strategy(PolicyParameters parameters) {
        return CompactionStrategy.FULL_LEVELING;
    }
}
