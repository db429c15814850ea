package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.LevelView;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;

/**
 * The partial compactions of a leveled tree, built from a {@link TreeView}: the moves the optimal search chooses
 * among, and the jobs of the tests' reference policies, so that both move in the same space.
 * <ul>
 *   <li>Level 0: every level-0 file together with the level-1 files that overlap their combined key range, into
 *       level 1; a trivial move when that is a single level-0 file and nothing overlaps it.</li>
 *   <li>Level i &gt;= 1: one file of level i with the files of level i + 1 that overlap it, into level i + 1; a
 *       trivial move when nothing overlaps it (Wei et al., EDBT 2025, Sect. 2: one file per partial compaction).</li>
 * </ul>
 * Real compactions are cut by the given {@link OutputCut}.
 */
public final class LeveledMoves {
    private LeveledMoves() {
    }

    /**
     * {@return the one level-0 compaction of {@code view}} REQUIRES: level 0 is not empty.
     *
     * @param view the tree
     * @param cut  how the output is cut
     */
    public static MergeJob level0(TreeView view, OutputCut cut) {
        List<SSTableInfo> inputs = new ArrayList<>();
        Key min = null;
        Key max = null;
        for (SortedRun run : view.level0Runs()) {
            for (SSTableInfo t : run.tables()) {
                inputs.add(t);
                min = min == null || t.minKey().compareTo(min) < 0 ? t.minKey() : min;
                max = max == null || t.maxKey().compareTo(max) > 0 ? t.maxKey() : max;
            }
        }
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("level 0 is empty: no level-0 compaction");
        }
        List<SSTableInfo> below = overlapping(view, 1, min, max);
        if (inputs.size() == 1 && below.isEmpty()) {
            return new MergeJob(inputs, 1, cut, MergeKind.TRIVIAL_MOVE, "L0 -> L1: the only level-0 file overlaps "
                    + "nothing in level 1");
        }
        int l0 = inputs.size();
        inputs.addAll(below);
        return new MergeJob(inputs, 1, cut, MergeKind.REAL, "L0 -> L1: " + l0 + " level-0 files and "
                + below.size() + " overlapping level-1 files");
    }

    /**
     * The compaction of file {@code index} (0-based, by key) of level {@code level >= 1} into the level below.
     *
     * @param view  the tree
     * @param level a level, {@code >= 1}
     * @param index the file's index in the level, by key
     * @param cut   how the output is cut
     * @return the job
     * @throws IllegalArgumentException if the level has no such file
     */
    public static MergeJob file(TreeView view, int level, int index, OutputCut cut) {
        List<SSTableInfo> files = files(view, level);
        if (level < 1 || index < 0 || index >= files.size()) {
            throw new IllegalArgumentException("level " + level + " has no file " + index + " (it has " + files.size()
                    + ")");
        }
        SSTableInfo picked = files.get(index);
        List<SSTableInfo> below = overlapping(view, level + 1, picked.minKey(), picked.maxKey());
        String which = "L" + level + " file " + (index + 1) + " of " + files.size();
        if (below.isEmpty()) {
            return new MergeJob(List.of(picked), level + 1, cut, MergeKind.TRIVIAL_MOVE, which + " -> L" + (level + 1)
                    + ": overlaps nothing below");
        }
        List<SSTableInfo> inputs = new ArrayList<>();
        inputs.add(picked);
        inputs.addAll(below);
        return new MergeJob(inputs, level + 1, cut, MergeKind.REAL, which + " -> L" + (level + 1) + " with "
                + below.size() + " overlapping files");
    }

    /**
     * {@return every compaction of level {@code level}: the one level-0 job, or one job per file of a deeper level}
     *
     * @param view  the tree
     * @param level a level
     * @param cut   how the output is cut
     */
    public static List<MergeJob> candidates(TreeView view, int level, OutputCut cut) {
        if (level == 0) {
            return List.of(level0(view, cut));
        }
        List<MergeJob> out = new ArrayList<>();
        for (int i = 0; i < files(view, level).size(); i++) {
            out.add(file(view, level, i, cut));
        }
        return out;
    }

    /**
     * {@return the files of level {@code level >= 1}, ascending by key (empty past the deepest level)}
     *
     * @param view  the tree
     * @param level a level, {@code >= 1}
     */
    public static List<SSTableInfo> files(TreeView view, int level) {
        if (level >= view.levelCount()) {
            return List.of();
        }
        LevelView l = view.levels().get(level);
        List<SSTableInfo> out = new ArrayList<>();
        for (SortedRun run : l.runs()) {
            out.addAll(run.tables());
        }
        return out;
    }

    /**
     * Files of level {@code level} whose key range meets {@code [min, max]}, ascending by key.
     *
     * @param view  the tree
     * @param level a level
     * @param min   the smallest key of the range
     * @param max   the largest key of the range
     * @return the files
     */
    public static List<SSTableInfo> overlapping(TreeView view, int level, Key min, Key max) {
        List<SSTableInfo> out = new ArrayList<>();
        for (SSTableInfo t : files(view, level)) {
            if (t.minKey().compareTo(max) <= 0 && min.compareTo(t.maxKey()) <= 0) {
                out.add(t);
            }
        }
        return out;
    }
}
