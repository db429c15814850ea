package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.SSTableInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The decisions of the leveled layouts ({@link DataLayout#LEVELING} and {@link DataLayout#ONE_LEVELING}), after
 * RocksDB's leveled picker ({@code db/compaction/compaction_picker_level.cc}, {@code compaction_picker.cc} and the
 * scores of {@code VersionStorageInfo::ComputeCompactionScore}) with the primitives of the strategy.
 *
 * <p><b>Scores.</b> Level 0: its files not being compacted / {@code l0-trigger}; level {@code i} from 1 to the
 * one above the last: its bytes not being compacted / its target ({@link LevelTargets}); the last level has no
 * score. RocksDB's extra level-0 byte terms and its dynamic-mode score scaling are left out.
 *
 * <p><b>Order.</b> Levels holding files a delete trigger marks go first, shallowest first (the trigger comes
 * before saturation in Sarkar et al.'s TSD and TSA); then levels scoring at least 1, highest first, ties to the
 * shallower. A level that cannot start a compaction now is passed over; if level 0 could not, the base level is
 * passed over too, so that its files stay free for level 0 (RocksDB does the same).
 *
 * <p><b>Level 0</b> drains into the base level, one compaction at a time: with layout leveling, the oldest
 * level-0 file (or the first marked one) and every level-0 file overlapping it, transitively; with one-leveling
 * or granularity level, all of level 0. The base level contributes every file overlapping the inputs' key range
 * (all its files for granularity level). One level-0 file overlapping nothing below moves trivially.
 *
 * <p><b>Level i >= 1</b>, granularity file: first the marked files; then, if the level is saturated, any file
 * overlapping nothing in level {@code i + 1} moves trivially, the movement's favourite first (Wei et al., EDBT
 * 2025, Observation 8: trivial moves before compactions); then the first file in the movement's order that is
 * free and whose overlapping files in level {@code i + 1} are free, merged with them. Round robin instead takes
 * only the file at its cursor, as RocksDB's {@code kRoundRobin} does: moved trivially if it overlaps nothing in
 * level {@code i + 1}, else merged; if it or its overlap is busy, nothing is taken from the level this round (no
 * other file's trivial move jumps the queue, which would leave the cursor's keys waiting while later ones move).
 * The compaction then grows, within
 * {@code max-compaction-bytes}, to neighbouring files of level {@code i} lying inside the key range already
 * covered (so no file of level {@code i + 1} is added: RocksDB's input expansion); round robin instead grows
 * rightwards file by file, as RocksDB's does, until the level would fall below its target.
 * Granularity level: all of level {@code i} with all of level {@code i + 1}, or, if level {@code i + 1} is
 * empty, a trivial move of every file.
 *
 * <p><b>Delete-driven jobs end in a rewrite.</b> A file the trigger marks (tombstone density or age) moves
 * trivially only while some deeper level still overlaps it, that is towards the data its tombstones delete. Once
 * nothing deeper overlaps it, it is rewritten into the level below by a {@link MergeKind#REAL} job of that file
 * alone, which is bottommost, so the engine drops its tombstones (those no live snapshot still needs). A marked
 * file is never moved down to the last level unchanged, where no trigger would see it again (Sarkar et al.,
 * PVLDB 2021, TSD and TSA: the point of the trigger is to purge the tombstones).
 *
 * <p><b>Output.</b> Every job's output goes to the level below its start level (the base level for level 0),
 * cut at grandparent boundaries ({@code target-file-bytes}, {@code max-compaction-bytes}), or, under round robin,
 * at the output level's cursor. Trivial moves carry the same cut, which they do not use.
 *
 * <p>Since every job takes all files of the output level overlapping its key range, and never a busy file or a
 * file whose overlap is busy, two running jobs into one level never overlap: the engine's deferral is not needed.
 */
final class LeveledCompaction {
    private final CompactionStrategy strategy;
    private final LeveledSettings s;

    LeveledCompaction(CompactionStrategy strategy, LeveledSettings settings) {
        this.strategy = strategy;
        this.s = settings;
    }

    Decision decide(Tree tree, CompactionState state) {
        LevelTargets targets = LevelTargets.of(tree, s);
        List<List<SSTableInfo>> marked = marked(tree, targets);
        double[] scores = scores(tree, targets, s);
        boolean skipBase = false;
        for (int n : levelOrder(scores, marked)) {
            if (skipBase && n == targets.baseLevel()) {
                continue;
            }
            Decision d = n == 0 ? level0(tree, targets, marked.get(0), scores[0], state)
                    : level(tree, n, targets, marked.get(n), scores[n] >= 1, state);
            if (d != null) {
                return d;
            }
            if (n == 0) {
                skipBase = true;
            }
        }
        return Decision.none(state);
    }

    /** Scores of levels {@code 0 .. lastLevel - 1} (see the class comment). */
    static double[] scores(Tree tree, LevelTargets targets, LeveledSettings s) {
        double[] scores = new double[tree.lastLevel()];
        scores[0] = tree.idleFiles(0) / (double) s.l0Trigger();
        for (int n = 1; n < scores.length; n++) {
            long target = targets.target(n);
            scores[n] = target == LevelTargets.NONE ? 0 : tree.idleBytes(n) / (double) target;
        }
        return scores;
    }

    /** Levels with marked files, shallowest first; then saturated levels, highest score first. */
    private static List<Integer> levelOrder(double[] scores, List<List<SSTableInfo>> marked) {
        List<Integer> out = new ArrayList<>();
        List<Integer> saturated = new ArrayList<>();
        for (int n = 0; n < scores.length; n++) {
            if (!marked.get(n).isEmpty()) {
                out.add(n);
            } else if (scores[n] >= 1) {
                saturated.add(n);
            }
        }
        saturated.sort(Comparator.comparingDouble((Integer n) -> scores[n]).reversed());
        out.addAll(saturated);
        return out;
    }

    /** Per level {@code 0 .. lastLevel - 1}: the free files the trigger marks, most urgent first. */
    private List<List<SSTableInfo>> marked(Tree tree, LevelTargets targets) {
        List<List<SSTableInfo>> out = new ArrayList<>();
        for (int n = 0; n < tree.lastLevel(); n++) {
            List<SSTableInfo> m = new ArrayList<>();
            for (SSTableInfo t : tree.files(n)) {
                if (t.compacting()) {
                    continue;
                }
                if (strategy.trigger() == Trigger.TOMBSTONE_DENSITY && Tombstones.dense(t, s.tombstoneDensityThreshold())
                        || strategy.trigger() == Trigger.TOMBSTONE_AGE && Tombstones.expired(t, n, tree, targets, s)) {
                    m.add(t);
                }
            }
            if (strategy.trigger() == Trigger.TOMBSTONE_DENSITY) {
                m.sort(Comparator.comparingDouble(Tombstones::density).reversed());
            } else {
                m.sort(Comparator.comparingLong(SSTableInfo::oldestTombstoneMillis)
                        .thenComparing(Comparator.comparingLong(SSTableInfo::tombstones).reversed()));
            }
            out.add(m);
        }
        return out;
    }

    private Decision level0(Tree tree, LevelTargets targets, List<SSTableInfo> marked, double score,
            CompactionState state) {
        List<SSTableInfo> files = tree.files(0);
        if (files.isEmpty() || tree.anyCompacting(0)) {
            return null;
        }
        boolean whole = strategy.granularity() == Granularity.LEVEL || strategy.layout() == DataLayout.ONE_LEVELING;
        List<SSTableInfo> inputs = whole ? files : closure(files, marked.isEmpty() ? files.get(files.size() - 1)
                : marked.get(0));
        int out = targets.baseLevel();
        List<SSTableInfo> below = strategy.granularity() == Granularity.LEVEL ? tree.files(out)
                : tree.overlapping(out, KeyRange.of(inputs));
        if (Tree.anyCompacting(below)) {
            return null;
        }
        String why = marked.isEmpty()
                ? String.format(Locale.ROOT, "L0 holds %d files (l0-trigger %d, score %.2f)", tree.idleFiles(0),
                        s.l0Trigger(), score)
                : "L0 file " + marked.get(0).id() + " " + markReason(marked.get(0));
        if (inputs.size() == 1 && below.isEmpty()) {
            if (!marked.isEmpty() && !tree.overlapsBelow(out, KeyRange.of(inputs))) {
                return Decision.of(new MergeJob(inputs, out, cut(state, out), MergeKind.REAL, why + ": L0 file "
                        + inputs.get(0).id() + " overlaps nothing below, rewritten into L" + out
                        + " to drop its tombstones"), state);
            }
            return Decision.of(new MergeJob(inputs, out, cut(state, out), MergeKind.TRIVIAL_MOVE, why
                    + ": L0 file " + inputs.get(0).id() + " overlaps nothing in L" + out + ", moved"), state);
        }
        List<SSTableInfo> all = new ArrayList<>(inputs);
        all.addAll(below);
        return Decision.of(new MergeJob(all, out, cut(state, out), MergeKind.REAL, why + ": " + inputs.size()
                + " L0 files with " + below.size() + " L" + out + " files into L" + out), state);
    }

    /** {@code seed} and every file of {@code files} overlapping the growing range, transitively. */
    private static List<SSTableInfo> closure(List<SSTableInfo> files, SSTableInfo seed) {
        List<SSTableInfo> in = new ArrayList<>();
        in.add(seed);
        KeyRange range = KeyRange.of(seed);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (SSTableInfo t : files) {
                if (!in.contains(t) && range.overlaps(t)) {
                    in.add(t);
                    range = range.union(KeyRange.of(t));
                    grew = true;
                }
            }
        }
        List<SSTableInfo> ordered = new ArrayList<>(); // keep level 0's order, newest first
        for (SSTableInfo t : files) {
            if (in.contains(t)) {
                ordered.add(t);
            }
        }
        return ordered;
    }

    private Decision level(Tree tree, int n, LevelTargets targets, List<SSTableInfo> marked, boolean saturated,
            CompactionState state) {
        List<SSTableInfo> files = tree.files(n);
        if (files.isEmpty()) {
            return null;
        }
        String why = String.format(Locale.ROOT, "L%d holds %d bytes (target %d)", n, tree.idleBytes(n),
                targets.target(n));
        if (strategy.granularity() == Granularity.LEVEL) {
            return wholeLevel(tree, n, why, state);
        }
        for (SSTableInfo t : marked) {
            Decision d = partial(tree, n, files.indexOf(t), false, true, targets, state, "L" + n + " file " + t.id()
                    + " " + markReason(t));
            if (d != null) {
                return d;
            }
        }
        if (!saturated) {
            return null;
        }
        List<Integer> order = FilePickers.order(strategy.movement(), tree, n, targets, s, state.cursor(n));
        if (strategy.movement() == Movement.ROUND_ROBIN) { // only the cursor's file, moved or merged
            return partial(tree, n, order.get(0), true, false, targets, state, why + ": round-robin cursor "
                    + state.cursor(n) + " picks");
        }
        for (int i : order) {
            SSTableInfo t = files.get(i);
            if (!t.compacting() && tree.overlapping(n + 1, KeyRange.of(t)).isEmpty()) {
                return Decision.of(new MergeJob(List.of(t), n + 1, cut(state, n + 1), MergeKind.TRIVIAL_MOVE, why
                        + ": " + strategy.movement().choice() + " picks L" + n + " file " + t.id()
                        + ", which overlaps nothing in L" + (n + 1) + ", moved"), state);
            }
        }
        for (int i : order) {
            Decision d = partial(tree, n, i, false, false, targets, state, why + ": " + strategy.movement().choice()
                    + " picks");
            if (d != null) {
                return d;
            }
        }
        return null;
    }

    /**
     * File {@code i} of level {@code n} with its overlap in level {@code n + 1}, grown; {@code null} if it or its
     * overlap is busy. A {@code marked} file overlapping nothing deeper is rewritten, not moved (class comment).
     */
    private Decision partial(Tree tree, int n, int i, boolean roundRobin, boolean marked, LevelTargets targets,
            CompactionState state, String why) {
        List<SSTableInfo> files = tree.files(n);
        SSTableInfo seed = files.get(i);
        if (seed.compacting()) {
            return null;
        }
        List<SSTableInfo> below = tree.overlapping(n + 1, KeyRange.of(seed));
        if (Tree.anyCompacting(below)) {
            return null;
        }
        CompactionState next = roundRobin ? advance(state, n, files, i) : state;
        if (below.isEmpty() && marked && !tree.overlapsBelow(n + 1, KeyRange.of(seed))) {
            return Decision.of(new MergeJob(List.of(seed), n + 1, cut(state, n + 1), MergeKind.REAL, why + ": L" + n
                    + " file " + seed.id() + " overlaps nothing below, rewritten into L" + (n + 1)
                    + " to drop its tombstones"), next);
        }
        if (below.isEmpty()) {
            return Decision.of(new MergeJob(List.of(seed), n + 1, cut(state, n + 1), MergeKind.TRIVIAL_MOVE, why
                    + " L" + n + " file " + seed.id() + ", which overlaps nothing in L" + (n + 1) + ", moved"), next);
        }
        int lo = i;
        int hi = i;
        long startBytes = seed.bytes();
        if (roundRobin) {
            long excess = tree.idleBytes(n) - targets.target(n);
            while (startBytes <= excess && hi + 1 < files.size()) {
                SSTableInfo g = files.get(hi + 1);
                List<SSTableInfo> grown = tree.overlapping(n + 1, KeyRange.of(files.subList(lo, hi + 2)));
                if (g.compacting() || Tree.anyCompacting(grown)
                        || Sizes.add(Sizes.add(startBytes, g.bytes()), Tree.total(grown)) > s.maxCompactionBytes()) {
                    break;
                }
                hi++;
                startBytes += g.bytes();
                below = grown;
            }
            next = advance(state, n, files, hi);
        } else {
            KeyRange covered = KeyRange.of(seed).union(KeyRange.of(below));
            long bytes = Sizes.add(startBytes, Tree.total(below));
            while (lo > 0 && fits(files.get(lo - 1), covered, bytes)) {
                bytes += files.get(--lo).bytes();
            }
            while (hi + 1 < files.size() && fits(files.get(hi + 1), covered, bytes)) {
                bytes += files.get(++hi).bytes();
            }
        }
        List<SSTableInfo> inputs = new ArrayList<>(files.subList(lo, hi + 1));
        String taken = inputs.size() == 1 ? " L" + n + " file " + seed.id()
                : " L" + n + " files " + ids(inputs) + " (from file " + seed.id() + ")";
        inputs.addAll(below);
        return Decision.of(new MergeJob(inputs, n + 1, cut(state, n + 1), MergeKind.REAL, why + taken + " with "
                + below.size() + " overlapping L" + (n + 1) + " files"), next);
    }

    private boolean fits(SSTableInfo t, KeyRange covered, long bytes) {
        return !t.compacting() && covered.contains(t) && Sizes.add(bytes, t.bytes()) <= s.maxCompactionBytes();
    }

    private Decision wholeLevel(Tree tree, int n, String why, CompactionState state) {
        if (tree.anyCompacting(n) || tree.anyCompacting(n + 1)) {
            return null;
        }
        List<SSTableInfo> files = tree.files(n);
        List<SSTableInfo> below = tree.files(n + 1);
        OutputCut cut = cut(state, n + 1);
        if (below.isEmpty()) {
            List<MergeJob> moves = new ArrayList<>();
            for (SSTableInfo t : files) {
                moves.add(new MergeJob(List.of(t), n + 1, cut, MergeKind.TRIVIAL_MOVE, why + ": L" + (n + 1)
                        + " is empty, so L" + n + " moves down file by file (file " + t.id() + ")"));
            }
            return new Decision(moves, state);
        }
        List<SSTableInfo> inputs = new ArrayList<>(files);
        inputs.addAll(below);
        return Decision.of(new MergeJob(inputs, n + 1, cut, MergeKind.REAL, why + ": all " + files.size() + " L" + n
                + " files with all " + below.size() + " L" + (n + 1) + " files"), state);
    }

    /** The state with level {@code n}'s cursor on the file after {@code files[last]}, wrapping to the first. */
    private static CompactionState advance(CompactionState state, int n, List<SSTableInfo> files, int last) {
        return state.withCursor(n, files.get((last + 1) % files.size()).minKey());
    }

    /** How every job into {@code outputLevel} is cut (see the class comment, "Output"). */
    OutputCut cut(CompactionState state, int outputLevel) {
        if (strategy.movement() == Movement.ROUND_ROBIN) {
            Key cursor = state.cursor(outputLevel);
            return new OutputCut.AtCursor(s.targetFileBytes(), cursor == null ? Key.EMPTY : cursor);
        }
        return new OutputCut.AtGrandparentBoundaries(s.targetFileBytes(), s.maxCompactionBytes());
    }

    private String markReason(SSTableInfo t) {
        if (strategy.trigger() == Trigger.TOMBSTONE_DENSITY) {
            return String.format(Locale.ROOT, "has tombstone density %.3f > %s", Tombstones.density(t),
                    s.tombstoneDensityThreshold());
        }
        return "holds a tombstone written at " + t.oldestTombstoneMillis() + ", past its share of tombstone-age-millis "
                + s.tombstoneAgeMillis();
    }

    private static List<Long> ids(List<SSTableInfo> tables) {
        List<Long> out = new ArrayList<>();
        for (SSTableInfo t : tables) {
            out.add(t.id());
        }
        return out;
    }
}
