package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.LevelView;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The leveled reading of a {@link TreeView}: level 0's files newest first (one per run, as the engine shows
 * them), every level {@code 1..numLevels-1} as one list ascending by key with disjoint ranges, and the clock.
 * Immutable.
 *
 * <p>The clock ({@link #now()}) is the largest {@code createdMillis} in the view: the time of the latest flush
 * or merge, which is when the engine consults the policy. It keeps the policy a pure function of the view; it
 * lags real time by at most the time since that flush or merge.
 */
final class Tree {
    private final int numLevels;
    private final List<List<SSTableInfo>> levels;
    private final long now;

    private Tree(int numLevels, List<List<SSTableInfo>> levels, long now) {
        this.numLevels = numLevels;
        this.levels = levels;
        this.now = now;
    }

    /**
     * Reads {@code view} as a tree of {@code numLevels} levels.
     *
     * @throws IllegalArgumentException naming {@code policy} if a level below 0 holds overlapping files or a
     *                                  level at or past {@code numLevels} holds any file
     */
    static Tree of(String policy, TreeView view, int numLevels) {
        List<List<SSTableInfo>> levels = new ArrayList<>(numLevels);
        long now = Long.MIN_VALUE;
        for (LevelView level : view.levels()) {
            List<SSTableInfo> files = new ArrayList<>();
            for (SortedRun run : level.runs()) {
                files.addAll(run.tables());
            }
            for (SSTableInfo t : files) {
                now = Math.max(now, t.createdMillis());
            }
            if (level.number() >= numLevels) {
                if (!files.isEmpty()) {
                    throw new IllegalArgumentException("policy '" + policy + "': level " + level.number()
                            + " holds " + files.size() + " SSTables, but the policy has num-levels = " + numLevels);
                }
                continue;
            }
            if (level.number() > 0 && level.runs().size() > 1) {
                files.sort(Comparator.comparing(SSTableInfo::minKey));
                for (int i = 1; i < files.size(); i++) {
                    if (files.get(i - 1).maxKey().compareTo(files.get(i).minKey()) >= 0) {
                        throw new IllegalArgumentException("policy '" + policy + "': level " + level.number()
                                + " is not one sorted run: SSTables " + files.get(i - 1).id() + " and "
                                + files.get(i).id() + " overlap");
                    }
                }
            }
            levels.add(List.copyOf(files));
        }
        while (levels.size() < numLevels) {
            levels.add(List.of());
        }
        return new Tree(numLevels, List.copyOf(levels), now == Long.MIN_VALUE ? 0 : now);
    }

    int numLevels() {
        return numLevels;
    }

    /** The last level, {@code numLevels - 1}: it has no target and is never compacted down. */
    int lastLevel() {
        return numLevels - 1;
    }

    /** Level {@code n}'s files: newest first for level 0, ascending by key below. */
    List<SSTableInfo> files(int n) {
        return levels.get(n);
    }

    /** The clock: the largest {@code createdMillis} in the view (0 for an empty view). */
    long now() {
        return now;
    }

    /** Bytes of level {@code n}, every file counted. */
    long bytes(int n) {
        long sum = 0;
        for (SSTableInfo t : levels.get(n)) {
            sum = Sizes.add(sum, t.bytes());
        }
        return sum;
    }

    /** Bytes of level {@code n}'s files that are not being compacted. */
    long idleBytes(int n) {
        long sum = 0;
        for (SSTableInfo t : levels.get(n)) {
            if (!t.compacting()) {
                sum = Sizes.add(sum, t.bytes());
            }
        }
        return sum;
    }

    /** Number of level {@code n}'s files that are not being compacted. */
    int idleFiles(int n) {
        int count = 0;
        for (SSTableInfo t : levels.get(n)) {
            if (!t.compacting()) {
                count++;
            }
        }
        return count;
    }

    /** The deepest level holding a file, or -1 for an empty tree. */
    int deepestNonEmpty() {
        for (int n = numLevels - 1; n >= 0; n--) {
            if (!levels.get(n).isEmpty()) {
                return n;
            }
        }
        return -1;
    }

    /** Whether any file of level {@code n} is being compacted. */
    boolean anyCompacting(int n) {
        for (SSTableInfo t : levels.get(n)) {
            if (t.compacting()) {
                return true;
            }
        }
        return false;
    }

    /** Whether any file of a level deeper than {@code n} overlaps {@code range}. */
    boolean overlapsBelow(int n, KeyRange range) {
        for (int m = n + 1; m < numLevels; m++) {
            if (!overlapping(m, range).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Level {@code n}'s files overlapping {@code range}, in the level's order. Empty past the last level. */
    List<SSTableInfo> overlapping(int n, KeyRange range) {
        if (n >= numLevels) {
            return List.of();
        }
        List<SSTableInfo> files = levels.get(n);
        List<SSTableInfo> out = new ArrayList<>();
        if (n == 0) {
            for (SSTableInfo t : files) {
                if (range.overlaps(t)) {
                    out.add(t);
                }
            }
            return out;
        }
        int lo = 0;
        int hi = files.size();
        while (lo < hi) { // first file whose max key >= range.min (max keys ascend in a sorted run)
            int mid = (lo + hi) >>> 1;
            if (files.get(mid).maxKey().compareTo(range.min()) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo; i < files.size() && files.get(i).minKey().compareTo(range.max()) <= 0; i++) {
            out.add(files.get(i));
        }
        return out;
    }

    /** Total bytes of level {@code n}'s files overlapping {@code range}. */
    long overlapBytes(int n, KeyRange range) {
        return total(overlapping(n, range));
    }

    static long total(List<SSTableInfo> tables) {
        long sum = 0;
        for (SSTableInfo t : tables) {
            sum = Sizes.add(sum, t.bytes());
        }
        return sum;
    }

    static boolean anyCompacting(List<SSTableInfo> tables) {
        for (SSTableInfo t : tables) {
            if (t.compacting()) {
                return true;
            }
        }
        return false;
    }
}
