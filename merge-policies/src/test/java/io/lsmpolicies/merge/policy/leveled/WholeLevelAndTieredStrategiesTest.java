package io.lsmpolicies.merge.policy.leveled;

import static io.lsmpolicies.merge.policy.leveled.LeveledViews.busy;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.file;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.ids;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.jobs;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.onlyJob;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.policy;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.view;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;
import org.junit.jupiter.api.Test;

/** full-leveling, one-leveling and universal on small states. */
class WholeLevelAndTieredStrategiesTest {
    static final String SHAPE = ":base-level-bytes=100,size-ratio=10,target-file-bytes=50";

    /** Four level-0 files (newest first) with disjoint keys: only the oldest overlaps level 1's first file. */
    static List<SSTableInfo> disjointLevel0() {
        return List.of(file(4, "x0", "x9", 5), file(3, "w0", "w9", 5), file(2, "v0", "v9", 5), file(1, "a0", "a5", 5));
    }

    @Test
    void fullLevelingMergesASaturatedLevelWholeWithTheWholeNextLevel() {
        TreeView v = view(List.of(), List.of(file(11, "a0", "a9", 60), file(12, "m0", "m9", 60)),
                List.of(file(21, "b0", "b9", 10), file(22, "n0", "n9", 10), file(23, "z0", "z9", 10)));
        MergeJob job = onlyJob(policy("full-leveling" + SHAPE), v);
        assertThat(job.kind()).isEqualTo(MergeKind.REAL);
        assertThat(ids(job)).as("23 overlaps nothing and still merges: the granularity is the level")
                .containsExactly(11L, 12L, 21L, 22L, 23L);
        assertThat(job.outputLevel()).isEqualTo(2);
        assertThat(job.cut()).isEqualTo(new OutputCut.AtGrandparentBoundaries(50, 1250));
        assertThat(job.reason()).contains("all 2 L1 files with all 3 L2 files");
    }

    @Test
    void fullLevelingMovesALevelDownFileByFileIntoAnEmptyLevel() {
        List<MergeJob> moves = jobs(policy("full-leveling" + SHAPE), view(List.of(),
                List.of(file(11, "a0", "a9", 60), file(12, "m0", "m9", 60))));
        assertThat(moves).extracting(MergeJob::kind).containsOnly(MergeKind.TRIVIAL_MOVE);
        assertThat(moves).extracting(j -> j.inputs().get(0).id()).containsExactly(11L, 12L);
        assertThat(moves).extracting(MergeJob::outputLevel).containsOnly(2);
    }

    @Test
    void fullLevelingMergesAllOfLevelZeroWithAllOfLevelOneAndWaitsForBusyLevels() {
        List<SSTableInfo> l1 = List.of(file(11, "a0", "a9", 10), file(12, "m0", "m9", 10));
        assertThat(ids(onlyJob(policy("full-leveling" + SHAPE), view(disjointLevel0(), l1))))
                .containsExactly(4L, 3L, 2L, 1L, 11L, 12L);
        assertThat(jobs(policy("full-leveling" + SHAPE), view(disjointLevel0(), List.of(l1.get(0), busy(l1.get(1))))))
                .as("level 1 is being compacted").isEmpty();
    }

    @Test
    void oneLevelingMergesTheWholeLevelZeroTierWhereLeveledTakesTheOldestFileAndItsOverlap() {
        List<SSTableInfo> l1 = List.of(file(11, "a0", "a9", 10), file(12, "m0", "m9", 10));
        assertThat(ids(onlyJob(policy("one-leveling" + SHAPE), view(disjointLevel0(), l1))))
                .as("all four runs of the tier, with the level-1 files inside their key range a0..x9")
                .containsExactly(4L, 3L, 2L, 1L, 11L, 12L);
        assertThat(ids(onlyJob(policy("leveled" + SHAPE), view(disjointLevel0(), l1))))
                .as("the oldest file overlaps no other level-0 file").containsExactly(1L, 11L);
    }

    @Test
    void oneLevelingIsLeveledWithLeastOverlapBelowLevelZero() {
        TreeView v = view(List.of(), List.of(file(11, "a0", "a9", 60), file(12, "b0", "b9", 60)),
                List.of(file(21, "a0", "a9", 30), file(22, "b0", "b9", 5)));
        assertThat(ids(onlyJob(policy("one-leveling" + SHAPE), v))).containsExactly(12L, 22L);
    }

