package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Plans a {@link MergeOrder#MERGE_MEMTABLE} flush, a pure function of the component set, the policy and its
 * state: the MemTable is shown to the policy as the newest level-0 SSTable, the policy is asked (on previews of
 * the set) for every merge of the cascade that flush starts, and what survives is a list of tables to write,
 * each from the real tables it replaces and perhaps the MemTable. The merge thread's merges under either merging
 * order are planned the same way without a MemTable ({@link #merges}). Nothing is read, written or logged.
 */
final class FlushPlanner {
    /** Bound on merges planned in one consultation, so a policy that never settles is reported. */
    static final int MAX_JOBS = 10_000;

    private FlushPlanner() {
    }

    /**
     * A table the plan writes once.
     *
     * @param level        its level
     * @param realInputs   the file numbers of the existing tables it replaces
     * @param withMemTable whether it holds the flushed MemTable
     * @param reasons      the policy's reasons for the merges that made it, in order (none for the MemTable alone)
     */
    record PlannedTable(int level, List<Long> realInputs, boolean withMemTable, List<String> reasons) {
        PlannedTable {
            realInputs = List.copyOf(realInputs);
            reasons = List.copyOf(reasons);
        }
    }

    /**
     * A flush's plan, or the merge thread's.
     *
     * @param tables the tables to write, those without the MemTable first (each is one install), the one holding
     *               the MemTable last; each replaces tables adjacent in the stack, so any install order keeps it
     * @param state  the policy's state after the flush and its merges
     */
    record Plan(List<PlannedTable> tables, PolicyState state) {
        Plan {
            tables = List.copyOf(tables);
        }
    }

    /**
     * Plans the flush of {@code flush} (a level-0 record for the MemTable, sizes estimated) onto {@code current}.
     *
     * @param reads          the point reads and scans since the previous flush (what the policy is told)
     * @param view           the policy's view of a set (compacting tables, last access)
     * @param newFileNumber  numbers for the planned merge outputs
     * @param maxMergeBytes  the most bytes one planned merge may read (its inputs as they would be, the MemTable
     *                       at its estimate): if the cascade holds a larger merge, the plan is the MemTable alone,
     *                       with the state from before the cascade's first decision, so that the policy asks for
     *                       the whole cascade again once the flush is installed and the merge thread writes it
     *                       ({@link #merges}; {@link MergeOrder#MERGE_MEMTABLE_SMALL}); {@code Long.MAX_VALUE} for
     *                       none
     * @throws UnsupportedOperationException if the policy asks for anything but real merges into one level-0 table
     * @throws IllegalStateException         if it asks for more than {@link #MAX_JOBS} merges, or to merge a table a
     *                                       merge task is merging
     */
    static Plan plan(MergePolicy policy, PolicyState before, long reads, ComponentSet current, TableRecord flush,
            Function<ComponentSet, TreeView> view, LongSupplier newFileNumber, long maxMergeBytes) {
        ComponentSet set = ComponentPreview.apply(current, List.of(flush), List.of());
        PolicyState state = policy.onFlush(before, view.apply(set), reads);
        Plan cascade = cascade(policy, state, set, flush, view, newFileNumber, maxMergeBytes);
        return cascade != null ? cascade
                : new Plan(List.of(new PlannedTable(0, List.of(), true, List.of())), state);
    }

    /**
     * Plans the merge thread's merges on {@code current} the same way: the policy is asked until it asks for
     * nothing, each answer applied to a preview, and each table that survives the cascade is one merge of the real
     * tables it replaces, so that a table created and merged away in the cascade is never written. Empty if the
     * policy asks for nothing.
     *
     * @throws UnsupportedOperationException as {@link #plan}
     * @throws IllegalStateException         as {@link #plan}
     */
    static Plan merges(MergePolicy policy, PolicyState state, ComponentSet current,
            Function<ComponentSet, TreeView> view, LongSupplier newFileNumber) {
        return cascade(policy, state, current, null, view, newFileNumber, Long.MAX_VALUE);
    }

    /**
     * The cascade of decisions on {@code set} ({@code flush}, if not null, its newest table), folded into the
     * tables that survive it; null if a decision asks for a merge that reads more than {@code maxMergeBytes}.
     */
    private static Plan cascade(MergePolicy policy, PolicyState state, ComponentSet set, TableRecord flush,
            Function<ComponentSet, TreeView> view, LongSupplier newFileNumber, long maxMergeBytes) {
        long flushId = flush == null ? -1 : flush.fileNumber();
        Map<Long, List<Long>> origins = new HashMap<>();
        Map<Long, List<String>> reasons = new HashMap<>();
        if (flush != null) {
            origins.put(flushId, List.of(flushId));
        }
        for (int jobs = 0; ; jobs++) {
            if (jobs > MAX_JOBS) {
                throw new IllegalStateException("policy " + policy.name() + " asked for more than " + MAX_JOBS
                        + " merges" + (flush == null ? " in one consultation" : " after flush "
                        + flush.maxFlushIndex()));
            }
            Decision d = policy.decide(view.apply(set), state);
            if (d.jobs().isEmpty()) {
                state = d.state();
                break;
            }
            if (readsMore(d, set, maxMergeBytes)) {
                return null;
            }
            state = d.state();
            for (MergeJob job : d.jobs()) {
                if (job.kind() != MergeKind.REAL || job.outputLevel() != 0
                        || !(job.cut() instanceof OutputCut.SingleFile)) {
                    throw new UnsupportedOperationException("merge orders MERGE_MEMTABLE and MERGE_MEMTABLE_SMALL "
                            + "plan stack merges only (real merges into one level-0 table); policy " + policy.name()
                            + " asked for a " + job.kind() + " into level " + job.outputLevel() + " cut "
                            + job.cut() + ": use FLUSH_THEN_MERGE with it");
                }
                List<TableRecord> inputs = new ArrayList<>();
                List<Long> from = new ArrayList<>();
                List<String> why = new ArrayList<>();
                for (SSTableInfo info : job.inputs()) {
                    if (info.compacting()) { // a merge task runs on it
                        throw new IllegalStateException("policy " + policy.name() + " asked to merge SSTable "
                                + info.id() + ", which is already being merged");
                    }
                    inputs.add(set.table(info.id()).orElseThrow());
                    List<Long> o = origins.remove(info.id());
                    from.addAll(o != null ? o : List.of(info.id()));
                    why.addAll(reasons.getOrDefault(info.id(), List.of()));
                    reasons.remove(info.id());
                }
                why.add(job.reason());
                TableRecord merged = ComponentPreview.combine(newFileNumber.getAsLong(), job.outputLevel(), inputs);
                origins.put(merged.fileNumber(), from);
                reasons.put(merged.fileNumber(), why);
                set = ComponentPreview.apply(set, List.of(merged), inputs.stream().map(TableRecord::fileNumber)
                        .toList());
            }
        }
        List<PlannedTable> tables = new ArrayList<>();
        for (Map.Entry<Long, List<Long>> e : origins.entrySet()) {
            List<Long> real = e.getValue().stream().filter(id -> id != flushId).toList();
            tables.add(new PlannedTable(set.table(e.getKey()).orElseThrow().level(), real,
                    e.getValue().contains(flushId), reasons.getOrDefault(e.getKey(), List.of())));
        }
        tables.sort(Comparator.comparing(PlannedTable::withMemTable));
        return new Plan(tables, state);
    }

    /** Whether a job of {@code d} reads more than {@code max} bytes of {@code set} (planned tables at estimates). */
    private static boolean readsMore(Decision d, ComponentSet set, long max) {
        for (MergeJob job : d.jobs()) {
            long bytes = 0;
            for (SSTableInfo info : job.inputs()) {
                bytes += set.table(info.id()).map(TableRecord::fileBytes).orElse(0L);
            }
            if (bytes > max) {
                return true;
            }
        }
        return false;
    }
}
