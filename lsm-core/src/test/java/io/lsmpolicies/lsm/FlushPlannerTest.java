package io.lsmpolicies.lsm;

import static io.lsmpolicies.lsm.LiteralTables.flushes;
import static io.lsmpolicies.lsm.LiteralTables.set;
import static io.lsmpolicies.lsm.LiteralTables.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.PolicyViews;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The plan of a MERGE_MEMTABLE flush from literal component sets: which tables are written once, from which old
 * tables, and whether they hold the MemTable; and, driven flush after flush, the published schedules.
 */
class FlushPlannerTest {

    private static FlushPlanner.Plan plan(MergePolicy policy, PolicyState state, ComponentSet set, long flushId) {
        return plan(policy, state, set, flushId, Long.MAX_VALUE);
    }

    private static FlushPlanner.Plan plan(MergePolicy policy, PolicyState state, ComponentSet set, long flushId,
            long maxMergeBytes) {
        AtomicLong numbers = new AtomicLong(1000);
        return FlushPlanner.plan(policy, state, 0, set, table(flushId, 0, "a", "z"), s -> PolicyViews.of(s, Set.of()),
                numbers::incrementAndGet, maxMergeBytes);
    }

    /**
     * MERGE_MEMTABLE_SMALL's bound: a merge that reads more (here the two tables and the MemTable, 1,000 bytes each)
     * is not planned, and the plan keeps the state from before the decision, so that the policy, asked again once
     * the MemTable is a table, asks for the same merge (for the merge thread).
     */
    @Test
    void aMergeThatReadsMoreThanTheBoundIsLeftForTheMergeThread() {
        MergePolicy constant = MergePolicies.parse("constant:k=2");
        ComponentSet before = set(table(1, 0, "a", "z"), table(2, 0, "a", "z"));
        assertThat(plan(constant, constant.initialState(), before, 3, 3000).tables()).singleElement()
                .satisfies(t -> assertThat(t.realInputs()).containsExactlyInAnyOrder(1L, 2L));
        FlushPlanner.Plan large = plan(constant, constant.initialState(), before, 3, 2999);
        assertThat(large.tables()).containsExactly(new FlushPlanner.PlannedTable(0, List.of(), true, List.of()));
        ComponentSet flushed = ComponentPreview.apply(before, List.of(table(3, 0, "a", "z")), List.of());
        assertThat(constant.decide(PolicyViews.of(flushed, Set.of()), large.state()).jobs()).singleElement()
                .satisfies(j -> assertThat(j.inputs()).hasSize(3));
    }

    /**
     * Tiered, size ratio 4, three tables of 4 flushes and three of 1 before flush 16: the flush starts a cascade of
     * two merges (four tables of 1 into one of 4, then four of 4 into one of 16). With a bound the second exceeds,
     * nothing of the cascade is folded into the flush, not even the first merge (its table of 4 would only be
     * merged again): the MemTable is written alone, and the policy, asked again once it is a table, asks for the
     * whole cascade for the merge thread. Without a bound the flush writes the one table of 16.
     */
    @Test
    void aCascadeWithAMergeAboveTheBoundIsLeftWholeToTheMergeThread() {
        MergePolicy tiered = MergePolicies.parse("tiered:size-ratio=4");
        ComponentSet before = set(flushes(1, 1, 4), flushes(2, 5, 8),
                flushes(3, 9, 12), flushes(13, 13, 13), flushes(14, 14, 14),
                flushes(15, 15, 15));
        FlushPlanner.Plan whole = FlushPlanner.plan(tiered, tiered.initialState(), 0, before,
                flushes(16, 16, 16), s -> PolicyViews.of(s, Set.of()), new AtomicLong(100)::incrementAndGet,
                Long.MAX_VALUE);
        assertThat(whole.tables()).singleElement().satisfies(t -> {
            assertThat(t.withMemTable()).isTrue();
            assertThat(t.realInputs()).containsExactlyInAnyOrder(1L, 2L, 3L, 13L, 14L, 15L);
            assertThat(t.reasons()).containsExactly("tier 0 holds 4 SSTables", "tier 1 holds 4 SSTables");
        });
        FlushPlanner.Plan bounded = FlushPlanner.plan(tiered, tiered.initialState(), 0, before,
                flushes(16, 16, 16), s -> PolicyViews.of(s, Set.of()), new AtomicLong(100)::incrementAndGet,
                15_999);
        assertThat(bounded.tables()).containsExactly(new FlushPlanner.PlannedTable(0, List.of(), true, List.of()));
    }

    @Test
    void belowTheBoundTheMemTableBecomesOneTableAlone() {
        MergePolicy constant = MergePolicies.parse("constant:k=3");
        FlushPlanner.Plan p = plan(constant, constant.initialState(), set(table(1, 0, "a", "z")), 2);
        assertThat(p.tables()).containsExactly(new FlushPlanner.PlannedTable(0, List.of(), true, List.of()));
    }

