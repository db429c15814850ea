package io.lsmpolicies.merge.policy.leveled;

import static io.lsmpolicies.merge.policy.leveled.LeveledViews.builder;
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
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code delayed} on literal views: with {@code vct = 0} it is its wrapped policy; otherwise a real merge of fewer
 * than {@code vct} real SSTables (parents of virtual inputs counted) becomes virtual and nothing else changes;
 * a read meeting a virtual SSTable of at least {@code vsmt} parents materialises it in its level.
 */
class DelayedPolicyTest {
    static final String SHAPE = "base-level-bytes=100,size-ratio=10,target-file-bytes=50";

    /** {@code delayed:OWN,policy=NAME,PARAMS} for the wrapped spec {@code NAME:PARAMS}. */
    static String delayed(String wrappedSpec, String own) {
        int colon = wrappedSpec.indexOf(':');
        String name = colon < 0 ? wrappedSpec : wrappedSpec.substring(0, colon);
        String params = colon < 0 ? "" : "," + wrappedSpec.substring(colon + 1);
        return "delayed:" + own + ",policy=" + name + params;
    }

    static SSTableInfo virtual(long id, String min, String max, long bytes, int parents) {
        return builder(id, min, max, bytes).parents(parents).build();
    }

    /** Views of every kind the leveled family meets, busy files and virtual SSTables included. */
    static List<TreeView> views() {
        List<TreeView> out = new ArrayList<>();
        out.add(view(List.of()));
        List<SSTableInfo> l0 = List.of(file(4, "a0", "c0", 5), file(3, "b0", "d0", 5), file(2, "a5", "c5", 5),
                file(1, "a2", "a7", 5));
        List<SSTableInfo> l1 = List.of(file(11, "a0", "a9", 60), file(12, "b0", "b9", 60), file(13, "m0", "m9", 10));
        List<SSTableInfo> l2 = List.of(file(21, "a0", "a9", 30), file(22, "b0", "b5", 40), file(23, "x0", "x9", 5));
        out.add(view(l0.subList(0, 3), l1, l2));
        out.add(view(l0, l1, l2));
        out.add(view(l0, List.of(file(11, "a0", "a9", 60), busy(file(12, "b0", "b9", 60))), l2));
        out.add(view(List.of(), l1, List.of(busy(file(21, "a0", "a9", 30)), file(22, "b0", "b5", 40))));
        out.add(view(List.of(), List.of(file(11, "a0", "a9", 60), file(12, "b0", "b9", 60)),
                List.of(file(21, "a0", "a9", 30))));
        out.add(view(List.of(file(5, "a0", "a9", 5)), List.of(virtual(11, "a0", "c9", 150, 3)),
                List.of(virtual(21, "a0", "a9", 30, 2), file(22, "b0", "b5", 40))));
        out.add(FilePickersTest.sevenFiles());
        out.add(WholeLevelAndTieredStrategiesTest.runs(new long[] {10, 10, 10}, 10));
        out.add(WholeLevelAndTieredStrategiesTest.runs(new long[] {10, 10, 10, 10}, 1000));
        out.add(WholeLevelAndTieredStrategiesTest.runs(new long[] {1, 10, 100, 1000}, 1_000_000));
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"leveled:" + SHAPE, "leveled:" + SHAPE + ",picker=round-robin",
        "leveled:" + SHAPE + ",picker=tombstone-density,l0-trigger=3", "full-leveling:" + SHAPE,
        "one-leveling:" + SHAPE, "universal", "composed:" + SHAPE + ",movement=coldest", "leveled"})
    void vctZeroIsExactlyTheWrappedPolicy(String wrappedSpec) {
        MergePolicy wrapped = policy(wrappedSpec);
        MergePolicy delayed = policy(delayed(wrappedSpec, "vct=0"));
        PolicyState cursorAt = CompactionState.EMPTY.withCursor(1, Key.of("b0"));
        for (PolicyState state : List.of(wrapped.initialState(), cursorAt)) {
            for (TreeView v : views()) {
                assertThat(delayed.decide(v, state)).as("%s on %s", wrappedSpec, v).isEqualTo(wrapped.decide(v, state));
                assertThat(delayed.isMergeLagging(v, state)).isEqualTo(wrapped.isMergeLagging(v, state));
                assertThat(delayed.onFlush(state, v)).isEqualTo(wrapped.onFlush(state, v));
            }
        }
        assertThat(delayed.initialState()).isEqualTo(wrapped.initialState());
        assertThat(delayed.decodeState(cursorAt.encode())).isEqualTo(wrapped.decodeState(cursorAt.encode()));
    }

    @Test
    void vctOneIsAlsoTheWrappedPolicyForEveryMergeReadsAtLeastOneRealSSTable() {
        MergePolicy wrapped = policy("leveled:" + SHAPE);
        MergePolicy delayed = policy("delayed:vct=1," + SHAPE);
        for (TreeView v : views()) {
            assertThat(delayed.decide(v, wrapped.initialState())).isEqualTo(wrapped.decide(v, wrapped.initialState()));
        }
    }

    /** L1 over its target of 100: min-overlapping-ratio takes 11 (ratio 30/60) with 21. */
    static TreeView twoOfLevelOne(SSTableInfo below) {
        return view(List.of(), List.of(file(11, "a0", "a9", 60), file(12, "b0", "b9", 60)),
                List.of(below, file(22, "b0", "b9", 120)));
    }

    @Test
    void aMergeOfFewerRealSSTablesThanVctBecomesVirtualWithTheSameInputsLevelAndCut() {
        TreeView v = twoOfLevelOne(file(21, "a0", "a9", 30));
        MergeJob real = onlyJob(policy("leveled:" + SHAPE), v);
        assertThat(real.kind()).isEqualTo(MergeKind.REAL);
        assertThat(ids(real)).containsExactly(11L, 21L);

        MergeJob two = onlyJob(policy("delayed:vct=3," + SHAPE), v);
        assertThat(two.kind()).as("2 real SSTables < vct 3").isEqualTo(MergeKind.VIRTUAL);
        assertThat(two.inputs()).isEqualTo(real.inputs());
        assertThat(two.outputLevel()).isEqualTo(real.outputLevel()).isEqualTo(2);
        assertThat(two.cut()).isEqualTo(real.cut()).isEqualTo(new OutputCut.AtGrandparentBoundaries(50, 1250));
        assertThat(two.reason()).isEqualTo(real.reason() + "; virtual: it reads 2 real SSTables, fewer than vct 3");

        assertThat(onlyJob(policy("delayed:vct=2," + SHAPE), v)).as("2 real SSTables = vct 2: stays real")
                .isEqualTo(real);
    }

    @Test
    void vctCountsTheRealParentsOfVirtualInputs() {
        // 11 is real (1), 21 is virtual with 4 parents: the merge reads 5 real SSTables.
        TreeView v = twoOfLevelOne(virtual(21, "a0", "a9", 30, 4));
        MergeJob real = onlyJob(policy("leveled:" + SHAPE), v);
        assertThat(ids(real)).containsExactly(11L, 21L);
        assertThat(onlyJob(policy("delayed:vct=5," + SHAPE), v)).as("5 = vct: real").isEqualTo(real);
        MergeJob six = onlyJob(policy("delayed:vct=6," + SHAPE), v);
        assertThat(six.kind()).as("5 < vct 6: virtual").isEqualTo(MergeKind.VIRTUAL);
        assertThat(six.reason()).endsWith("; virtual: it reads 5 real SSTables, fewer than vct 6");
        // Two virtual inputs: 3 + 4 parents.
        TreeView both = view(List.of(), List.of(virtual(11, "a0", "a9", 60, 3), file(12, "b0", "b9", 60)),
                List.of(virtual(21, "a0", "a9", 30, 4), file(22, "b0", "b9", 120)));
        assertThat(onlyJob(policy("delayed:vct=7," + SHAPE), both).kind()).isEqualTo(MergeKind.REAL);
        assertThat(onlyJob(policy("delayed:vct=8," + SHAPE), both).kind()).isEqualTo(MergeKind.VIRTUAL);
    }

    @Test
    void theDefaultVctOfTwelveMakesALevelZeroCompactionOfFiveFilesVirtual() {
        List<SSTableInfo> l0 = List.of(file(4, "a0", "c0", 5), file(3, "b0", "d0", 5), file(2, "a5", "c5", 5),
                file(1, "a2", "a7", 5));
        TreeView v = view(l0, List.of(file(11, "a0", "a9", 10), file(12, "m0", "m9", 10)));
        MergeJob real = onlyJob(policy("leveled:" + SHAPE), v);
        MergeJob job = onlyJob(policy("delayed:" + SHAPE), v);
        assertThat(ids(job)).containsExactly(4L, 3L, 2L, 1L, 11L);
        assertThat(job.kind()).isEqualTo(MergeKind.VIRTUAL);
        assertThat(job.outputLevel()).isEqualTo(real.outputLevel()).isEqualTo(1);
        assertThat(job.reason()).startsWith(real.reason()).endsWith("fewer than vct 12");
    }

    @Test
    void trivialMovesPassUnchangedWhateverVct() {
        TreeView v = view(List.of(), List.of(file(11, "a0", "a9", 60), file(12, "b0", "b9", 60)),
                List.of(file(21, "a0", "a9", 30)));
        MergeJob move = onlyJob(policy("leveled:" + SHAPE), v);
        assertThat(move.kind()).isEqualTo(MergeKind.TRIVIAL_MOVE);
        assertThat(onlyJob(policy("delayed:vct=1000," + SHAPE), v)).isEqualTo(move);
        TreeView virtualMove = view(List.of(), List.of(file(11, "a0", "a9", 60), virtual(12, "b0", "b9", 60, 7)),
                List.of(file(21, "a0", "a9", 30)));
        assertThat(onlyJob(policy("delayed:vct=1000," + SHAPE), virtualMove))
                .isEqualTo(onlyJob(policy("leveled:" + SHAPE), virtualMove));
        // Full leveling into an empty level: one trivial move per file, all passed through.
        TreeView down = view(List.of(), List.of(file(11, "a0", "a9", 60), file(12, "b0", "b9", 60)));
        Decision full = policy("full-leveling:" + SHAPE).decide(down, CompactionState.EMPTY);
        assertThat(full.jobs()).hasSize(2).allMatch(j -> j.kind() == MergeKind.TRIVIAL_MOVE);
        assertThat(policy("delayed:vct=1000,policy=full-leveling," + SHAPE).decide(down, CompactionState.EMPTY))
                .isEqualTo(full);
    }

    @Test
    void theWrappedPolicysStateIsKeptAndReturned() {
        // Round robin moves its cursor when it picks; a virtual job carries the same new state.
        TreeView v = twoOfLevelOne(file(21, "a0", "a9", 30));
        Decision real = policy("leveled:picker=round-robin," + SHAPE).decide(v, CompactionState.EMPTY);
        Decision delayed = policy("delayed:vct=12,picker=round-robin," + SHAPE).decide(v, CompactionState.EMPTY);
        assertThat(delayed.jobs()).singleElement().extracting(MergeJob::kind).isEqualTo(MergeKind.VIRTUAL);
        assertThat(delayed.state()).isEqualTo(real.state()).isNotEqualTo(CompactionState.EMPTY);
        assertThat(delayed.jobs().get(0).cut()).isEqualTo(real.jobs().get(0).cut());
    }

    // ---- onVirtualRead: the VSMT materialisation -------------------------------------------------------------

    static TreeView withVirtualInLevelTwo(int parents, boolean compacting) {
        SSTableInfo v = virtual(21, "a0", "c9", 90, parents).withCompacting(compacting);
        return view(List.of(file(5, "a0", "a9", 5)), List.of(file(11, "d0", "d9", 10)),
                List.of(v, file(22, "d0", "d9", 10)), List.of(file(31, "a0", "z9", 1000)));
    }

    static SSTableInfo tableOf(TreeView v, long id) {
        return v.levels().stream().flatMap(l -> l.runs().stream()).flatMap(r -> r.tables().stream())
                .filter(t -> t.id() == id).findFirst().orElseThrow();
    }

    @Test
    void aVirtualSSTableOfVsmtParentsIsMaterialisedInItsOwnLevelOneBelowIsNot() {
        MergePolicy p = policy("delayed:vsmt=5," + SHAPE);
        TreeView four = withVirtualInLevelTwo(4, false);
        assertThat(p.onVirtualRead(four, p.initialState(), tableOf(four, 21))).as("4 parents < vsmt 5").isEmpty();
        TreeView five = withVirtualInLevelTwo(5, false);
        MergeJob job = p.onVirtualRead(five, p.initialState(), tableOf(five, 21)).orElseThrow();
        assertThat(job.inputs()).containsExactly(tableOf(five, 21));
        assertThat(job.kind()).isEqualTo(MergeKind.REAL);
        assertThat(job.outputLevel()).as("its own level").isEqualTo(2);
        assertThat(job.cut()).as("leveled's cut of L2's output").isEqualTo(new OutputCut.AtGrandparentBoundaries(50,
                1250));
        assertThat(job.reason()).isEqualTo("VSMT: a read met virtual SSTable 21 in L2, derived from 5 real SSTables "
                + "(vsmt 5): materialised in L2");
        assertThat(policy("delayed:vsmt=1000," + SHAPE).onVirtualRead(five, p.initialState(), tableOf(five, 21)))
                .isEmpty();
        assertThat(policy("delayed:vct=0,vsmt=3," + SHAPE).onVirtualRead(five, p.initialState(), tableOf(five, 21)))
                .as("vct=0 writes no virtual SSTable but still materialises one it finds").isPresent();
    }

    @Test
    void nothingIsMaterialisedWhileCompactingNorForARealOrVanishedSSTable() {
        MergePolicy p = policy("delayed:vsmt=3," + SHAPE);
        TreeView busyInView = withVirtualInLevelTwo(9, true);
        assertThat(p.onVirtualRead(busyInView, p.initialState(), tableOf(busyInView, 21).withCompacting(false)))
                .as("compacting in the view").isEmpty();
        TreeView free = withVirtualInLevelTwo(9, false);
        assertThat(p.onVirtualRead(free, p.initialState(), tableOf(free, 21).withCompacting(true)))
                .as("compacting as given").isEmpty();
        assertThat(p.onVirtualRead(free, p.initialState(), tableOf(free, 22))).as("a real SSTable").isEmpty();
        assertThat(p.onVirtualRead(free, p.initialState(), virtual(99, "a0", "a1", 5, 9))).as("not in the view")
                .isEmpty();
        assertThat(p.onVirtualRead(free, p.initialState(), tableOf(free, 21))).isPresent();
    }

    @Test
    void theMaterialisingCutIsTheWrappedPolicysCutOfThatLevel() {
        TreeView v = withVirtualInLevelTwo(5, false);
        SSTableInfo t = tableOf(v, 21);
        MergePolicy rr = policy("delayed:picker=round-robin," + SHAPE);
        PolicyState cursor = CompactionState.EMPTY.withCursor(2, Key.of("b0"));
        assertThat(rr.onVirtualRead(v, cursor, t).map(MergeJob::cut))
                .contains(new OutputCut.AtCursor(50, Key.of("b0")));
        assertThat(rr.onVirtualRead(v, rr.initialState(), t).map(MergeJob::cut))
                .contains(new OutputCut.AtCursor(50, Key.EMPTY));
        MergePolicy bigFiles = policy("delayed:" + SHAPE.replace("target-file-bytes=50", "target-file-bytes=70")
                + ",max-compaction-bytes=500");
        assertThat(bigFiles.onVirtualRead(v, bigFiles.initialState(), t).map(MergeJob::cut))
                .contains(new OutputCut.AtGrandparentBoundaries(70, 500));
        // Universal writes one file per run; a virtual run in level 0 is materialised in level 0.
        MergePolicy universal = policy("delayed:policy=universal");
        TreeView runs = view(List.of(file(3, "a0", "z9", 10), virtual(2, "a0", "z9", 20, 6), file(1, "a0", "z9", 10)));
        Optional<MergeJob> job = universal.onVirtualRead(runs, universal.initialState(), tableOf(runs, 2));
        assertThat(job.map(MergeJob::cut)).contains(OutputCut.SINGLE_FILE);
        assertThat(job.map(MergeJob::outputLevel)).contains(0);
    }
}
