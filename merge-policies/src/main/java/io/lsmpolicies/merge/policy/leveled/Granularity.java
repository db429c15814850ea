package io.lsmpolicies.merge.policy.leveled;

/**
 * The compaction-granularity primitive: <i>how much</i> data one compaction moves (Sarkar et al., PVLDB 14(11)
 * 2021, Sect. 3.1.3).
 */
public enum Granularity {
    /** A whole level merged with the whole next level (full compaction). */
    LEVEL("level"),
    /** Whole sorted runs merged with each other (tiering). */
    SORTED_RUNS("sorted-runs"),
    /**
     * One file, with the overlapping files of the next level, grown to adjacent files of its level while the
     * compaction stays within {@code max-compaction-bytes} (the paper's single and multiple files; partial
     * compaction).
     */
    FILE("file");

    private final String choice;

    Granularity(String choice) {
        this.choice = choice;
    }

    /** {@return the name used in configuration, e.g. {@code sorted-runs}} */
    public String choice() {
        return choice;
    }

    static Granularity of(String choice) {
        return Choices.of(values(), choice, Granularity::choice);
    }
}
