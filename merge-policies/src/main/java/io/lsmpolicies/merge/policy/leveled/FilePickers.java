package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.SSTableInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The orders in which each {@link Movement} tries the files of a level: a list of indexes into the level's
 * files (ascending by key), most preferred first. Every file of the level is ranked, busy ones included (as
 * RocksDB ranks them); the caller skips what it cannot take. Ties keep key order (the sorts are stable).
 */
final class FilePickers {
    private FilePickers() {
    }

    /**
     * The order of level {@code n}'s files under {@code m}. REQUIRES: {@code 1 <= n < tree.lastLevel()},
     * {@code m != NONE}.
     *
     * @param cursor level {@code n}'s round-robin cursor, or {@code null} (used by {@code ROUND_ROBIN} only)
     */
    static List<Integer> order(Movement m, Tree tree, int n, LevelTargets targets, LeveledSettings s, Key cursor) {
        List<SSTableInfo> files = tree.files(n);
        switch (m) {
            case ROUND_ROBIN:
                return rotated(files, cursor);
            case MIN_OVERLAPPING_RATIO:
                return ascending(overlapRatios(tree, n, n + 1));
            case REFINED_MOR:
                return refinedMor(overlapRatios(tree, n, n + 1), s.refinedMorThreshold());
            case OLDEST_LARGEST_SEQ_FIRST:
                return sorted(files, Comparator.comparingLong(SSTableInfo::maxSequence));
            case OLDEST_SMALLEST_SEQ_FIRST:
                return sorted(files, Comparator.comparingLong(SSTableInfo::minSequence));
            case LEAST_OVERLAP_GRANDPARENT:
                return ascending(overlapRatios(tree, n, n + 2));
            case COLDEST:
                return sorted(files, Comparator.comparingLong(SSTableInfo::lastAccessMillis));
            case OLDEST:
                return sorted(files, Comparator.comparingLong(SSTableInfo::createdMillis)
                        .thenComparingLong(SSTableInfo::minSequence));
            case TOMBSTONE_DENSITY:
                return firstThenMor(tree, n, sorted(files, Comparator.comparingDouble(Tombstones::density).reversed()),
                        t -> Tombstones.dense(t, s.tombstoneDensityThreshold()));
            case TOMBSTONE_AGE:
                return firstThenMor(tree, n, sorted(files, Comparator.comparingLong(SSTableInfo::oldestTombstoneMillis)
                        .thenComparing(Comparator.comparingLong(SSTableInfo::tombstones).reversed())),
                        t -> Tombstones.expired(t, n, tree, targets, s));
            default:
                throw new IllegalArgumentException("movement " + m.choice() + " orders no files");
        }
    }

    /**
     * Bytes of level {@code other} overlapping each file of level {@code n}, divided by the file's bytes (at
     * least 1), in key order. Zero for every file when {@code other} is empty or past the last level.
     */
    static double[] overlapRatios(Tree tree, int n, int other) {
        List<SSTableInfo> files = tree.files(n);
        double[] r = new double[files.size()];
        for (int i = 0; i < r.length; i++) {
            SSTableInfo f = files.get(i);
            r[i] = (double) tree.overlapBytes(other, KeyRange.of(f)) / Math.max(1, f.bytes());
        }
        return r;
    }

    /**
     * Round robin: key order rotated to start at the first file whose min key is at or after {@code cursor}; not
     * rotated if there is no cursor or no such file.
     */
    static List<Integer> rotated(List<SSTableInfo> files, Key cursor) {
        int start = 0;
        if (cursor != null) {
            while (start < files.size() && files.get(start).minKey().compareTo(cursor) < 0) {
                start++;
            }
            if (start == files.size()) {
                start = 0;
            }
        }
        List<Integer> out = new ArrayList<>(files.size());
        for (int i = 0; i < files.size(); i++) {
            out.add((start + i) % files.size());
        }
        return out;
    }

    /**
     * RefinedMOR (Wei et al., EDBT 2025, Algorithm 1): with {@code min} the smallest ratio, the files whose
     * ratio is below {@code min (1 + th)} are candidates; a candidate {@code j} is re-ranked as
     * {@code th r[j] - r[j + 1]} (its successor's ratio read before the successor is re-ranked, as the
     * algorithm's loop does). The last file, if a candidate, comes first (the algorithm returns it); then every
     * file by its re-ranked or original ratio, so the next file is the algorithm's final MOR over the re-ranked
     * ratios. With {@code min = 0} nothing is a candidate and this is MinOverlappingRatio's order.
     */
    static List<Integer> refinedMor(double[] r, double th) {
        if (r.length == 0) {
            return List.of();
        }
        double min = Double.MAX_VALUE;
        for (double x : r) {
            min = Math.min(min, x);
        }
        double bound = min * (1 + th);
        double[] ranked = r.clone();
        boolean lastIsCandidate = false;
        for (int j = 0; j < r.length; j++) {
            if (r[j] < bound) {
                if (j == r.length - 1) {
                    lastIsCandidate = true;
                } else {
                    ranked[j] = th * r[j] - r[j + 1];
                }
            }
        }
        List<Integer> order = ascending(ranked);
        if (lastIsCandidate) {
            order.remove(Integer.valueOf(r.length - 1));
            order.add(0, r.length - 1);
        }
        return order;
    }

    /** Indexes ordered by ascending {@code values}, ties in index order. */
    static List<Integer> ascending(double[] values) {
        List<Integer> out = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            out.add(i);
        }
        out.sort(Comparator.comparingDouble(i -> values[i]));
        return out;
    }

    private static List<Integer> sorted(List<SSTableInfo> files, Comparator<SSTableInfo> by) {
        List<Integer> out = new ArrayList<>(files.size());
        for (int i = 0; i < files.size(); i++) {
            out.add(i);
        }
        out.sort((a, b) -> by.compare(files.get(a), files.get(b)));
        return out;
    }

    /** The files {@code first} accepts, in {@code preferred} order, then the others by MinOverlappingRatio. */
    private static List<Integer> firstThenMor(Tree tree, int n, List<Integer> preferred,
            java.util.function.Predicate<SSTableInfo> first) {
        List<SSTableInfo> files = tree.files(n);
        List<Integer> out = new ArrayList<>();
        for (int i : preferred) {
            if (first.test(files.get(i))) {
                out.add(i);
            }
        }
        for (int i : ascending(overlapRatios(tree, n, n + 1))) {
            if (!first.test(files.get(i))) {
                out.add(i);
            }
        }
        return out;
    }
}
