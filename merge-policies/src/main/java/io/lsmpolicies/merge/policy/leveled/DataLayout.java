package io.lsmpolicies.merge.policy.leveled;

/**
 * The data-layout primitive: <i>how</i> data is organised into sorted runs per level (Sarkar et al., PVLDB
 * 14(11) 2021, Sect. 3.1.2). In this engine level 0 always holds overlapping flushed files, one sorted run each,
 * and every deeper level one sorted run; the layouts differ in how level 0 and the deeper levels are drained.
 */
public enum DataLayout {
    /**
     * Every level below 0 is one sorted run; level 0 is drained at file granularity: its oldest file (or the
     * file a delete trigger names) together with every level-0 file overlapping it, transitively. With
     * {@code l0-trigger = 2} level 0 never keeps more than one run: the paper's pure leveling.
     */
    LEVELING("leveling"),
    /**
     * Level 0 is a tier: when it holds {@code l0-trigger} runs they are merged all at once (sorted-run
     * granularity) into the base level; every deeper level is leveled (the paper's 1-Lvl, RocksDB's default
     * shape).
     */
    ONE_LEVELING("one-leveling"),
    /**
     * Every non-empty level, and every level-0 file, is a sorted run of its own; runs are merged with each other
     * (RocksDB's universal compaction, the paper's Tier).
     */
    TIERING("tiering");

    private final String choice;

    DataLayout(String choice) {
        this.choice = choice;
    }

    /** {@return the name used in configuration, e.g. {@code one-leveling}} */
    public String choice() {
        return choice;
    }

    static DataLayout of(String choice) {
        return Choices.of(values(), choice, DataLayout::choice);
    }
}
