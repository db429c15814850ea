package io.lsmpolicies.merge.policy.leveled;

import static io.lsmpolicies.merge.policy.leveled.LeveledViews.builder;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.file;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.ids;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.onlyJob;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.policy;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.view;
import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every file picker on one small saturated level: which file it takes, and why. Level 1 (target 500) holds
 * seven 100-byte files A..G (ids 11..17, keys a0..a9 .. g0..g9); level 2 holds one file over each (ids 21..27)
 * of 200, 50, 300, 250, 150, 350 and 51 bytes, so the overlapping ratios are 2.0, 0.5, 3.0, 2.5, 1.5, 3.5, 0.51;
 * level 3 holds 1000 bytes under every file but E. A has the smallest smallest sequence number (1), D the smallest
 * largest (40), C was read longest ago (5), F was created first (3).
 */
class FilePickersTest {
    static final String SETTINGS = "leveled:base-level-bytes=500,size-ratio=10,target-file-bytes=100";

    static TreeView sevenFiles() {
        List<SSTableInfo> l1 = List.of(
                l1(11, "a", 1, 60).build(),
                l1(12, "b", 10, 70).build(),
                l1(13, "c", 12, 65).lastAccessMillis(5).build(),
                l1(14, "d", 30, 40).build(),
                l1(15, "e", 15, 80).build(),
                l1(16, "f", 20, 75).createdMillis(3).lastAccessMillis(50).build(),
                l1(17, "g", 25, 90).build());
        long[] below = {200, 50, 300, 250, 150, 350, 51};
        List<SSTableInfo> l2 = new java.util.ArrayList<>();
        List<SSTableInfo> l3 = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            String k = String.valueOf((char) ('a' + i));
            l2.add(file(21 + i, k + "0", k + "9", below[i]));
            if (i != 4) {
                l3.add(file(31 + i, k + "0", k + "9", 1000));
            }
        }
        return view(List.of(), l1, l2, l3);
    }

    private static SSTableInfo.Builder l1(long id, String k, long minSeq, long maxSeq) {
        return builder(id, k + "0", k + "9", 100).sequences(minSeq, maxSeq).createdMillis(50).lastAccessMillis(50);
    }

    @ParameterizedTest(name = "{0} takes file {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "min-overlapping-ratio     | 12 | B has the smallest overlapping ratio, 50 / 100",
        "refined-mor               | 17 | B (0.5) and G (0.51) are within 5% of the minimum, and G is the level's last",
        "oldest-largest-seq-first  | 14 | D's largest sequence number, 40, is the smallest",
        "oldest-smallest-seq-first | 11 | A's smallest sequence number, 1, is the smallest",
        "least-overlap-grandparent | 15 | E overlaps nothing in level 3",
        "coldest                   | 13 | C was last read at 5, the others at 50",
        "oldest                    | 16 | F was created at 3, the others at 50",
        "tombstone-density         | 12 | no file holds tombstones, so min-overlapping-ratio decides",
        "tombstone-age             | 12 | no file holds tombstones, so min-overlapping-ratio decides",
    })
    void eachPickerTakesItsFileWithTheOverlapBelowCutAtGrandparentBoundaries(String picker, long id, String why) {
        MergeJob job = onlyJob(policy(SETTINGS + ",picker=" + picker), sevenFiles());
        assertThat(job.kind()).as(why).isEqualTo(MergeKind.REAL);
        assertThat(ids(job)).as(why).containsExactly(id, id + 10);
        assertThat(job.outputLevel()).isEqualTo(2);
        assertThat(job.cut()).isEqualTo(new OutputCut.AtGrandparentBoundaries(100, 2500));
        assertThat(job.reason()).contains("L1 holds 700 bytes (target 500)").contains(picker + " picks L1 file " + id);
    }

    @Test
    void roundRobinWithoutACursorTakesTheFirstFileAndGrowsRightwardsUntilTheLevelFitsItsTarget() {
        // 700 bytes against a target of 500: A alone leaves 600, A+B 500, A+B+C 400 (first below the target).
        MergeJob job = onlyJob(policy(SETTINGS + ",picker=round-robin"), sevenFiles());
        assertThat(ids(job)).containsExactly(11L, 12L, 13L, 21L, 22L, 23L);
        assertThat(job.cut()).isEqualTo(new OutputCut.AtCursor(100, Key.EMPTY));
    }

    @Test
    void refinedMorPrefersTheCandidateWhoseSuccessorOverlapsMost() {
        // Wei et al.'s example ratios in key order 1.01, 9, 1.0, 5, 20: MOR takes the third file (1.0); RefinedMOR
        // re-ranks the candidates (1.01 and 1.0 are within 5%) as 0.05 r - r(next): -8.95 for the first file
        // (its successor overlaps 9) against -4.95 for the third, so it takes the first.
        long[] below = {1010, 9000, 1000, 5000, 20000};
        List<SSTableInfo> l1 = new java.util.ArrayList<>();
        List<SSTableInfo> l2 = new java.util.ArrayList<>();
        for (int i = 0; i < below.length; i++) {
            String k = String.valueOf((char) ('a' + i));
            l1.add(file(11 + i, k + "0", k + "9", 1000));
            l2.add(file(21 + i, k + "0", k + "9", below[i]));
        }
        TreeView v = view(List.of(), l1, l2);
        String s = "leveled:base-level-bytes=4000,size-ratio=10,target-file-bytes=1000,picker=";
        assertThat(ids(onlyJob(policy(s + "min-overlapping-ratio"), v))).containsExactly(13L, 23L);
        assertThat(ids(onlyJob(policy(s + "refined-mor"), v))).containsExactly(11L, 21L);
        assertThat(ids(onlyJob(policy(s + "refined-mor,refined-mor-threshold=0"), v)))
                .as("th = 0 leaves no candidate but the minimum: MinOverlappingRatio").containsExactly(13L, 23L);
    }

    @Test
    void refinedMorOrderFollowsAlgorithmOne() {
        assertThat(FilePickers.refinedMor(new double[] {1.01, 9, 1.0, 5, 20}, 0.05))
                .as("re-ranked -8.95 and -4.95 first, then the others by ratio").containsExactly(0, 2, 3, 1, 4);
        assertThat(FilePickers.refinedMor(new double[] {3, 1.0, 2, 1.02}, 0.05))
                .as("the last file is a candidate, so it is taken").startsWith(3);
        assertThat(FilePickers.refinedMor(new double[] {0, 0, 4}, 0.05))
                .as("a zero minimum leaves no candidate: key order among equals").containsExactly(0, 1, 2);
        assertThat(FilePickers.refinedMor(new double[] {}, 0.05)).isEmpty();
    }

    @Test
    void roundRobinRotatesToTheFirstFileAtOrAfterTheCursor() {
        List<SSTableInfo> files = List.of(file(1, "b", "c", 1), file(2, "e", "f", 1), file(3, "h", "i", 1));
        assertThat(FilePickers.rotated(files, null)).containsExactly(0, 1, 2);
        assertThat(FilePickers.rotated(files, Key.of("d"))).as("between files: the next one").containsExactly(1, 2, 0);
        assertThat(FilePickers.rotated(files, Key.of("e"))).as("equal to a min key: that file").containsExactly(1, 2, 0);
        assertThat(FilePickers.rotated(files, Key.of("z"))).as("beyond every file: wrap").containsExactly(0, 1, 2);
        assertThat(FilePickers.rotated(files, Key.of("a"))).containsExactly(0, 1, 2);
    }

    @Test
    void tombstoneDensityFirstTakesTheDensestFileOverThresholdEvenBelowTarget() {
        SSTableInfo dense = builder(13, "c0", "c9", 100).tombstones(40).build();
        SSTableInfo denser = builder(14, "d0", "d9", 100).tombstones(60).build();
        SSTableInfo light = builder(12, "b0", "b9", 100).tombstones(10).build();
        TreeView v = view(List.of(), List.of(file(11, "a0", "a9", 100), light, dense, denser),
                List.of(file(21, "a0", "a9", 10), file(22, "b0", "b9", 10), file(23, "c0", "c9", 500),
                        file(24, "d0", "d9", 500)));
        // Level 1 holds 400 of its 500: not saturated, but two files exceed density 0.2; the denser goes first.
        MergeJob job = onlyJob(policy(SETTINGS + ",picker=tombstone-density"), v);
        assertThat(ids(job)).containsExactly(14L, 24L);
        assertThat(job.reason()).contains("L1 file 14 has tombstone density 0.600 > 0.2");
        assertThat(LeveledViews.jobs(policy(SETTINGS + ",picker=tombstone-density,tombstone-density-threshold=0.7"),
                v)).as("no file exceeds 0.7 and the level is not saturated").isEmpty();
    }

    @Test
    void tombstoneDensityAsAPickerOnlyReordersASaturatedLevel() {
        SSTableInfo dense = builder(13, "c0", "c9", 100).tombstones(40).build();
        List<SSTableInfo> below = List.of(file(21, "a0", "a9", 10), file(23, "c0", "c9", 500),
                file(24, "d0", "d9", 100));
        String composed = "composed:trigger=saturation,movement=tombstone-density,base-level-bytes=500,"
                + "target-file-bytes=100";
        TreeView unsaturated = view(List.of(), List.of(file(11, "a0", "a9", 100), dense), below);
        assertThat(LeveledViews.jobs(policy(composed), unsaturated)).isEmpty();
        TreeView saturated = view(List.of(), List.of(file(11, "a0", "a9", 300), dense, file(14, "d0", "d9", 200)),
                below);
        assertThat(ids(onlyJob(policy(composed), saturated))).as("13 is dense although 11 overlaps less")
                .containsExactly(13L, 23L);
    }

    @Test
    void tombstoneAgeTakesAFileWhoseTombstoneOutlivedItsLevelsShare() {
        // Levels 0, 1, 2 (deepest): with T = 10 and D = 1000 ms a tombstone must leave L0 by 1000 * 9/99 = 90.9 ms
        // and L1 by 1000 ms. The clock is the newest creation time, 5000.
        SSTableInfo expired = builder(12, "b0", "b9", 100).tombstones(1).oldestTombstoneMillis(3999).build();
        SSTableInfo young = builder(13, "c0", "c9", 100).tombstones(5).oldestTombstoneMillis(4001).build();
        SSTableInfo clock = builder(22, "c0", "c9", 500).createdMillis(5000).build();
        String tsa = SETTINGS + ",picker=tombstone-age,tombstone-age-millis=1000";
        TreeView v = view(List.of(), List.of(file(11, "a0", "a9", 100), expired, young),
                List.of(file(21, "b0", "b9", 10), clock));
        MergeJob job = onlyJob(policy(tsa), v);
        assertThat(ids(job)).as("12's tombstone is 1001 ms old, past 1000").containsExactly(12L, 21L);
        assertThat(job.reason()).contains("L1 file 12 holds a tombstone written at 3999");
        SSTableInfo notYet = builder(12, "b0", "b9", 100).tombstones(1).oldestTombstoneMillis(4000).build();
        assertThat(LeveledViews.jobs(policy(tsa), view(List.of(), List.of(file(11, "a0", "a9", 100), notYet, young),
                List.of(file(21, "b0", "b9", 10), clock)))).as("exactly 1000 ms is not past the share").isEmpty();
        SSTableInfo l0 = builder(1, "x0", "x9", 10).tombstones(1).oldestTombstoneMillis(4909).build();
        MergeJob fromL0 = onlyJob(policy(tsa), view(List.of(l0), List.of(file(11, "a0", "a9", 100)),
                List.of(clock)));
        assertThat(fromL0.kind()).as("91 ms > 90.9: level 0's share; nothing below overlaps x, so it is rewritten")
                .isEqualTo(MergeKind.REAL);
        assertThat(fromL0.outputLevel()).isEqualTo(1);
    }

    @Test
    void tombstonesInTheDeepestLevelNeverExpire() {
        SSTableInfo old = builder(22, "b0", "b9", 10).tombstones(1).oldestTombstoneMillis(0).createdMillis(9000).build();
        assertThat(LeveledViews.jobs(policy(SETTINGS + ",picker=tombstone-age,tombstone-age-millis=1"),
                view(List.of(), List.of(file(11, "a0", "a9", 100)), List.of(old)))).isEmpty();
    }

    @Test
    void aDenseFileOnTheDeepestNonEmptyLevelIsRewrittenNotMovedDown() {
        // Seven levels; L2 is the deepest non-empty one. File 22 is dense and nothing below overlaps it: moving it
        // to L3, L4, ... unchanged would carry its tombstones to the last level, where nothing marks it again.
        SSTableInfo dense = builder(22, "x0", "x9", 100).tombstones(50).build();
        TreeView v = view(List.of(), List.of(file(11, "a0", "a9", 100)), List.of(file(21, "b0", "b9", 100), dense));
        MergeJob job = onlyJob(policy(SETTINGS + ",picker=tombstone-density"), v);
        assertThat(job.kind()).isEqualTo(MergeKind.REAL);
        assertThat(ids(job)).containsExactly(22L);
        assertThat(job.outputLevel()).isEqualTo(3);
        assertThat(job.reason()).contains("L2 file 22 has tombstone density 0.500 > 0.2")
                .contains("overlaps nothing below, rewritten into L3 to drop its tombstones");
        MergeJob aged = onlyJob(policy(SETTINGS + ",picker=tombstone-age,tombstone-age-millis=1"), view(List.of(),
                List.of(builder(12, "x0", "x9", 100).tombstones(1).oldestTombstoneMillis(0).build()),
                List.of(builder(21, "b0", "b9", 100).createdMillis(9000).build())));
        assertThat(aged.kind()).as("the same for the tombstone-age trigger").isEqualTo(MergeKind.REAL);
        assertThat(ids(aged)).containsExactly(12L);
    }

    @Test
    void aDenseFileStillMovesDownTowardsDeeperDataItOverlaps() {
        SSTableInfo dense = builder(12, "x0", "x9", 100).tombstones(50).build();
        TreeView v = view(List.of(), List.of(file(11, "a0", "a9", 100), dense), List.of(file(21, "a0", "a9", 100)),
                List.of(file(31, "x0", "x9", 1000)));
        MergeJob job = onlyJob(policy(SETTINGS + ",picker=tombstone-density"), v);
        assertThat(job.kind()).as("L3 holds the keys it deletes: no rewrite yet").isEqualTo(MergeKind.TRIVIAL_MOVE);
        assertThat(ids(job)).containsExactly(12L);
        assertThat(job.outputLevel()).isEqualTo(2);
    }

    @Test
    void aDenseLevelZeroFileOverlappingNothingBelowIsRewritten() {
        SSTableInfo dense = builder(1, "x0", "x9", 100).tombstones(50).build();
        MergeJob job = onlyJob(policy(SETTINGS + ",picker=tombstone-density"), view(List.of(dense),
                List.of(file(11, "a0", "a9", 100))));
        assertThat(job.kind()).isEqualTo(MergeKind.REAL);
        assertThat(ids(job)).containsExactly(1L);
        assertThat(job.outputLevel()).isEqualTo(1);
    }
}
