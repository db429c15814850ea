package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates {@code leveled}: RocksDB-style leveled compaction with partial compaction and a file picker, the
 * preset leveling x file x {@code picker} with the saturation trigger (plus the picker's own trigger for
 * {@code tombstone-density} and {@code tombstone-age}, as Sarkar et al.'s TSD and TSA). See
 * {@link LeveledCompaction}, {@link Movement} and {@link LeveledParameters} for the definitions and defaults:
 * {@code size-ratio} 10, {@code l0-trigger} 4, {@code l0-stop-trigger} 36, {@code base-level-bytes} 256 MiB,
 * {@code level-targets} static, {@code target-file-bytes} 64 MiB, {@code max-compaction-bytes} 0 (= 25 x target),
 * {@code num-levels} 7, {@code picker} min-overlapping-ratio, {@code refined-mor-threshold} 0.05,
 * {@code tombstone-density-threshold} 0.2, {@code tombstone-age-millis} one day.
 */
public final class LeveledPolicyFactory extends StrategyPolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public LeveledPolicyFactory() {
    }

    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "leveled";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "leveled with partial compaction: a saturated level's file, chosen by the picker, merges with its "
                + "overlap below (RocksDB)";
    }

    @Override
    public List<ParameterSpec> parameters() {
        List<ParameterSpec> out = new ArrayList<>(LeveledParameters.SHAPE);
        out.add(LeveledParameters.PICKER);
        out.addAll(LeveledParameters.PICKER_THRESHOLDS);
        return List.copyOf(out);
    }

    @Override
    CompactionStrategy strategy(PolicyParameters parameters) {
        return CompactionStrategy.leveled(Movement.of(parameters.getChoice(LeveledParameters.PICKER.name())));
    }
}
