package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.LevelView;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;

/**
 * Which level of a leveled tree needs compaction: the size-ratio scoring of LevelDB and RocksDB
 * ({@code VersionStorageInfo::ComputeCompactionScore}, static level targets), written down once so that the
 * optimal search and the reference policies of the tests agree on it.
 * <ul>
 *   <li>Level 0's score is its number of files (not being compacted) over {@code l0Trigger}.</li>
 *   <li>Level i &gt;= 1 has target {@code baseLevelBytes x sizeRatio^(i - 1)}; its score is its bytes (not being
 *       compacted) over its target.</li>
 *   <li>The last level, {@code levels - 1}, is never scored: nothing is below it.</li>
 *   <li>The level to compact is the one with the highest score, if that score is {@code >= 1}; ties go to the
 *       shallower level.</li>
 * </ul>
 * A leveled policy that scores differently (dynamic level targets, L0 by bytes, ...) makes different level
 * choices; the search then explores a different space from the one that policy moves in.
 *
 * @param sizeRatio      T, {@code >= 2}
 * @param l0Trigger      level-0 file count that triggers a level-0 compaction, {@code >= 1}
 * @param baseLevelBytes target bytes of level 1, {@code >= 1}
 * @param levels         number of levels including level 0, {@code >= 2}
 */
public record LevelScoring(int sizeRatio, int l0Trigger, long baseLevelBytes, int levels) {

    /**
     * Checks the shape.
     *
     * @param sizeRatio      T, {@code >= 2}
     * @param l0Trigger      level-0 file count that triggers a level-0 compaction, {@code >= 1}
     * @param baseLevelBytes target bytes of level 1, {@code >= 1}
     * @param levels         number of levels including level 0, {@code >= 2}
     * @throws IllegalArgumentException naming the value, if one is out of range
     */
    public LevelScoring {
        if (sizeRatio < 2) {
            throw new IllegalArgumentException("size ratio must be >= 2, was " + sizeRatio);
        }
        if (l0Trigger < 1) {
            throw new IllegalArgumentException("level-0 trigger must be >= 1 file, was " + l0Trigger);
        }
        if (baseLevelBytes < 1) {
            throw new IllegalArgumentException("base level bytes must be >= 1, was " + baseLevelBytes);
        }
        if (levels < 2) {
            throw new IllegalArgumentException("levels must be >= 2, was " + levels);
        }
    }

    /**
     * {@return target bytes of level {@code n >= 1} (saturating at {@code Long.MAX_VALUE})}
     *
     * @param n a level, {@code >= 1}
     */
    public long targetBytes(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("only levels >= 1 have a byte target, asked " + n);
        }
        long t = baseLevelBytes;
        for (int i = 1; i < n; i++) {
            t = t > Long.MAX_VALUE / sizeRatio ? Long.MAX_VALUE : t * sizeRatio;
        }
        return t;
    }

    /**
     * {@return the score of level {@code n} of {@code view} (0 for the last level and for levels past the view)}
     *
     * @param view the tree
     * @param n    a level
     */
    public double score(TreeView view, int n) {
        if (n >= levels - 1 || n >= view.levelCount()) {
            return 0;
        }
        LevelView level = view.levels().get(n);
        if (n == 0) {
            long files = 0;
            for (SortedRun run : level.runs()) {
                files += run.compacting() ? 0 : run.tables().size();
            }
            return (double) files / l0Trigger;
        }
        long bytes = 0;
        for (SortedRun run : level.runs()) {
            for (SSTableInfo t : run.tables()) {
                bytes += t.compacting() ? 0 : t.bytes();
            }
        }
        return (double) bytes / targetBytes(n);
    }

    /**
     * {@return the level to compact in {@code view}, or -1 if no score reaches 1}
     *
     * @param view the tree
     */
    public int levelToCompact(TreeView view) {
        int best = -1;
        double bestScore = 1.0;
        for (int n = 0; n < Math.min(levels - 1, view.levelCount()); n++) {
            double s = score(view, n);
            if (s >= bestScore && (best < 0 || s > bestScore)) {
                best = n;
                bestScore = s;
            }
        }
        return best;
    }

    /**
     * {@return the level to compact in {@code tree}, or -1; the same rule, without building a view}
     *
     * @param tree the model tree
     */
    public int levelToCompact(ModelTree tree) {
        int best = -1;
        double bestScore = 1.0;
        for (int n = 0; n < Math.min(levels - 1, tree.levelCount()); n++) {
            double s = n == 0 ? (double) tree.level(0).size() / l0Trigger
                    : (double) tree.levelBytes(n) / targetBytes(n);
            if (s >= bestScore && (best < 0 || s > bestScore)) {
                best = n;
                bestScore = s;
            }
        }
        return best;
    }
}
