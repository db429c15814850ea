package io.lsmpolicies.merge.policy.leveled;

import java.util.ArrayList;
import java.util.List;

/**
 * The data-movement primitive: <i>which</i> file of a level a partial compaction takes (Sarkar et al., PVLDB
 * 14(11) 2021, Sect. 3.1.4; Wei et al., EDBT 2025, Sect. 2 call it the file-picking policy). Each value orders
 * the files of the start level; {@link FilePickers} computes the orders. Ties always go to the smaller key.
 * "Next level" is level {@code i + 1} for a file of level {@code i}; sizes are the files' data bytes.
 */
public enum Movement {
    /** No choice to make: whole levels or whole runs move (full leveling, tiering). */
    NONE("none"),
    /**
     * RocksDB's current round robin (Wei et al., Sect. 2, "Newly Implemented RoundRobin"): a per-level cursor
     * key, kept in the policy state; the file taken is the first whose smallest key is at or after the cursor
     * (the first file if none is); after a pick the cursor moves to the smallest key of the file following the
     * last file taken (wrapping to the first file); every compaction into a level cuts its output at that
     * level's cursor. Only the cursor's file may be taken, also when another file could move trivially (as in
     * RocksDB's {@code kRoundRobin}): it moves trivially itself if it overlaps nothing in the next level; if it
     * is busy, the level waits.
     */
    ROUND_ROBIN("round-robin"),
    /**
     * MinOverlappingRatio, RocksDB's default (Wei et al., Sect. 2; the L0+1 of Sarkar et al.): the smallest
     * ratio of overlapping next-level bytes to the file's bytes.
     */
    MIN_OVERLAPPING_RATIO("min-overlapping-ratio"),
    /**
     * RefinedMOR (Wei et al., Sect. 4, Algorithm 1) with threshold {@code th = refined-mor-threshold}: with
     * {@code m} the smallest overlapping ratio, every file whose ratio is below {@code m (1 + th)} is a candidate;
     * if the level's last file is a candidate it is taken, else the candidate minimising
     * {@code th * r(j) - r(j + 1)} (its key-order successor's ratio largest), ties to the smaller key. With
     * {@code m = 0} there is no candidate and this is MinOverlappingRatio.
     */
    REFINED_MOR("refined-mor"),
    /** OldestLargestSeqFirst (Wei et al., Sect. 2): the smallest largest sequence number. */
    OLDEST_LARGEST_SEQ_FIRST("oldest-largest-seq-first"),
    /** OldestSmallestSeqFirst (Wei et al., Sect. 2): the smallest smallest sequence number. */
    OLDEST_SMALLEST_SEQ_FIRST("oldest-smallest-seq-first"),
    /**
     * Least overlap with the grandparent level (Sarkar et al.'s L0+2): the smallest ratio of bytes overlapped in
     * level {@code i + 2} to the file's bytes.
     */
    LEAST_OVERLAP_GRANDPARENT("least-overlap-grandparent"),
    /**
     * Coldest (Sarkar et al.'s Cold): the least recently read file, smallest {@code lastAccessMillis}. (Wei et
     * al. also call OLSF "coldest"; here the word means read time, so the two differ.)
     */
    COLDEST("coldest"),
    /**
     * Oldest (Sarkar et al.'s Old): the file created longest ago, smallest {@code createdMillis} (then smaller
     * smallest sequence number). This is file age, not data age: OSSF is the oldest-data picker.
     */
    OLDEST("oldest"),
    /**
     * Tombstone density (Sarkar et al.'s TSD): files whose tombstones / entries exceed
     * {@code tombstone-density-threshold} first, densest first; then the rest by MinOverlappingRatio.
     */
    TOMBSTONE_DENSITY("tombstone-density"),
    /**
     * Tombstone age (Sarkar et al.'s TSA, after Lethe): files whose oldest tombstone has outlived its level's
     * share of {@code tombstone-age-millis} first, oldest tombstone first (then more tombstones); then the rest
     * by MinOverlappingRatio.
     */
    TOMBSTONE_AGE("tombstone-age");

    private final String choice;

    Movement(String choice) {
        this.choice = choice;
    }

    /** {@return the name used in configuration, e.g. {@code refined-mor}} */
    public String choice() {
        return choice;
    }

    static Movement of(String choice) {
        return Choices.of(values(), choice, Movement::choice);
    }

    /** The file pickers: every value but {@link #NONE}, as {@code leveled}'s {@code picker} lists them. */
    static List<String> pickerChoices() {
        List<String> out = new ArrayList<>(Choices.names(values(), Movement::choice));
        out.remove(NONE.choice());
        return List.copyOf(out);
    }
}
