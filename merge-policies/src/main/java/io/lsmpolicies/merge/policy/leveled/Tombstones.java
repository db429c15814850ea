package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.SSTableInfo;

/**
 * The two delete-driven tests, shared by the triggers and the pickers of the same name.
 *
 * <p><b>Density</b> (Sarkar et al., PVLDB 2021, TSD): tombstones / entries above the threshold.
 *
 * <p><b>Age</b> (Sarkar et al., TSA, after Lethe, Sarkar et al., SIGMOD 2020): a tombstone must reach the
 * deepest level within the delete-persistence threshold {@code D}. The levels a tombstone passes are level 0,
 * then the base level down to the deepest non-empty level (at least the base level): positions
 * {@code 0..L-1}. As in Lethe, each position gets a share of {@code D} growing by the size ratio T, so that the
 * shares add up to {@code D}; since a file only knows when its oldest tombstone was written (not when it
 * entered its level), we compare that age with the <i>cumulative</i> share: a file at position {@code p < L-1}
 * is expired when {@code now - oldestTombstoneMillis > D (T^(p+1) - 1) / (T^(L-1) - 1)}. Files at the last
 * position never expire (there is no deeper level). Levels above a dynamic base level count as position 0.
 */
final class Tombstones {
    private Tombstones() {
    }

    /** Tombstones / entries of {@code t} (0 for an empty file). */
    static double density(SSTableInfo t) {
        return t.entries() == 0 ? 0.0 : (double) t.tombstones() / t.entries();
    }

    /** Whether {@code t}'s tombstone density exceeds {@code threshold}. */
    static boolean dense(SSTableInfo t, double threshold) {
        return t.tombstones() > 0 && density(t) > threshold;
    }

    /** Whether {@code t}, a file of level {@code level}, holds a tombstone past its share of the threshold. */
    static boolean expired(SSTableInfo t, int level, Tree tree, LevelTargets targets, LeveledSettings s) {
        if (t.tombstones() == 0 || t.oldestTombstoneMillis() == SSTableInfo.NO_TOMBSTONE) {
            return false;
        }
        int base = targets.baseLevel();
        int last = Math.max(tree.deepestNonEmpty(), base);
        int positions = last - base + 2;
        int p = level < base ? 0 : level - base + 1;
        if (p >= positions - 1) {
            return false;
        }
        double t1 = s.sizeRatio();
        double share = s.tombstoneAgeMillis() * (Math.pow(t1, p + 1) - 1) / (Math.pow(t1, positions - 1) - 1);
        return (double) tree.now() - t.oldestTombstoneMillis() > share;
    }
}
