package io.lsmpolicies.merge.policy.leveled;

/**
 * The compaction trigger primitive: <i>when</i> to compact (Sarkar et al., PVLDB 14(11) 2021, Sect. 3.1.1).
 * Each value below is the full set of events that start a compaction; the delete-driven ones add their event
 * to level saturation, as the paper's TSD and TSA strategies do (Table 2).
 */
public enum Trigger {
    /**
     * Level saturation: level 0 holds at least {@code l0-trigger} files not being compacted, or a level
     * {@code i >= 1} holds more bytes (not being compacted) than its target.
     */
    SATURATION("saturation"),
    /**
     * Saturation, or a file (outside the last level) whose tombstones / entries exceed
     * {@code tombstone-density-threshold} (Sarkar et al.'s TSD trigger).
     */
    TOMBSTONE_DENSITY("tombstone-density"),
    /**
     * Saturation, or a file (outside the deepest non-empty level) holding a tombstone older than its level's
     * share of the delete-persistence threshold {@code tombstone-age-millis} (Sarkar et al.'s TSA trigger,
     * after Lethe).
     */
    TOMBSTONE_AGE("tombstone-age"),
    /**
     * The number of sorted runs reaches {@code l0-trigger}; then space amplification, size ratio or the run
     * count decide what merges (RocksDB's universal compaction, the paper's Tier). Tiering only.
     */
    SORTED_RUNS("sorted-runs");

    private final String choice;

    Trigger(String choice) {
        this.choice = choice;
    }

    /** {@return the name used in configuration, e.g. {@code tombstone-age}} */
    public String choice() {
        return choice;
    }

    /** The trigger named {@code choice}. REQUIRES: a validated choice. */
    static Trigger of(String choice) {
        return Choices.of(values(), choice, Trigger::choice);
    }
}
