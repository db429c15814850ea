package io.lsmpolicies.lsm;

import static io.lsmpolicies.lsm.LiteralTables.bytes;
import static io.lsmpolicies.lsm.LiteralTables.flushes;
import static io.lsmpolicies.lsm.LiteralTables.set;
import static io.lsmpolicies.lsm.LiteralTables.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * What the scheduler starts, from literal component sets and a scripted policy: the consultation loop, the
 * deferral of a decision whose output range overlaps a running merge's in the same level, the refusal of jobs on
 * busy or dead tables, and the level-order guard.
 */
class MergePlannerTest {
    /** A state that counts the decisions taken. */
    private record Count(int n) implements PolicyState {
        @Override
        public byte[] encode() {
            return new byte[] {(byte) n};
        }
    }

    /**
     * A policy that answers each consultation with the next scripted job (built from the view it is shown), then
     * with nothing; it records the views.
     */
    private static final class Scripted implements MergePolicy {
        private final List<Function<TreeView, MergeJob>> script;
        final List<TreeView> seen = new ArrayList<>();

        @SafeVarargs
        Scripted(Function<TreeView, MergeJob>... script) {
            this.script = List.of(script);
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public PolicyParameters parameters() {
            return PolicyParameters.parse("scripted", List.of(), Map.of());
        }

        @Override
        public PolicyState initialState() {
            return new Count(0);
        }

        @Override
        public PolicyState decodeState(byte[] encoded) {
            return new Count(encoded[0]);
        }

        @Override
        public Decision decide(TreeView view, PolicyState state) {
            seen.add(view);
            int n = ((Count) state).n();
            if (n >= script.size()) {
                return Decision.none(state);
            }
            return Decision.of(script.get(n).apply(view), new Count(n + 1));
        }
    }

    /** The view's table {@code id}. */
    private static SSTableInfo info(TreeView view, long id) {
        return view.levels().stream().flatMap(l -> l.runs().stream()).flatMap(r -> r.tables().stream())
                .filter(t -> t.id() == id).findFirst().orElseThrow();
    }

    /** A job merging tables {@code ids} of the view into {@code level}. */
    private static Function<TreeView, MergeJob> merge(int level, long... ids) {
        return view -> {
            List<SSTableInfo> inputs = new ArrayList<>();
            for (long id : ids) {
                inputs.add(info(view, id));
            }
            return new MergeJob(inputs, level, OutputCut.SINGLE_FILE, MergeKind.REAL, "scripted " + level);
        };
    }

    /** Level 1: 1 [a-c], 2 [d-f], 3 [g-i]; level 0: 4 [b-e]. */
    private static final ComponentSet LEVELS = set(table(1, 1, "a", "c"), table(2, 1, "d", "f"),
            table(3, 1, "g", "i"), table(4, 0, "b", "e"));

    private static MergePlanner.Consultation plan(MergePolicy p, List<OutputRange> running) {
        return MergePlanner.plan(p, LEVELS, p.initialState(), Set.of(), running, TableRecord::createdMillis);
    }

    @Test
    void withNothingRunningTheJobStartsAndTheStateAdvances() {
        MergePlanner.Consultation c = plan(new Scripted(merge(1, 4, 1, 2)), List.of());
        assertThat(c.deferred()).isFalse();
        assertThat(c.jobs()).singleElement().extracting(MergeJob::reason).isEqualTo("scripted 1");
        assertThat(c.state()).isEqualTo(new Count(1));
    }

    @Test
    void aDecisionWhoseOutputOverlapsARunningMergeInTheSameLevelIsSetAsideWholeStateToo() {
        List<OutputRange> running = List.of(new OutputRange(1, bytes("c"), bytes("d"), null));
        MergePlanner.Consultation c = plan(new Scripted(merge(1, 4, 1, 2)), running);
        assertThat(c.deferred()).isTrue();
        assertThat(c.jobs()).isEmpty();
        assertThat(c.state()).isEqualTo(new Count(0));
    }

    @Test
    void aRunningMergeIntoAnotherLevelOrADisjointRangeDoesNotHoldTheDecision() {
        assertThat(plan(new Scripted(merge(1, 4, 1, 2)), List.of(new OutputRange(2, bytes("a"), bytes("z"), null)))
                .jobs()).hasSize(1);
        assertThat(plan(new Scripted(merge(1, 4, 1, 2)), List.of(new OutputRange(1, bytes("x"), bytes("z"), null)))
                .jobs()).hasSize(1);
    }

    @Test
    void eachConsultationSeesTheInputsOfTheJobsBeforeItAsCompacting() {
        Scripted p = new Scripted(merge(2, 3), merge(0, 4));
        MergePlanner.Consultation c = plan(p, List.of());
        assertThat(c.jobs()).extracting(MergeJob::reason).containsExactly("scripted 2", "scripted 0");
        assertThat(c.state()).isEqualTo(new Count(2));
        assertThat(p.seen).hasSize(3);
        assertThat(info(p.seen.get(0), 3).compacting()).isFalse();
        assertThat(info(p.seen.get(1), 3).compacting()).isTrue();
        assertThat(info(p.seen.get(2), 4).compacting()).isTrue();
    }

