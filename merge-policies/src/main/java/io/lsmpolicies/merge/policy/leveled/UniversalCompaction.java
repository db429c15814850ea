package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.SSTableInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The decisions of the tiered layout: RocksDB's universal compaction ({@code UniversalCompactionBuilder} in
 * {@code db/compaction/compaction_picker_universal.cc}), Sarkar et al.'s Tier (PVLDB 2021, Table 2).
 *
 * <p>The sorted runs, newest first, are each level-0 file, then each non-empty level. Nothing happens while there
 * are fewer than {@code l0-trigger} runs. Otherwise, in this order, the first that applies:
 * <ol>
 *   <li><b>Space amplification</b>: if the runs newer than the oldest hold at least
 *       {@code max-size-amplification-percent}% of the oldest run's bytes, all runs merge into the last level.</li>
 *   <li><b>Size ratio</b>: for each start run, newest first, gather the following runs while the next one is at
 *       most {@code (100 + size-ratio-percent)}% of the bytes gathered so far, up to {@code max-merge-width} runs;
 *       the first span of at least {@code min-merge-width} runs merges.</li>
 *   <li><b>Run count</b>: with more than {@code l0-trigger} runs, the newest {@code runs - l0-trigger + 1} merge
 *       (at most {@code max-merge-width}; none if fewer than {@code min-merge-width}), whatever their sizes.</li>
 * </ol>
 * The output goes to the last level if the span includes the oldest run; otherwise into level 0 if the next older
 * run is a level-0 file, else into the level just above that run's. It is one file, as RocksDB writes one file
 * per sorted run here. Left out: periodic and delete-triggered compactions, RocksDB's exclusion of the newest
 * files from a size-amplification compaction, compensated sizes, trivial moves ({@code allow_trivial_move} is
 * off by default). One compaction runs at a time: while any file is being compacted, nothing is picked (so that
 * outputs into level 0 keep the runs' order).
 */
final class UniversalCompaction {
    private final LeveledSettings s;

    UniversalCompaction(LeveledSettings settings) {
        this.s = settings;
    }

    /** A sorted run: a level-0 file, or a whole level. */
    record Run(int level, List<SSTableInfo> tables, long bytes) {
    }

    /** The runs of {@code tree}, newest first. */
    static List<Run> runs(Tree tree) {
        List<Run> runs = new ArrayList<>();
        for (SSTableInfo t : tree.files(0)) {
            runs.add(new Run(0, List.of(t), t.bytes()));
        }
        for (int n = 1; n < tree.numLevels(); n++) {
            if (!tree.files(n).isEmpty()) {
                runs.add(new Run(n, tree.files(n), tree.bytes(n)));
            }
        }
        return runs;
    }

    Decision decide(Tree tree, CompactionState state) {
        for (int n = 0; n < tree.numLevels(); n++) {
            if (tree.anyCompacting(n)) {
                return Decision.none(state);
            }
        }
        List<Run> runs = runs(tree);
        int count = runs.size();
        if (count < s.l0Trigger() || count < 2) {
            return Decision.none(state);
        }
        double oldest = runs.get(count - 1).bytes();
        double newer = 0;
        for (int i = 0; i < count - 1; i++) {
            newer += runs.get(i).bytes();
        }
        if (newer * 100 >= s.maxSizeAmplificationPercent() * oldest) {
            return job(tree, runs, 0, count - 1, String.format(Locale.ROOT, "space amplification: the %d newer "
                    + "runs hold %.0f bytes, %.0f%% of the oldest run's %.0f (max-size-amplification-percent %d)",
                    count - 1, newer, oldest == 0 ? Double.POSITIVE_INFINITY : 100 * newer / oldest, oldest,
                    s.maxSizeAmplificationPercent()), state);
        }
        for (int start = 0; start + 1 < count; start++) {
            double gathered = runs.get(start).bytes();
            int width = 1;
            for (int r = start + 1; r < count && width < s.maxMergeWidth(); r++) {
                if (gathered * (100.0 + s.sizeRatioPercent()) / 100.0 < runs.get(r).bytes()) {
                    break;
                }
                gathered += runs.get(r).bytes();
                width++;
            }
            if (width >= s.minMergeWidth()) {
                return job(tree, runs, start, start + width - 1, "size ratio: " + width + " runs from run " + start
                        + " each within " + s.sizeRatioPercent() + "% of the runs before it (" + count + " runs)",
                        state);
            }
        }
        if (count > s.l0Trigger()) {
            int width = Math.min(count - s.l0Trigger() + 1, s.maxMergeWidth());
            if (width >= s.minMergeWidth()) {
                return job(tree, runs, 0, width - 1, "run count: " + count + " runs > l0-trigger " + s.l0Trigger()
                        + ", the newest " + width + " merge", state);
            }
        }
        return Decision.none(state);
    }

    /** The job merging runs {@code from..to} (newest-first positions, inclusive). */
    private static Decision job(Tree tree, List<Run> runs, int from, int to, String reason, CompactionState state) {
        List<SSTableInfo> inputs = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            inputs.addAll(runs.get(i).tables());
        }
        int out;
        if (to == runs.size() - 1) {
            out = tree.lastLevel();
        } else {
            int nextLevel = runs.get(to + 1).level();
            out = nextLevel == 0 ? 0 : nextLevel - 1;
        }
        return Decision.of(new MergeJob(inputs, out, OutputCut.SINGLE_FILE, MergeKind.REAL, reason + " into L" + out),
                state);
    }
}