    @Test
    void aMergeThatTakesTheMemTableIsOneTableWrittenFromItAndTheOldTables() {
        MergePolicy constant = MergePolicies.parse("constant:k=2");
        ComponentSet before = set(table(1, 0, "a", "z"), table(2, 0, "a", "z"));
        FlushPlanner.Plan p = plan(constant, constant.initialState(), before, 3);
        assertThat(p.tables()).hasSize(1);
        assertThat(p.tables().get(0).withMemTable()).isTrue();
        assertThat(p.tables().get(0).realInputs()).containsExactlyInAnyOrder(1L, 2L);
        assertThat(p.tables().get(0).level()).isZero();
        assertThat(p.tables().get(0).reasons()).containsExactly("3 SSTables > k=2: merge all");
    }

    @Test
    void aPolicyThatAsksForLevelsIsRefusedWithItsNameAndTheJob() {
        MergePolicy leveled = MergePolicies.parse("leveled");
        List<TableRecord> l0 = new ArrayList<>();
        for (long n = 1; n <= 8; n++) {
            l0.add(table(n, 0, "a", "z"));
        }
        assertThatThrownBy(() -> plan(leveled, leveled.initialState(), set(l0.toArray(TableRecord[]::new)), 9))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("policy leveled").hasMessageContaining("FLUSH_THEN_MERGE");
    }

    @Test
    void minLatencyFirstSixteenFlushesWithKFourAsPublished() {
        assertThat(schedule(MergePolicies.parse("minlatency:k=4"), 16)).containsExactly(
                List.of(1L), List.of(1L, 1L), List.of(1L, 1L, 1L), List.of(1L, 1L, 1L, 1L), List.of(5L),
                List.of(5L, 1L), List.of(5L, 1L, 1L), List.of(5L, 1L, 1L, 1L), List.of(5L, 4L),
                List.of(5L, 4L, 1L), List.of(5L, 4L, 1L, 1L), List.of(5L, 4L, 3L), List.of(5L, 4L, 3L, 1L),
                List.of(5L, 4L, 3L, 2L), List.of(15L), List.of(15L, 1L));
    }

    @Test
    void binomialFirstSixteenFlushesWithKFourAsTheFormalDefinitionGives() {
        assertThat(schedule(MergePolicies.parse("binomial:k=4"), 16)).containsExactly(
                List.of(1L), List.of(2L), List.of(2L, 1L), List.of(2L, 2L), List.of(5L), List.of(5L, 1L),
                List.of(5L, 1L, 1L), List.of(5L, 3L), List.of(5L, 3L, 1L), List.of(5L, 3L, 2L), List.of(5L, 6L),
                List.of(5L, 6L, 1L), List.of(5L, 6L, 2L), List.of(5L, 6L, 3L), List.of(15L), List.of(15L, 1L));
    }

    /**
     * Plans {@code flushes} unit flushes one after another, installing each plan as the engine does (each planned
     * table replaces its real inputs, with the MemTable's flush folded into the one that holds it); returns the
     * stack after each flush as flush counts per table, oldest first.
     */
    private static List<List<Long>> schedule(MergePolicy policy, int flushes) {
        ComponentSet set = ComponentSet.empty();
        PolicyState state = policy.initialState();
        AtomicLong numbers = new AtomicLong(0);
        List<List<Long>> out = new ArrayList<>();
        for (int f = 1; f <= flushes; f++) {
            TableRecord flush = flushOf(numbers.incrementAndGet(), f);
            FlushPlanner.Plan p = FlushPlanner.plan(policy, state, 0, set, flush, s -> PolicyViews.of(s, Set.of()),
                    numbers::incrementAndGet, Long.MAX_VALUE);
            assertThat(p.tables().stream().filter(FlushPlanner.PlannedTable::withMemTable)).hasSize(1);
            assertThat(p.tables().get(p.tables().size() - 1).withMemTable()).as("the MemTable's table is last")
                    .isTrue();
            for (FlushPlanner.PlannedTable t : p.tables()) {
                List<TableRecord> inputs = new ArrayList<>();
                for (long id : t.realInputs()) {
                    inputs.add(set.table(id).orElseThrow());
                }
                if (t.withMemTable()) {
                    inputs.add(flush);
                }
                TableRecord written = ComponentPreview.combine(numbers.incrementAndGet(), t.level(), inputs);
                set = ComponentPreview.apply(set, List.of(written), t.realInputs());
            }
            state = p.state();
            List<Long> stack = new ArrayList<>();
            for (TableRecord t : set.level(0)) {
                stack.add(0, t.maxFlushIndex() - t.minFlushIndex() + 1);
            }
            out.add(stack);
        }
        return out;
    }

    private static TableRecord flushOf(long number, long flushIndex) {
        return new TableRecord(number, 0, 1000, 10, 0, LiteralTables.bytes("a"), LiteralTables.bytes("z"),
                100 * flushIndex, 100 * flushIndex + 9, flushIndex, flushIndex, 1_700_000_000_000L + flushIndex,
                Long.MAX_VALUE, 900);
    }
}
