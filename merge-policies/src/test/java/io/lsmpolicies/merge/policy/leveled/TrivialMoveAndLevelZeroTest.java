package io.lsmpolicies.merge.policy.leveled;

import static io.lsmpolicies.merge.policy.leveled.LeveledViews.builder;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.busy;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.file;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.ids;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.jobs;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.onlyJob;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.policy;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.view;
import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Trivial moves, level 0's compactions, and what busy files do to a pick. */
class TrivialMoveAndLevelZeroTest {
    static final String SETTINGS = "leveled:base-level-bytes=100,size-ratio=10,target-file-bytes=50";

    @Test
    void aPickedFileOverlappingNothingBelowMovesWithoutBeingRewritten() {
        TreeView v = view(List.of(), List.of(file(11, "a0", "a9", 60), file(12, "b0", "b9", 60)),
                List.of(file(21, "a0", "a9", 30)));
        MergeJob job = onlyJob(policy(SETTINGS), v);
        assertThat(job.kind()).isEqualTo(MergeKind.TRIVIAL_MOVE);
        assertThat(ids(job)).containsExactly(12L);
        assertThat(job.outputLevel()).isEqualTo(2);
        assertThat(job.reason()).contains("L1 file 12, which overlaps nothing in L2, moved");
    }

    @Test
    void trivialMovesComeFirstWhateverThePickerPrefers() {
        // OSSF prefers 11 (smallest sequence 1), but 12 overlaps nothing in L2: moving it costs no write.
        SSTableInfo old = builder(11, "a0", "a9", 60).sequences(1, 1).build();
        SSTableInfo young = builder(12, "b0", "b9", 60).sequences(9, 9).build();
        MergePolicy ossf = policy(SETTINGS + ",picker=oldest-smallest-seq-first");
        MergeJob first = onlyJob(ossf, view(List.of(), List.of(old, young), List.of(file(21, "a0", "a9", 30))));
        assertThat(first.kind()).isEqualTo(MergeKind.TRIVIAL_MOVE);
        assertThat(ids(first)).containsExactly(12L);
        // Once 12 has moved, level 1 (60 + 60 new bytes) is still over 100: 11 overlaps 21, so it merges with it.
        MergeJob second = onlyJob(ossf, view(List.of(), List.of(old, file(13, "c0", "c9", 60)),
                List.of(file(21, "a0", "a9", 30), young, file(23, "c0", "c9", 10))));
        assertThat(second.kind()).isEqualTo(MergeKind.REAL);
        assertThat(ids(second)).containsExactly(11L, 21L);
    }

    @Test
    void aBusyFileOrABusyOverlapPassesThePickToTheNextFile() {
        List<SSTableInfo> below = List.of(file(21, "a0", "a9", 10), file(22, "b0", "b9", 20),
                file(23, "c0", "c9", 60));
        List<SSTableInfo> level1 = List.of(file(11, "a0", "a9", 50), file(12, "b0", "b9", 50),
                file(13, "c0", "c9", 50));
        MergePolicy mor = policy(SETTINGS);
        assertThat(ids(onlyJob(mor, view(List.of(), level1, below)))).as("ratio 0.2 is the smallest")
                .containsExactly(11L, 21L);
        assertThat(ids(onlyJob(mor, view(List.of(), List.of(busy(level1.get(0)), level1.get(1), level1.get(2)),
                below)))).as("11 is being compacted: the next ratio, 0.4").containsExactly(12L, 22L);
        assertThat(ids(onlyJob(mor, view(List.of(), level1, List.of(busy(below.get(0)), below.get(1),
                below.get(2)))))).as("11's overlap is being compacted").containsExactly(12L, 22L);
    }

