package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.ParameterSpec;
import java.util.List;

/**
 * The parameters of the leveled family, declared once; each factory lists the ones its strategy uses.
 * Defaults are RocksDB's ({@code include/rocksdb/options.h}, {@code advanced_options.h}) except where a paper
 * fixes them (RefinedMOR's threshold) and {@code level-targets}, static as in both papers' experiments.
 */
final class LeveledParameters {
    private LeveledParameters() {
    }

    /** Largest accepted byte count: 1 PiB, far beyond any level, small enough that products stay readable. */
    static final long MAX_BYTES = 1L << 50;

    static final ParameterSpec SIZE_RATIO = ParameterSpec.optionalInt("size-ratio", 2, 1000, 10,
            "T: each level's target is T times the target of the level above (max_bytes_for_level_multiplier)");
    static final ParameterSpec L0_TRIGGER = ParameterSpec.optionalInt("l0-trigger", 1, 10_000, 4,
            "level 0 is compacted once it holds this many files not being compacted; universal: this many sorted "
                    + "runs (level0_file_num_compaction_trigger)");
    static final ParameterSpec L0_STOP_TRIGGER = ParameterSpec.optionalInt("l0-stop-trigger", 1, 1_000_000, 36,
            "merging is lagging (writes wait) while level 0 holds this many files; >= l0-trigger "
                    + "(level0_stop_writes_trigger)");
    static final ParameterSpec BASE_LEVEL_BYTES = ParameterSpec.optionalLong("base-level-bytes", 1, MAX_BYTES,
            256L << 20, "target bytes of the base level, the one level 0 drains into (max_bytes_for_level_base)");
    static final ParameterSpec LEVEL_TARGETS = ParameterSpec.optionalChoice("level-targets",
            List.of("static", "dynamic"), "static", "static: base level 1, targets base x T^(i-1); dynamic: "
                    + "targets derived down from the last level's size (level_compaction_dynamic_level_bytes)");
    static final ParameterSpec TARGET_FILE_BYTES = ParameterSpec.optionalLong("target-file-bytes", 1, MAX_BYTES,
            64L << 20, "size at which compaction outputs are cut (target_file_size_base)");
    static final ParameterSpec MAX_COMPACTION_BYTES = ParameterSpec.optionalLong("max-compaction-bytes", 0,
            MAX_BYTES, 0, "bound on a compaction grown past one file, and on an output file's grandparent overlap; "
                    + "0 means 25 x target-file-bytes (max_compaction_bytes)");
    static final ParameterSpec NUM_LEVELS = ParameterSpec.optionalInt("num-levels", 2, 64, 7,
            "number of levels L0..L(n-1); the last one has no target (num_levels)");
    static final ParameterSpec PICKER = ParameterSpec.optionalChoice("picker", Movement.pickerChoices(),
            Movement.MIN_OVERLAPPING_RATIO.choice(), "which file of a saturated level is compacted (compaction_pri)");
    static final ParameterSpec REFINED_MOR_THRESHOLD = ParameterSpec.optionalDouble("refined-mor-threshold", 0.0,
            1.0, 0.05, "th of RefinedMOR: files whose overlapping ratio is below (1 + th) x the minimum are candidates");
    static final ParameterSpec TOMBSTONE_DENSITY_THRESHOLD = ParameterSpec.optionalDouble(
            "tombstone-density-threshold", 0.0, 1.0, 0.2,
            "tombstone-density picker and trigger: files whose tombstones / entries exceed this go first");
    static final ParameterSpec TOMBSTONE_AGE_MILLIS = ParameterSpec.optionalLong("tombstone-age-millis", 1,
            MAX_BYTES, 86_400_000L, "tombstone-age picker and trigger: delete-persistence threshold; a tombstone "
                    + "should reach the last level within it");

    static final ParameterSpec SIZE_RATIO_PERCENT = ParameterSpec.optionalInt("size-ratio-percent", 0, 1_000_000, 1,
            "universal: a run joins the merge if it is at most (100 + this)% of the runs gathered so far (size_ratio)");
    static final ParameterSpec MIN_MERGE_WIDTH = ParameterSpec.optionalInt("min-merge-width", 2, Integer.MAX_VALUE, 2,
            "universal: fewest runs in a size-ratio merge (min_merge_width)");
    static final ParameterSpec MAX_MERGE_WIDTH = ParameterSpec.optionalInt("max-merge-width", 2, Integer.MAX_VALUE,
            Integer.MAX_VALUE, "universal: most runs in a size-ratio merge; the default means unbounded (max_merge_width)");
    static final ParameterSpec MAX_SIZE_AMPLIFICATION_PERCENT = ParameterSpec.optionalInt(
            "max-size-amplification-percent", 0, 1_000_000, 200, "universal: everything is merged once the runs "
                    + "newer than the oldest hold this % of its bytes (max_size_amplification_percent)");

    static final ParameterSpec TRIGGER = ParameterSpec.optionalChoice("trigger",
            Choices.names(Trigger.values(), Trigger::choice), Trigger.SATURATION.choice(),
            "when to compact: the trigger primitive");
    static final ParameterSpec LAYOUT = ParameterSpec.optionalChoice("layout",
            Choices.names(DataLayout.values(), DataLayout::choice), DataLayout.LEVELING.choice(),
            "how runs are organised per level: the data-layout primitive");
    static final ParameterSpec GRANULARITY = ParameterSpec.optionalChoice("granularity",
            Choices.names(Granularity.values(), Granularity::choice), Granularity.FILE.choice(),
            "how much one compaction moves: the granularity primitive");
    static final ParameterSpec MOVEMENT = ParameterSpec.optionalChoice("movement",
            Choices.names(Movement.values(), Movement::choice), Movement.MIN_OVERLAPPING_RATIO.choice(),
            "which file a partial compaction takes: the data-movement primitive (none for whole levels or runs)");

    /** The shape of a leveled tree: level targets, level-0 triggers, file and compaction sizes. */
    static final List<ParameterSpec> SHAPE = List.of(SIZE_RATIO, L0_TRIGGER, L0_STOP_TRIGGER, BASE_LEVEL_BYTES,
            LEVEL_TARGETS, TARGET_FILE_BYTES, MAX_COMPACTION_BYTES, NUM_LEVELS);

    /** The pickers' own thresholds. */
    static final List<ParameterSpec> PICKER_THRESHOLDS = List.of(REFINED_MOR_THRESHOLD, TOMBSTONE_DENSITY_THRESHOLD,
            TOMBSTONE_AGE_MILLIS);

    /** Universal compaction's options (with l0-trigger, l0-stop-trigger and num-levels from {@link #SHAPE}). */
    static final List<ParameterSpec> UNIVERSAL = List.of(SIZE_RATIO_PERCENT, MIN_MERGE_WIDTH, MAX_MERGE_WIDTH,
            MAX_SIZE_AMPLIFICATION_PERCENT, L0_TRIGGER, L0_STOP_TRIGGER, NUM_LEVELS);
}
