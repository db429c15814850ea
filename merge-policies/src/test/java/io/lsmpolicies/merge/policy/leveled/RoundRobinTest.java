package io.lsmpolicies.merge.policy.leveled;

import static io.lsmpolicies.merge.policy.leveled.LeveledViews.busy;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.file;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.ids;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.onlyJob;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.policy;
import static io.lsmpolicies.merge.policy.leveled.LeveledViews.view;
import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Round robin, RocksDB's current semantics: the per-level cursor, its movement across decisions, its persistence,
 * the output cut at the cursor, and growth to the right.
 */
class RoundRobinTest {
    /** Level 1's target 450 against 500 bytes: one 100-byte file brings it under, so picks take one file. */
    static final String ONE_FILE = "leveled:picker=round-robin,base-level-bytes=450,size-ratio=10,target-file-bytes=100";

    /** Level 1: five 100-byte files a..e (ids 11..15) plus {@code extra}; level 2 one 50-byte file under each. */
    static TreeView levels(List<SSTableInfo> level1, List<SSTableInfo> level2) {
        return view(List.of(), level1, level2);
    }

    static List<SSTableInfo> row(long firstId, long bytes, String... keys) {
        List<SSTableInfo> out = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            out.add(file(firstId + i, keys[i] + "0", keys[i] + "9", bytes));
        }
        return out;
    }

    @Test
    void theCursorWalksTheLevelFileByFileAndWrapsAround() {
        MergePolicy rr = policy(ONE_FILE);
        List<SSTableInfo> l1 = new ArrayList<>(row(11, 100, "b", "c", "d", "e", "f"));
        List<SSTableInfo> l2 = row(21, 50, "b", "c", "d", "e", "f");
        PolicyState state = rr.initialState();
        List<Long> picked = new ArrayList<>();
        List<String> cursors = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            Decision d = rr.decide(levels(l1, l2), state);
            assertThat(d.jobs()).hasSize(1);
            MergeJob job = d.jobs().get(0);
            SSTableInfo taken = job.inputs().get(0);
            picked.add(taken.id());
            // The state survives a restart: encode it, decode it in a fresh instance.
            state = policy(ONE_FILE).decodeState(d.state().encode());
            cursors.add(((CompactionState) state).cursor(1).toString());
            // Replace the compacted file by a new one with the same keys (as if level 0 refilled that range).
            l1.set(l1.indexOf(taken), file(taken.id() + 100, taken.minKey().toString(), taken.maxKey().toString(), 100));
        }
        assertThat(picked).containsExactly(11L, 12L, 13L, 14L, 15L, 111L);
        assertThat(cursors).containsExactly("c0", "d0", "e0", "f0", "b0", "c0");
    }

    @Test
    void theCursorSkipsTheGapAfterTheLastPickNewFilesInItWaitTheirTurn() {
        // After 11 (b) the cursor is c0. A new file 16 lands in the gap a..b below the cursor: it is not next.
        MergePolicy rr = policy(ONE_FILE);
        PolicyState afterFirst = new CompactionState(Map.of(1, Key.of("c0")));
        List<SSTableInfo> l1 = new ArrayList<>(row(12, 100, "c", "d", "e", "f"));
        l1.add(0, file(16, "a0", "a9", 100));
        assertThat(ids(onlyJob(rr, levels(l1, row(21, 50, "a", "c", "d", "e", "f")), afterFirst)))
                .containsExactly(12L, 22L);
    }

    @Test
    void aBusyCursorFileHoldsTheLevelBack() {
        MergePolicy rr = policy(ONE_FILE);
        List<SSTableInfo> l1 = new ArrayList<>(row(11, 100, "b", "c", "d", "e", "f"));
        l1.set(1, busy(l1.get(1)));
        l1.add(file(16, "g0", "g9", 100)); // keeps level 1 over its target without the busy file
        Decision d = rr.decide(levels(l1, row(21, 50, "b", "c", "d", "e", "f", "g")),
                new CompactionState(Map.of(1, Key.of("c0"))));
        assertThat(d.jobs()).as("only the file at the cursor (12) may be taken, and it is being compacted").isEmpty();
    }

    @Test
    void outputIsCutAtTheOutputLevelsCursor() {
        MergePolicy rr = policy(ONE_FILE);
        PolicyState state = new CompactionState(Map.of(1, Key.of("d0"), 2, Key.of("d5")));
        MergeJob job = onlyJob(rr, levels(row(11, 100, "b", "c", "d", "e", "f"), row(21, 50, "b", "c", "d", "e", "f")),
                state);
        assertThat(ids(job)).containsExactly(13L, 23L);
        assertThat(job.cut()).isEqualTo(new OutputCut.AtCursor(100, Key.of("d5")));
        MergeJob fromL0 = onlyJob(policy(ONE_FILE + ",l0-trigger=1"), view(List.of(file(1, "a0", "z0", 5)),
                row(11, 10, "b")), state);
        assertThat(fromL0.cut()).as("level 0 into level 1 is cut at level 1's cursor")
                .isEqualTo(new OutputCut.AtCursor(100, Key.of("d0")));
    }

    @Test
    void theCompactionGrowsRightwardsUntilTheLevelFitsItsTarget() {
        // Target 250 against 500: 100, 200 still leave >= 250, the third file brings the level to 200.
        String grow = "leveled:picker=round-robin,base-level-bytes=250,size-ratio=10,target-file-bytes=100";
        TreeView v = levels(row(11, 100, "b", "c", "d", "e", "f"), row(21, 50, "b", "c", "d", "e", "f"));
        Decision d = policy(grow).decide(v, new CompactionState(Map.of(1, Key.of("c0"))));
        assertThat(ids(d.jobs().get(0))).containsExactly(12L, 13L, 14L, 22L, 23L, 24L);
        assertThat(((CompactionState) d.state()).cursor(1)).as("cursor after the last file taken")
                .isEqualTo(Key.of("f0"));
        Decision bounded = policy(grow + ",max-compaction-bytes=300").decide(v,
                new CompactionState(Map.of(1, Key.of("c0"))));
        assertThat(ids(bounded.jobs().get(0))).as("12 and 13 with their overlap are 300 bytes, within the bound; "
                + "14 would make 450").containsExactly(12L, 13L, 22L, 23L);
        Decision atEnd = policy(grow).decide(v, new CompactionState(Map.of(1, Key.of("f0"))));
        assertThat(ids(atEnd.jobs().get(0))).as("never wraps past the last file").containsExactly(15L, 25L);
        assertThat(((CompactionState) atEnd.state()).cursor(1)).isEqualTo(Key.of("b0"));
    }

    @Test
    void aCursorFileOverlappingNothingBelowMovesAndTheCursorAdvances() {
        Decision d = policy(ONE_FILE).decide(levels(row(11, 100, "b", "c", "d", "e", "f"),
                row(21, 50, "b", "d", "e", "f")), new CompactionState(Map.of(1, Key.of("c0"))));
        MergeJob job = d.jobs().get(0);
        assertThat(job.kind()).isEqualTo(MergeKind.TRIVIAL_MOVE);
        assertThat(ids(job)).containsExactly(12L);
        assertThat(((CompactionState) d.state()).cursor(1)).isEqualTo(Key.of("d0"));
    }

    @Test
    void onlyTheCursorsFileIsTakenEvenWhenAnotherCouldMoveTrivially() {
        // e overlaps nothing in level 2, but the cursor is on c: as RocksDB's kRoundRobin, c goes (merged), then d.
        Decision d = policy(ONE_FILE).decide(levels(row(11, 100, "b", "c", "d", "e", "f"),
                row(21, 50, "b", "c", "d", "f")), new CompactionState(Map.of(1, Key.of("c0"))));
        MergeJob job = d.jobs().get(0);
        assertThat(job.kind()).isEqualTo(MergeKind.REAL);
        assertThat(ids(job)).containsExactly(12L, 22L);
        assertThat(((CompactionState) d.state()).cursor(1)).isEqualTo(Key.of("d0"));
        // With the cursor's file busy, nothing is taken, although e could move.
        List<SSTableInfo> level1 = new ArrayList<>(row(11, 100, "b", "c", "d", "e", "f"));
        level1.set(1, busy(level1.get(1)));
        assertThat(policy(ONE_FILE).decide(levels(level1, row(21, 50, "b", "c", "d", "f")),
                new CompactionState(Map.of(1, Key.of("c0")))).jobs()).isEmpty();
    }
}
