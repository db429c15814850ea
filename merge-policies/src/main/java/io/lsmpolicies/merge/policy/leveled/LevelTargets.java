package io.lsmpolicies.merge.policy.leveled;

/**
 * The base level (where level 0 drains) and the target bytes of every level, RocksDB's rules
 * ({@code VersionStorageInfo::CalculateBaseBytes}). {@link Long#MAX_VALUE}
 * means no target (level 0, levels above the base level, and the last level, which is never compacted down).
 *
 * <ul>
 *   <li><b>Static</b>: the base level is 1; {@code target(1) = base-level-bytes},
 *       {@code target(i) = target(i - 1) x T}.</li>
 *   <li><b>Dynamic</b> ({@code level_compaction_dynamic_level_bytes}): targets are derived downwards from the
 *       largest level so that the last level holds about T times the one above it. With every level below 0
 *       empty, level 0 drains straight into the last level. Otherwise, dividing the largest level's bytes by T once
 *       per level from the last level up to the first non-empty one gives that level's share; if it is at most
 *       {@code base-level-bytes / T} the first non-empty level is the base level with target
 *       {@code base-level-bytes / T + 1}; else the base level moves up (dividing by T again) while that share
 *       exceeds {@code base-level-bytes}, and its target is the share (at most {@code base-level-bytes}). Below the
 *       base level each target is T times the one above, and no target is below {@code base-level-bytes}.</li>
 * </ul>
 * The base level is never below the first non-empty level, so level 0 never drains under older data.
 * Omitted from RocksDB: {@code max_bytes_for_level_multiplier_additional} (all 1), and the eager draining of
 * "unnecessary" levels (non-empty levels above where the last level's size says data should start): here such a
 * level is compacted only once it exceeds its target.
 *
 * @param baseLevel the level that level 0 compacts into, {@code 1 <= baseLevel <= numLevels - 1}
 * @param targets   target bytes by level number, {@code numLevels} entries
 */
record LevelTargets(int baseLevel, long[] targets) {

    static final long NONE = Long.MAX_VALUE;

    /** The targets of {@code tree} under {@code s}. */
    static LevelTargets of(Tree tree, LeveledSettings s) {
        return s.dynamicTargets() ? dynamic(tree, s) : fixed(tree.numLevels(), s);
    }

    /** Target bytes of level {@code n} ({@link #NONE} for none). */
    long target(int n) {
        return n < targets.length ? targets[n] : NONE;
    }

    private static LevelTargets fixed(int numLevels, LeveledSettings s) {
        long[] targets = new long[numLevels];
        targets[0] = NONE;
        long size = s.baseLevelBytes();
        for (int n = 1; n < numLevels; n++) {
            targets[n] = size;
            size = Sizes.multiply(size, s.sizeRatio());
        }
        targets[numLevels - 1] = NONE;
        return new LevelTargets(1, targets);
    }

    private static LevelTargets dynamic(Tree tree, LeveledSettings s) {
        int n = tree.numLevels();
        long[] targets = new long[n];
        java.util.Arrays.fill(targets, NONE);
        int first = -1;
        long maxLevelBytes = 0;
        for (int i = 1; i < n; i++) {
            long bytes = tree.bytes(i);
            if (bytes > 0 && first < 0) {
                first = i;
            }
            maxLevelBytes = Math.max(maxLevelBytes, bytes);
        }
        if (first < 0) {
            return new LevelTargets(n - 1, targets);
        }
        long ratio = s.sizeRatio();
        long baseMax = s.baseLevelBytes();
        long baseMin = baseMax / ratio;
        long cur = maxLevelBytes;
        for (int i = n - 2; i >= first; i--) {
            cur /= ratio;
        }
        int base = first;
        long baseSize;
        if (cur <= baseMin) {
            baseSize = baseMin + 1;
        } else {
            while (base > 1 && cur > baseMax) {
                base--;
                cur /= ratio;
            }
            baseSize = cur > baseMax ? baseMax : Math.max(1, cur);
        }
        long size = baseSize;
        for (int i = base; i < n - 1; i++) {
            if (i > base) {
                size = Sizes.multiply(size, ratio);
            }
            targets[i] = Math.max(size, baseMax);
        }
        return new LevelTargets(base, targets);
    }
}