    // --- universal: runs are the level-0 files, newest first, then each non-empty level.

    static TreeView runs(long[] level0NewestFirst, long lastLevelBytes) {
        List<SSTableInfo> l0 = new java.util.ArrayList<>();
        for (int i = 0; i < level0NewestFirst.length; i++) {
            l0.add(file(level0NewestFirst.length - i, "a0", "z9", level0NewestFirst[i]));
        }
        List<SSTableInfo> last = lastLevelBytes == 0 ? List.of() : List.of(file(60, "a0", "z9", lastLevelBytes));
        return view(l0, List.of(), List.of(), List.of(), List.of(), List.of(), last);
    }

    @Test
    void universalWaitsForTheTriggerNumberOfRuns() {
        assertThat(jobs(policy("universal"), runs(new long[] {10, 10}, 1000))).as("3 runs < 4").isEmpty();
    }

    @Test
    void universalMergesEverythingWhenSpaceAmplificationPassesItsMaximum() {
        // Newer runs 10 + 10 + 10 = 30 >= 200% of the oldest run's 10.
        MergeJob job = onlyJob(policy("universal"), runs(new long[] {10, 10, 10}, 10));
        assertThat(ids(job)).containsExactly(3L, 2L, 1L, 60L);
        assertThat(job.outputLevel()).isEqualTo(6);
        assertThat(job.cut()).isEqualTo(OutputCut.SINGLE_FILE);
        assertThat(job.reason()).startsWith("space amplification: the 3 newer runs hold 30 bytes, 300% of the oldest");
    }

    @Test
    void universalMergesRunsOfSimilarSizeIntoTheLevelAboveTheNextOlderRun() {
        // 40 < 200% of 1000; from the newest: 10, then 10 <= 10.1, 10 <= 20.2, 10 <= 30.3, but 1000 > 40.4.
        MergeJob job = onlyJob(policy("universal"), runs(new long[] {10, 10, 10, 10}, 1000));
        assertThat(ids(job)).containsExactly(4L, 3L, 2L, 1L);
        assertThat(job.outputLevel()).isEqualTo(5);
        assertThat(job.reason()).startsWith("size ratio: 4 runs from run 0");
        assertThat(ids(onlyJob(policy("universal:max-merge-width=2"), runs(new long[] {10, 10, 10, 10}, 1000))))
                .as("at most two runs; the next older run is a level-0 file").containsExactly(4L, 3L);
        assertThat(onlyJob(policy("universal:max-merge-width=2"), runs(new long[] {10, 10, 10, 10}, 1000))
                .outputLevel()).isZero();
    }

    @Test
    void universalReducesTheRunCountWhenSizesDoNotAllowAMerge() {
        // Each run more than 101% of all newer ones: no size-ratio span; 5 runs > 4, so the newest 5 - 4 + 1 = 2.
        MergeJob job = onlyJob(policy("universal"), runs(new long[] {1, 10, 100, 1000}, 1_000_000));
        assertThat(ids(job)).containsExactly(4L, 3L);
        assertThat(job.outputLevel()).isZero();
        assertThat(job.reason()).startsWith("run count: 5 runs > l0-trigger 4, the newest 2 merge");
        assertThat(jobs(policy("universal"), runs(new long[] {1, 10, 100}, 1_000_000)))
                .as("4 runs: at the trigger, not over it").isEmpty();
    }

    @Test
    void universalRunsOneCompactionAtATime() {
        TreeView v = runs(new long[] {10, 10, 10, 10}, 1000);
        List<SSTableInfo> l0 = new java.util.ArrayList<>(v.levels().get(0).runs().stream().map(r -> r.first()).toList());
        l0.set(3, busy(l0.get(3)));
        assertThat(jobs(policy("universal"), view(l0, List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(file(60, "a0", "z9", 1000))))).isEmpty();
    }

    @Test
    void universalChecksItsWidths() {
        assertThatThrownBy(() -> policy("universal:min-merge-width=5,max-merge-width=3"))
                .hasMessage("policy 'universal': parameter 'min-merge-width' = 5 exceeds parameter 'max-merge-width' = 3; "
                        + "accepted: min-merge-width <= max-merge-width");
        MergePolicy p = policy("universal");
        assertThat(p.parameters().values()).containsEntry("max-merge-width", Integer.MAX_VALUE)
                .containsEntry("size-ratio-percent", 1).containsEntry("max-size-amplification-percent", 200);
    }
}
