package io.lsmpolicies.merge.spi;

import java.util.ArrayList;
import java.util.List;

/**
 * The read-only view of the disk components a policy decides on: levels (index = level number), each
 * with sorted runs newest first, each with SSTables ascending by key. Immutable: the engine (or the
 * simulator) builds a new view for every decision.
 *
 * @param levels the levels, {@code levels.get(i).number() == i}; may be empty (no SSTables yet)
 */
public record TreeView(List<LevelView> levels) {

    /**
     * Copies the levels and checks their numbers.
     *
     * @param levels the levels, {@code levels.get(i).number() == i}
     * @throws IllegalArgumentException naming the level, if a level's number is not its position
     */
    public TreeView {
        levels = List.copyOf(levels);
        for (int i = 0; i < levels.size(); i++) {
            if (levels.get(i).number() != i) {
                throw new IllegalArgumentException(
                        "level at index " + i + " has number " + levels.get(i).number());
            }
        }
    }

    /**
     * {@return the view a stack-based policy sees: one level 0 holding {@code newestFirst}, its components}
     *
     * @param newestFirst the runs, newest first
     */
    public static TreeView stack(List<SortedRun> newestFirst) {
        return new TreeView(List.of(new LevelView(0, newestFirst)));
    }

    /**
     * {@return a stack view built from SSTables given newest first; convenient in tests}
     *
     * @param newestFirst the SSTables, newest first
     */
    public static TreeView stackOf(List<SSTableInfo> newestFirst) {
        List<SortedRun> runs = new ArrayList<>(newestFirst.size());
        for (SSTableInfo t : newestFirst) {
            runs.add(SortedRun.of(t));
        }
        return stack(runs);
    }

    /** {@return level 0's runs, newest first, or an empty list when the tree has no level} */
    public List<SortedRun> level0Runs() {
        return levels.isEmpty() ? List.of() : levels.get(0).runs();
    }

    /** {@return number of levels} */
    public int levelCount() {
        return levels.size();
    }

    /** {@return whether any SSTable in the tree is the input of a running merge} */
    public boolean anyCompacting() {
        for (LevelView level : levels) {
            for (SortedRun run : level.runs()) {
                if (run.compacting()) {
                    return true;
                }
            }
        }
        return false;
    }
}
