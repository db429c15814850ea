package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.PolicyViews;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * Decides which merges start now, a pure function of the component set, the policy, its state and what is
 * already running: the policy is consulted until it asks for nothing, each decision's jobs marking their inputs
 * compacting for the next consultation. A decision with a job whose output range in a level >= 1 overlaps a
 * running (or just planned) job's output range in that level is set aside whole, its state too: it is asked
 * again when a merge finishes.
 */
final class MergePlanner {
    private MergePlanner() {
    }

    /**
     * What one consultation starts.
     *
     * @param jobs     the jobs to start, in order
     * @param state    the policy's state after them
     * @param deferred whether a decision was set aside because it would overlap a running merge's output
     */
    record Consultation(List<MergeJob> jobs, PolicyState state, boolean deferred) {
        Consultation {
            jobs = List.copyOf(jobs);
        }
    }

    /**
     * Plans the merges to start on {@code set}.
     *
     * @param compacting the tables running merges read
     * @param running    the output ranges of running merges into levels >= 1
     * @param lastAccess each table's last read (what a "coldest" picker compares)
     * @throws IllegalStateException if the policy asks to merge a table that is not live or already merging, or
     *                               asks for more than {@link FlushPlanner#MAX_JOBS} merges
     */
    static Consultation plan(MergePolicy policy, ComponentSet set, PolicyState state, Set<Long> compacting,
            List<OutputRange> running, ToLongFunction<TableRecord> lastAccess) {
        Set<Long> busy = new HashSet<>(compacting);
        List<OutputRange> ranges = new ArrayList<>(running);
        List<MergeJob> start = new ArrayList<>();
        for (int i = 0; i < FlushPlanner.MAX_JOBS; i++) {
            Decision d = policy.decide(PolicyViews.of(set, busy, lastAccess), state);
            if (d.jobs().isEmpty()) {
                return new Consultation(start, d.state(), false);
            }
            for (MergeJob job : d.jobs()) {
                OutputRange range = OutputRange.of(job);
                if (ranges.stream().anyMatch(range::conflictsWith)) {
                    return new Consultation(start, state, true);
                }
            }
            state = d.state();
            for (MergeJob job : d.jobs()) {
                checkInputs(policy, job, id -> set.table(id).isPresent(), busy);
                job.inputs().forEach(t -> busy.add(t.id()));
                if (job.outputLevel() > 0) {
                    ranges.add(OutputRange.of(job));
                }
                start.add(job);
            }
        }
        throw new IllegalStateException("policy " + policy.name() + " asked for more than " + FlushPlanner.MAX_JOBS
                + " merges in one consultation");
    }

    /**
     * Plans the merges to start on {@code set} under a merging order ({@link MergeOrder#MERGE_MEMTABLE},
     * {@link MergeOrder#MERGE_MEMTABLE_SMALL}): the policy's cascade of stack merges folded by
     * {@link FlushPlanner#merges}, so that each table that survives the cascade is one job over the real tables it
     * replaces and a table the cascade creates and merges away again is never written.
     *
     * @param compacting    the tables running merges read
     * @param lastAccess    each table's last read
     * @param newFileNumber numbers for the tables the cascade would create (previews only)
     * @throws IllegalStateException         as {@link FlushPlanner#merges}: the policy asks to merge a table already
     *                                       merging, or for more than {@link FlushPlanner#MAX_JOBS} merges
     * @throws UnsupportedOperationException if it asks for anything but real merges into one level-0 table
     */
    static Consultation planFolded(MergePolicy policy, ComponentSet set, PolicyState state, Set<Long> compacting,
            ToLongFunction<TableRecord> lastAccess, LongSupplier newFileNumber) {
        FlushPlanner.Plan plan = FlushPlanner.merges(policy, state, set,
                s -> PolicyViews.of(s, compacting, lastAccess), newFileNumber);
        if (plan.tables().isEmpty()) { // after most flushes: no view of the set is built for nothing
            return new Consultation(List.of(), plan.state(), false);
        }
        // the cascade refused busy inputs; MergeScheduler.start checks them again as it marks them
        List<SSTableInfo> live = PolicyViews.of(set, compacting, lastAccess).levels().stream()
                .flatMap(l -> l.runs().stream()).flatMap(r -> r.tables().stream()).toList();
        List<MergeJob> start = new ArrayList<>();
        for (FlushPlanner.PlannedTable t : plan.tables()) {
            Set<Long> ids = Set.copyOf(t.realInputs());
            // inputs in the view's order (newest first), as the policy's own stack merges list them
            start.add(new MergeJob(live.stream().filter(i -> ids.contains(i.id())).toList(), t.level(),
                    OutputCut.SINGLE_FILE, MergeKind.REAL, String.join("; ", t.reasons())));
        }
        return new Consultation(start, plan.state(), false);
    }

    /**
     * @throws IllegalStateException if an input of {@code job} is not live or already being merged ({@code busy})
     */
    static void checkInputs(MergePolicy policy, MergeJob job, LongPredicate live, Set<Long> busy) {
        for (SSTableInfo t : job.inputs()) {
            boolean isLive = live.test(t.id());
            if (!isLive || busy.contains(t.id())) {
                throw new IllegalStateException("policy " + policy.name() + " asked to merge SSTable " + t.id()
                        + ", which is " + (isLive ? "already being merged" : "not live"));
            }
        }
    }
}
