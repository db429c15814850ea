package io.lsmpolicies.merge.sim.leveled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.spi.LevelView;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Level scores and the search's moves on views built from literals, RocksDB-picker style. */
class LevelScoringAndMovesTest {
    private static final OutputCut CUT = new OutputCut.ByTargetSize(10);
    private long nextId = 1;

    /** A table of {@code bytes} over keys {@code [min, max]} (single letters are enough here). */
    private SSTableInfo t(String min, String max, long bytes) {
        return SSTableInfo.builder(nextId++).bytes(bytes).entries(bytes).keys(min, max).build();
    }

    /** Level 0 as given (newest first), then one sorted run per further argument (empty: an empty level). */
    @SafeVarargs
    private static TreeView view(List<SSTableInfo> level0, List<SSTableInfo>... deeper) {
        List<LevelView> levels = new ArrayList<>();
        List<SortedRun> runs = new ArrayList<>();
        level0.forEach(x -> runs.add(SortedRun.of(x)));
        levels.add(new LevelView(0, runs));
        for (int i = 0; i < deeper.length; i++) {
            levels.add(new LevelView(i + 1, deeper[i].isEmpty() ? List.of() : List.of(new SortedRun(deeper[i]))));
        }
        return new TreeView(levels);
    }

    @Test
    void levelTargetsGrowBySizeRatioAndTheHighestScoreAtOrAboveOneWins() {
        LevelScoring s = new LevelScoring(4, 2, 100, 4);
        assertThat(s.targetBytes(1)).isEqualTo(100);
        assertThat(s.targetBytes(3)).isEqualTo(1600);
        // L0 1 file (0.5), L1 150 bytes (1.5), L2 800 bytes (2.0): level 2 has the highest score.
        TreeView v = view(List.of(t("a", "b", 5)), List.of(t("a", "c", 150)), List.of(t("a", "z", 800)));
        assertThat(s.score(v, 1)).isEqualTo(1.5);
        assertThat(s.levelToCompact(v)).isEqualTo(2);
        // Equal scores go to the shallower level; the last level (3) is never scored.
        TreeView tie = view(List.of(t("a", "b", 5), t("a", "b", 5)), List.of(t("a", "c", 100)), List.of(),
                List.of(t("a", "z", 1_000_000)));
        assertThat(s.levelToCompact(tie)).isZero();
        assertThat(s.score(tie, 3)).isZero();
        assertThat(s.levelToCompact(view(List.of(t("a", "b", 5)), List.of(t("a", "c", 99))))).isEqualTo(-1);
        assertThatThrownBy(() -> new LevelScoring(1, 2, 100, 4)).hasMessageContaining("size ratio");
    }

    @Test
    void theTreeAndTheViewScoreAlike() {
        LevelScoring s = new LevelScoring(3, 2, 12, 4);
        FlushSequence flushes = FlushSequence.of(
                WorkloadGenerator.generate(WorkloadSpec.uniformUpdates(400, 0.5), 3), 6);
        ModelTree tree = new ModelTree(1);
        ReferenceLeveledPolicy probe = new ReferenceLeveledPolicy("probe", s, new OutputCut.ByTargetSize(6),
                ReferenceLeveledPolicy.FIRST, true);
        ModelRunner.run(probe, "probe", flushes, tree,
                (job, outcome) -> assertThat(s.levelToCompact(tree)).isEqualTo(s.levelToCompact(tree.view())));
    }

    @Test
    void aLevelZeroMoveTakesEveryLevelZeroFileAndWhatTheirCombinedRangeOverlaps() {
        SSTableInfo newer = t("c", "d", 5);
        SSTableInfo older = t("g", "h", 5);
        SSTableInfo a = t("a", "b", 5);
        SSTableInfo e = t("e", "f", 5);
        SSTableInfo x = t("x", "y", 5);
        MergeJob job = LeveledMoves.level0(view(List.of(newer, older), List.of(a, e, x)), CUT);
        assertThat(job.kind()).isEqualTo(MergeKind.REAL);
        assertThat(job.inputs()).containsExactly(newer, older, e);
        assertThat(job.outputLevel()).isEqualTo(1);
        // A lone level-0 file over nothing moves trivially.
        assertThat(LeveledMoves.level0(view(List.of(t("m", "n", 5)), List.of(a, x)), CUT).kind())
                .isEqualTo(MergeKind.TRIVIAL_MOVE);
    }

    @Test
    void aDeeperMoveTakesOneFileAndTheNextLevelFilesItOverlapsOrMovesTrivially() {
        SSTableInfo l1a = t("a", "c", 5);
        SSTableInfo l1b = t("m", "p", 5);
        SSTableInfo l2a = t("b", "d", 5);
        SSTableInfo l2b = t("e", "f", 5);
        TreeView v = view(List.of(), List.of(l1a, l1b), List.of(l2a, l2b));
        List<MergeJob> jobs = LeveledMoves.candidates(v, 1, CUT);
        assertThat(jobs).hasSize(2);
        assertThat(jobs.get(0).inputs()).containsExactly(l1a, l2a);
        assertThat(jobs.get(0).kind()).isEqualTo(MergeKind.REAL);
        assertThat(jobs.get(0).reason()).contains("L1 file 1 of 2 -> L2");
        assertThat(jobs.get(1).inputs()).containsExactly(l1b);
        assertThat(jobs.get(1).kind()).isEqualTo(MergeKind.TRIVIAL_MOVE);
        assertThatThrownBy(() -> LeveledMoves.file(v, 1, 2, CUT)).hasMessageContaining("has no file 2");
    }
}