    @Test
    void aLaterDecisionOverlappingAnEarlierJobOfTheSameConsultationWaits() {
        MergePlanner.Consultation c = plan(new Scripted(merge(1, 1), merge(1, 4, 2)), List.of());
        assertThat(c.jobs()).extracting(MergeJob::reason).containsExactly("scripted 1");
        assertThat(c.deferred()).isTrue();
        assertThat(c.state()).isEqualTo(new Count(1));
    }

    /**
     * Under a merging order the merge thread's cascade is folded: Tiered, size ratio 4, with three tables of 4 flushes
     * and four of 1 asks for four tables of 1 into one of 4 and then four of 4 into one of 16; that is one job over
     * the seven real tables (the table of 4 is never written). Step by step ({@link MergePlanner#plan}, the
     * FLUSH_THEN_MERGE order) the same consultation starts only the first merge. While a merge runs, Tiered asks for
     * nothing, and nothing starts.
     */
    @Test
    void underAMergingOrderTheMergeThreadWritesACascadeAsOneTable() {
        MergePolicy tiered = MergePolicies.parse("tiered:size-ratio=4");
        ComponentSet stack = set(flushes(1, 1, 4), flushes(2, 5, 8),
                flushes(3, 9, 12), flushes(13, 13, 13), flushes(14, 14, 14),
                flushes(15, 15, 15), flushes(16, 16, 16));
        AtomicLong numbers = new AtomicLong(100);
        MergePlanner.Consultation folded = MergePlanner.planFolded(tiered, stack, tiered.initialState(), Set.of(),
                TableRecord::createdMillis, numbers::incrementAndGet);
        assertThat(folded.jobs()).singleElement().satisfies(j -> {
            assertThat(j.inputs()).extracting(SSTableInfo::id).containsExactly(16L, 15L, 14L, 13L, 3L, 2L, 1L);
            assertThat(j.outputLevel()).isZero();
            assertThat(j.kind()).isEqualTo(MergeKind.REAL);
            assertThat(j.reason()).isEqualTo("tier 0 holds 4 SSTables; tier 1 holds 4 SSTables");
        });
        assertThat(MergePlanner.plan(tiered, stack, tiered.initialState(), Set.of(), List.of(),
                TableRecord::createdMillis).jobs()).singleElement()
                .satisfies(j -> assertThat(j.inputs()).extracting(SSTableInfo::id).containsExactly(16L, 15L, 14L, 13L));
        assertThat(MergePlanner.planFolded(tiered, stack, tiered.initialState(), Set.of(1L), TableRecord::createdMillis,
                numbers::incrementAndGet).jobs()).isEmpty();
    }

    @Test
    void aJobOnABusyOrDeadTableIsRefusedNamingThePolicyAndTheTable() {
        Scripted busy = new Scripted(merge(1, 4, 1, 2));
        assertThatThrownBy(() -> MergePlanner.plan(busy, LEVELS, busy.initialState(), Set.of(2L), List.of(),
                TableRecord::createdMillis)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("policy scripted").hasMessageContaining("SSTable 2, which is already being merged");
        ComponentSet without2 = ComponentPreview.apply(LEVELS, List.of(), List.of(2L));
        Scripted dead = new Scripted(view -> new MergeJob(List.of(info(plannedView(), 2)), 1, OutputCut.SINGLE_FILE,
                MergeKind.REAL, "dead"));
        assertThatThrownBy(() -> MergePlanner.plan(dead, without2, dead.initialState(), Set.of(), List.of(),
                TableRecord::createdMillis)).hasMessageContaining("SSTable 2, which is not live");
    }

    private static TreeView plannedView() {
        return io.lsmpolicies.lsm.manifest.PolicyViews.of(LEVELS, Set.of());
    }

    @Test
    void theLevelOrderGuardRefusesAnInstallThatLeavesOverlappingTablesInALevel() {
        MergeJob job = merge(1, 4, 1).apply(plannedView());
        ManifestEdit leavesOverlap = ManifestEdit.builder().removeFile(4).removeFile(1)
                .addTable(table(9, 1, "a", "e")).build(); // 2 [d-f] was left out
        assertThatThrownBy(() -> LevelOrder.check(LEVELS, leavesOverlap, job, "scripted"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tables 9 and 2 overlapping in level 1");
        ManifestEdit takesAll = ManifestEdit.builder().removeFile(4).removeFile(1).removeFile(2)
                .addTable(table(9, 1, "a", "f")).build();
        LevelOrder.check(LEVELS, takesAll, job, "scripted");
    }
}
