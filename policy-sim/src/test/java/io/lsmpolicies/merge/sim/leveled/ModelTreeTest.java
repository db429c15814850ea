package io.lsmpolicies.merge.sim.leveled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelTreeTest {
    private static final long ENTRY = 10;
    private static final OutputCut BIG = new OutputCut.ByTargetSize(1_000);

    private long nextFlush = 1;
    private long clock;

    /** A flush of {@code keys} (ascending), each a new version; negative numbers are tombstones of -k. */
    private ModelFile flush(ModelTree tree, int... keys) {
        long[] seqs = new long[keys.length];
        boolean[] tombs = new boolean[keys.length];
        int[] ks = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            ks[i] = Math.abs(keys[i]);
            tombs[i] = keys[i] < 0;
            seqs[i] = ++clock;
        }
        return tree.flush(new FlushSequence.Flush(nextFlush++, ks, seqs, tombs, clock));
    }

    private static MergeJob real(List<ModelFile> inputs, int outputLevel, OutputCut cut) {
        List<SSTableInfo> infos = new ArrayList<>();
        inputs.forEach(f -> infos.add(f.info()));
        return new MergeJob(infos, outputLevel, cut, MergeKind.REAL, "test");
    }

    private static MergeJob move(ModelFile f, int outputLevel) {
        return new MergeJob(List.of(f.info()), outputLevel, BIG, MergeKind.TRIVIAL_MOVE, "test move");
    }

    private static List<Integer> keys(ModelFile f) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < f.size(); i++) {
            out.add(f.keyAt(i));
        }
        return out;
    }

    @Test
    void aRealMergeWritesTheUnionWithTheNewestVersionOfEachKey() {
        ModelTree tree = new ModelTree(ENTRY);
        ModelFile older = flush(tree, 1, 3, 5);
        ModelFile newer = flush(tree, 3, 4);
        JobOutcome o = tree.apply(real(List.of(newer, older), 1, BIG));
        assertThat(o.kind()).isEqualTo(MergeKind.REAL);
        assertThat(o.bytesRead()).isEqualTo(5 * ENTRY);
        assertThat(o.bytesWritten()).isEqualTo(4 * ENTRY);
        ModelFile out = o.outputs().get(0);
        assertThat(keys(out)).containsExactly(1, 3, 4, 5);
        assertThat(out.sequenceAt(1)).isEqualTo(newer.sequenceAt(0));
        assertThat(tree.level(0)).isEmpty();
        assertThat(tree.level(1)).containsExactly(out);
        assertThat(out.info().minFlushIndex()).isEqualTo(1);
        assertThat(out.info().maxFlushIndex()).isEqualTo(2);
        assertThat(tree.visibleVersions()).containsEntry(3, newer.sequenceAt(0)).hasSize(4);
    }

    @Test
    void tombstonesAreDroppedOnlyWhenNothingOlderOverlapsOutsideTheInputs() {
        ModelTree tree = new ModelTree(ENTRY);
        ModelFile base = flush(tree, 2, 4);
        tree.apply(move(base, 2));
        ModelFile put = flush(tree, 1, 3);
        ModelFile del = flush(tree, -1, -3);
        // Level 2 holds [2..4], older than the inputs and overlapping [1..3]: tombstones are kept.
        JobOutcome kept = tree.apply(real(List.of(del, put), 1, BIG));
        assertThat(kept.outputs().get(0).tombstoneAt(0)).isTrue();
        assertThat(kept.bytesWritten()).isEqualTo(2 * ENTRY);
        assertThat(tree.visibleVersions().keySet()).containsExactlyInAnyOrder(2, 4);
        // Merged with level 2, nothing older exists: the tombstones and what they hide disappear.
        List<ModelFile> all = new ArrayList<>(tree.level(1));
        all.addAll(tree.level(2));
        JobOutcome dropped = tree.apply(real(all, 2, BIG));
        assertThat(keys(dropped.outputs().get(0))).containsExactly(2, 4);
        assertThat(dropped.outputs().get(0).info().tombstones()).isZero();
    }

    @Test
    void aTrivialMoveWritesNothingAndKeepsTheFile() {
        ModelTree tree = new ModelTree(ENTRY);
        ModelFile f = flush(tree, 7, 9);
        JobOutcome o = tree.apply(move(f, 1));
        assertThat(o.kind()).isEqualTo(MergeKind.TRIVIAL_MOVE);
        assertThat(o.bytesWritten()).isZero();
        assertThat(o.bytesRead()).isZero();
        assertThat(tree.level(1)).containsExactly(f);
        assertThat(tree.level(0)).isEmpty();
    }

    @Test
    void jobsThatWouldLeaveALevelOverlappingAreRefused() {
        ModelTree tree = new ModelTree(ENTRY);
        tree.apply(move(flush(tree, 1, 5), 1));
        ModelFile f = flush(tree, 4, 8);
        assertThatThrownBy(() -> tree.apply(move(f, 1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("test move").hasMessageContaining("overlapping in level 1");
    }

    @Test
    void theReadOrderCheckCatchesNewerVersionsPlacedBehindOlderOnes() {
        ModelTree tree = new ModelTree(ENTRY);
        tree.apply(move(flush(tree, 1, 5), 2));
        ModelFile newer = flush(tree, 5, 9);
        tree.apply(move(newer, 1));
        tree.checkReadOrder(tree.level(1));
        // Moving the newer version of 5 below the older one in level 2 would let readers find the old one first.
        JobOutcome wrong = tree.apply(move(newer, 3));
        assertThatThrownBy(() -> tree.checkReadOrder(wrong.outputs())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("key 5").hasMessageContaining("level 2").hasMessageContaining("level 3");
    }

    @Test
    void mergingTheNewestLevelZeroFileWithoutTheOlderOnesItOverlapsBreaksTheReadOrder() {
        ModelTree tree = new ModelTree(ENTRY);
        flush(tree, 1, 3);
        ModelFile newest = flush(tree, 3, 4);
        JobOutcome o = tree.apply(real(List.of(newest), 1, BIG));
        assertThatThrownBy(() -> tree.checkReadOrder(o.outputs())).hasMessageContaining("key 3");
    }

    @Test
    void jobsNamingDeadFilesOrVirtualMergesAreRefused() {
        ModelTree tree = new ModelTree(ENTRY);
        ModelFile f = flush(tree, 1);
        tree.apply(move(f, 1));
        ModelFile g = flush(tree, 2);
        tree.apply(real(List.of(g, f), 1, BIG));
        assertThatThrownBy(() -> tree.apply(move(f, 2))).hasMessageContaining("not live");
        MergeJob virtual = new MergeJob(List.of(tree.level(1).get(0).info()), 2, BIG, MergeKind.VIRTUAL, "v");
        assertThatThrownBy(() -> tree.apply(virtual)).hasMessageContaining("virtual");
    }

    @Test
    void targetSizeCutsFilesOnceTheyReachTheTarget() {
        ModelTree tree = new ModelTree(ENTRY);
        ModelFile f = flush(tree, 1, 2, 3, 4, 5, 6, 7);
        JobOutcome o = tree.apply(real(List.of(f), 1, new OutputCut.ByTargetSize(3 * ENTRY)));
        assertThat(o.outputs()).extracting(ModelFile::size).containsExactly(3, 3, 1);
        assertThat(o.outputs()).extracting(ModelFile::minKey).containsExactly(1, 4, 7);
        assertThat(o.bytesWritten()).isEqualTo(7 * ENTRY);
        tree.checkInvariants();
    }

    @Test
    void grandparentCutsKeepEachOutputsFutureMergeWithinTheBound() {
        ModelTree tree = new ModelTree(ENTRY);
        // Level 2 (the grandparent of a merge into level 1): [10..11], [20..21], [30..31], [40..41], 2 entries each.
        for (int k = 10; k <= 40; k += 10) {
            tree.apply(move(flush(tree, k, k + 1), 2));
        }
        ModelFile f = flush(tree, 5, 12, 15, 22, 25, 32, 35, 42);
        // Bound 4 entries on grandparent bytes overlapped plus the file's own (RocksDB's rule a, checked when a
        // key crosses a grandparent boundary): at 12 the file overlaps [10..11] and holds 1 entry (3); at 22 it
        // also overlaps [20..21] and holds 3 (7 > 4): cut, counts restart; at 32: 2 + 2 = 4; at 42: 4 + 4: cut.
        JobOutcome o = tree.apply(real(List.of(f), 1, new OutputCut.AtGrandparentBoundaries(1_000, 4 * ENTRY)));
        assertThat(o.outputs()).extracting(ModelTreeTest::keys).containsExactly(List.of(5, 12, 15),
                List.of(22, 25, 32, 35), List.of(42));
        // Each output then overlaps at most two grandparent files.
        tree.checkInvariants();
    }

    @Test
    void theFirstKeyPassingAGrandparentFileDoesNotCountItWhenItStartsTheMerge() {
        ModelTree tree = new ModelTree(ENTRY);
        tree.apply(move(flush(tree, 10, 11), 2));
        tree.apply(move(flush(tree, 20, 21), 2));
        ModelFile f = flush(tree, 25, 26);
        JobOutcome o = tree.apply(real(List.of(f), 1, new OutputCut.AtGrandparentBoundaries(1_000, 1)));
        assertThat(o.outputs()).hasSize(1);
    }

    @Test
    void cursorCutsOnceAtTheFirstKeyAtOrAfterTheCursor() {
        ModelTree tree = new ModelTree(ENTRY);
        ModelFile f = flush(tree, 1, 2, 3, 4, 5, 6);
        JobOutcome o = tree.apply(real(List.of(f), 1, new OutputCut.AtCursor(4 * ENTRY, ModelFile.key(3))));
        // Cut before 3 (the cursor), then by size: [1 2] [3 4 5 6].
        assertThat(o.outputs()).extracting(ModelTreeTest::keys).containsExactly(List.of(1, 2), List.of(3, 4, 5, 6));
    }

    @Test
    void theViewShowsLevelZeroNewestFirstAndDeeperLevelsAsOneSortedRun() {
        ModelTree tree = new ModelTree(ENTRY);
        tree.apply(move(flush(tree, 300, 400), 2));
        ModelFile older = flush(tree, 1, 9);
        ModelFile newer = flush(tree, 5, 256);
        TreeView view = tree.view();
        assertThat(view.levelCount()).isEqualTo(3);
        assertThat(view.level0Runs()).extracting(r -> r.first().id()).containsExactly(newer.id(), older.id());
        assertThat(view.levels().get(1).runs()).isEmpty();
        SSTableInfo t = view.levels().get(2).runs().get(0).first();
        assertThat(t.bytes()).isEqualTo(2 * ENTRY);
        assertThat(t.minKey()).isEqualTo(ModelFile.key(300));
        assertThat(ModelFile.intOf(t.maxKey())).isEqualTo(400);
        assertThat(t.minSequence()).isEqualTo(1);
        assertThat(t.maxSequence()).isEqualTo(2);
        assertThat(t.createdMillis()).isEqualTo(2);
        assertThat(t.lastAccessMillis()).isEqualTo(t.createdMillis());
        // Integer order is key order: 256 sorts after 9 although "256" < "9" as text.
        assertThat(ModelFile.key(256).compareTo(ModelFile.key(9))).isPositive();
        assertThat(Key.EMPTY.compareTo(ModelFile.key(0))).isNegative();
    }

    @Test
    void tombstoneAgeAndCountReachThePolicyView() {
        ModelTree tree = new ModelTree(ENTRY);
        ModelFile f = flush(tree, 1, -2, -3);
        assertThat(f.info().tombstones()).isEqualTo(2);
        assertThat(f.info().oldestTombstoneMillis()).isEqualTo(2);
        assertThat(flush(tree, 4).info().oldestTombstoneMillis()).isEqualTo(SSTableInfo.NO_TOMBSTONE);
    }

    @Test
    void aCopyIsIndependentAndHashesByContentNotIds() {
        ModelTree tree = new ModelTree(ENTRY);
        ModelFile f = flush(tree, 1, 2);
        ModelTree copy = tree.copy();
        copy.apply(move(copy.level(0).get(0), 1));
        assertThat(tree.level(0)).containsExactly(f);
        assertThat(copy.level(1)).hasSize(1);
        assertThat(copy.contentHash(1)).isNotEqualTo(tree.contentHash(1));
        ModelTree other = tree.copy();
        other.apply(move(other.level(0).get(0), 1));
        assertThat(other.contentHash(1)).isEqualTo(copy.contentHash(1));
        assertThat(Map.copyOf(other.visibleVersions())).isEqualTo(tree.visibleVersions());
    }
}
