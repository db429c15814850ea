package io.lsmpolicies.merge.spi;

import java.util.List;

/**
 * One level of the tree: its sorted runs, <b>newest first</b> (index 0 is the most recently created run).
 * A stack-based policy sees a single level 0 whose runs are its components (one SSTable each, or the files of a
 * merge an engine split by key; see {@link SortedRun}); a leveled tree has several
 * runs (overlapping files) in level 0 and one run per deeper level. Immutable.
 *
 * @param number the level number, {@code >= 0}
 * @param runs   the runs, newest first; an immutable list (copied unless already immutable)
 */
public record LevelView(int number, List<SortedRun> runs) {

    /**
     * Copies the runs unless they are already an immutable list.
     *
     * @param number the level number
     * @param runs   the runs, newest first
     * @throws IllegalArgumentException if {@code number < 0}
     */
    public LevelView {
        if (number < 0) {
            throw new IllegalArgumentException("level number must be >= 0, was " + number);
        }
        runs = ImmutableLists.of(runs);
    }
}