    @Test
    void levelZeroCompactsOnceItHoldsTheTriggerNumberOfFiles() {
        MergePolicy p = policy(SETTINGS + ",l0-trigger=3");
        List<SSTableInfo> l1 = List.of(file(11, "a0", "a9", 10), file(12, "m0", "m9", 10));
        assertThat(jobs(p, view(List.of(file(3, "a0", "b0", 5), file(2, "a5", "c0", 5)), l1))).isEmpty();
        MergeJob job = onlyJob(p, view(List.of(file(3, "a0", "b0", 5), file(2, "a5", "c0", 5),
                file(1, "a2", "a7", 5)), l1));
        assertThat(ids(job)).as("level-0 files newest first, then the overlapping base-level file")
                .containsExactly(3L, 2L, 1L, 11L);
        assertThat(job.outputLevel()).isEqualTo(1);
        assertThat(job.kind()).isEqualTo(MergeKind.REAL);
        assertThat(job.cut()).isEqualTo(new OutputCut.AtGrandparentBoundaries(50, 1250));
        assertThat(job.reason()).startsWith("L0 holds 3 files (l0-trigger 3, score 1.00)");
    }

    @Test
    void levelZeroTakesItsOldestFileAndEveryFileOverlappingItTransitively() {
        // Oldest is 1 [a0..b6]; 2 [b5..c5] overlaps it; 3 [x0..x9] overlaps neither and stays.
        TreeView v = view(List.of(file(3, "x0", "x9", 5), file(2, "b5", "c5", 5), file(1, "a0", "b6", 5)),
                List.of(file(11, "a0", "a9", 10), file(12, "c0", "c9", 10), file(13, "x5", "x6", 10)));
        MergeJob job = onlyJob(policy(SETTINGS + ",l0-trigger=3"), v);
        assertThat(ids(job)).containsExactly(2L, 1L, 11L, 12L);
    }

    @Test
    void aLevelZeroFileOverlappingNothingBelowMovesAndOneOverlappingMerges() {
        MergePolicy p = policy(SETTINGS + ",l0-trigger=1");
        MergeJob move = onlyJob(p, view(List.of(file(1, "x0", "z0", 5)), List.of(file(11, "a0", "c0", 10))));
        assertThat(move.kind()).isEqualTo(MergeKind.TRIVIAL_MOVE);
        assertThat(ids(move)).containsExactly(1L);
        assertThat(move.outputLevel()).isEqualTo(1);
        MergeJob merge = onlyJob(p, view(List.of(file(1, "b0", "d0", 5)), List.of(file(11, "a0", "c0", 10))));
        assertThat(merge.kind()).isEqualTo(MergeKind.REAL);
        assertThat(ids(merge)).containsExactly(1L, 11L);
    }

    @Test
    void oneLevelZeroCompactionAtATimeAndTheBaseLevelWaitsForLevelZero() {
        MergePolicy p = policy(SETTINGS + ",l0-trigger=2");
        List<SSTableInfo> l1 = List.of(file(11, "a0", "a9", 100), file(12, "b0", "b9", 100));
        List<SSTableInfo> l2 = List.of(file(21, "a0", "a9", 1), file(22, "b0", "b9", 1));
        // Level 0 (4 files, score 2) outranks level 1 (200 / 100), but its overlap 11 is being compacted: level 0
        // cannot start, so level 1 is passed over too, although 12 is free.
        TreeView blocked = view(List.of(file(4, "a0", "a5", 1), file(3, "a0", "a5", 1), file(2, "a0", "a5", 1),
                file(1, "a0", "a5", 1)), List.of(busy(l1.get(0)), l1.get(1)), List.of(busy(l2.get(0)), l2.get(1)));
        assertThat(jobs(p, blocked)).isEmpty();
        TreeView running = view(List.of(file(4, "x0", "x5", 1), file(3, "x0", "x5", 1), busy(file(2, "a0", "a5", 1)),
                busy(file(1, "a0", "a5", 1))), l1, l2);
        assertThat(ids(onlyJob(p, running))).as("a level-0 compaction runs: level 1 is next")
                .containsExactly(11L, 21L);
    }
}
