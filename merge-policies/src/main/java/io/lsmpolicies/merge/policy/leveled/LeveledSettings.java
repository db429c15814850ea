package io.lsmpolicies.merge.policy.leveled;

import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.BASE_LEVEL_BYTES;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.L0_STOP_TRIGGER;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.L0_TRIGGER;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.LEVEL_TARGETS;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.MAX_COMPACTION_BYTES;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.MAX_MERGE_WIDTH;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.MAX_SIZE_AMPLIFICATION_PERCENT;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.MIN_MERGE_WIDTH;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.NUM_LEVELS;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.REFINED_MOR_THRESHOLD;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.SIZE_RATIO;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.SIZE_RATIO_PERCENT;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.TARGET_FILE_BYTES;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.TOMBSTONE_AGE_MILLIS;
import static io.lsmpolicies.merge.policy.leveled.LeveledParameters.TOMBSTONE_DENSITY_THRESHOLD;

import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyParameters;

/**
 * Every numeric setting of the leveled family, resolved: a parameter the policy does not declare takes its
 * default, and {@code max-compaction-bytes = 0} becomes 25 x {@code target-file-bytes} (RocksDB's
 * sanitising). Built only by {@link #from}.
 */
record LeveledSettings(
        int sizeRatio,
        int l0Trigger,
        int l0StopTrigger,
        long baseLevelBytes,
        boolean dynamicTargets,
        long targetFileBytes,
        long maxCompactionBytes,
        int numLevels,
        double refinedMorThreshold,
        double tombstoneDensityThreshold,
        long tombstoneAgeMillis,
        int sizeRatioPercent,
        int minMergeWidth,
        int maxMergeWidth,
        int maxSizeAmplificationPercent) {

    /**
     * The settings of validated {@code p}.
     *
     * @throws PolicyConfigurationException if {@code l0-stop-trigger < l0-trigger} or
     *                                      {@code min-merge-width > max-merge-width}
     */
    static LeveledSettings from(PolicyParameters p) {
        int l0 = intOf(p, L0_TRIGGER);
        int stop = intOf(p, L0_STOP_TRIGGER);
        if (stop < l0) {
            throw new PolicyConfigurationException(p.policy(), L0_STOP_TRIGGER.name(), Integer.toString(stop),
                    "policy '" + p.policy() + "': parameter 'l0-stop-trigger' = " + stop + " is below parameter "
                            + "'l0-trigger' = " + l0 + "; accepted: l0-trigger <= l0-stop-trigger");
        }
        int minWidth = intOf(p, MIN_MERGE_WIDTH);
        int maxWidth = intOf(p, MAX_MERGE_WIDTH);
        if (minWidth > maxWidth) {
            throw new PolicyConfigurationException(p.policy(), MIN_MERGE_WIDTH.name(), Integer.toString(minWidth),
                    "policy '" + p.policy() + "': parameter 'min-merge-width' = " + minWidth + " exceeds parameter "
                            + "'max-merge-width' = " + maxWidth + "; accepted: min-merge-width <= max-merge-width");
        }
        long target = longOf(p, TARGET_FILE_BYTES);
        long maxCompaction = longOf(p, MAX_COMPACTION_BYTES);
        if (maxCompaction == 0) {
            maxCompaction = Sizes.multiply(target, 25);
        }
        return new LeveledSettings(intOf(p, SIZE_RATIO), l0, stop, longOf(p, BASE_LEVEL_BYTES),
                "dynamic".equals(value(p, LEVEL_TARGETS)), target, maxCompaction, intOf(p, NUM_LEVELS),
                doubleOf(p, REFINED_MOR_THRESHOLD), doubleOf(p, TOMBSTONE_DENSITY_THRESHOLD),
                longOf(p, TOMBSTONE_AGE_MILLIS), intOf(p, SIZE_RATIO_PERCENT), minWidth, maxWidth,
                intOf(p, MAX_SIZE_AMPLIFICATION_PERCENT));
    }

    private static Object value(PolicyParameters p, ParameterSpec spec) {
        return p.has(spec.name()) ? p.values().get(spec.name()) : spec.defaultValue();
    }

    private static int intOf(PolicyParameters p, ParameterSpec spec) {
        return ((Number) value(p, spec)).intValue();
    }

    private static long longOf(PolicyParameters p, ParameterSpec spec) {
        return ((Number) value(p, spec)).longValue();
    }

    private static double doubleOf(PolicyParameters p, ParameterSpec spec) {
        return ((Number) value(p, spec)).doubleValue();
    }
}
