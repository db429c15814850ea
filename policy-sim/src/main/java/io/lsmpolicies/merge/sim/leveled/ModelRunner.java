package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.policy.leveled.DelayedPolicy;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.function.BiConsumer;

/**
 * Drives a {@link MergePolicy} over a {@link FlushSequence} in the key-level model, through the protocol the
 * engine follows: after each flush, {@code onFlush} once, then {@code decide} until it returns no job, every job
 * returned being applied (in order) before asking again. Compactions take no time: the policy never sees a file
 * marked compacting and {@code isMergeLagging} is never consulted. After every job the tree's layout is checked
 * ({@link ModelTree#checkInvariants}), and so is the placement of the job's outputs: no reader may meet an older
 * version of a key before a newer one ({@link ModelTree#checkReadOrder}).
 * Deterministic: the same policy and flushes give the same result.
 */
public final class ModelRunner {
    /** Bound on jobs after one flush, so that a policy that never settles is reported instead of looping. */
    static final int MAX_JOBS_PER_FLUSH = 100_000;

    private ModelRunner() {
    }

    /**
     * Refuses, before any flush, a policy that asks for virtual merges, which the model cannot run
     * ({@link ModelTree#apply} refuses them job by job): {@code delayed} with {@code vct > 0}. With {@code vct = 0}
     * it is exactly its wrapped policy, and runs.
     *
     * @param policy the policy
     * @param label  its label, for the message
     * @throws IllegalArgumentException naming the policy and what to do instead
     */
    public static void requireRealMerges(MergePolicy policy, String label) {
        if (policy instanceof DelayedPolicy d && d.vct() > 0) {
            throw new IllegalArgumentException("policy " + label + " (" + policy.name() + ", vct=" + d.vct()
                    + ") asks for virtual merges (delayed compaction), which the key-level model cannot run: run it "
                    + "in the engine (lsm-core), or give vct=0");
        }
    }

    /**
     * Runs {@code policy} over {@code flushes} with entries of {@code entryBytes} bytes.
     *
     * @param policy     the policy
     * @param label      its label, for the result
     * @param flushes    the flushes
     * @param entryBytes bytes per entry
     * @return the result
     */
    public static ModelResult run(MergePolicy policy, String label, FlushSequence flushes, long entryBytes) {
        return run(policy, label, flushes, new ModelTree(entryBytes), null);
    }

    /**
     * Runs {@code policy} on {@code tree}, which is left in its final state, calling {@code listener} (if not null)
     * with each job and its outcome, after applying it.
     *
     * @param tree an empty tree
     * @param policy   the policy
     * @param label    its label, for the result
     * @param flushes  the flushes
     * @param listener told of each job and its outcome, or null
     * @return the result
     * @throws IllegalArgumentException if {@code tree} is not empty, or the policy asks for virtual merges
     *                                  ({@link #requireRealMerges})
     * @throws IllegalStateException naming the policy and flush if a job cannot run or the policy never settles
     */
    public static ModelResult run(MergePolicy policy, String label, FlushSequence flushes, ModelTree tree,
            BiConsumer<MergeJob, JobOutcome> listener) {
        if (tree.levelCount() > 1 || !tree.level(0).isEmpty()) {
            throw new IllegalArgumentException("the model runs on an empty tree");
        }
        requireRealMerges(policy, label);
        long entryBytes = tree.entryBytes();
        PolicyState state = policy.initialState();
        long flushBytes = 0;
        long written = 0;
        long read = 0;
        long compactions = 0;
        long moves = 0;
        for (FlushSequence.Flush flush : flushes.flushes()) {
            flushBytes += tree.flush(flush).info().bytes();
            TreeView view = tree.view();
            state = policy.onFlush(state, view);
            int jobs = 0;
            while (true) {
                Decision d = policy.decide(view, state);
                state = d.state();
                if (d.jobs().isEmpty()) {
                    break;
                }
                for (MergeJob job : d.jobs()) {
                    if (++jobs > MAX_JOBS_PER_FLUSH) {
                        throw new IllegalStateException("policy " + label + " asked for more than "
                                + MAX_JOBS_PER_FLUSH + " jobs after flush " + flush.index());
                    }
                    JobOutcome outcome;
                    try {
                        outcome = tree.apply(job);
                        tree.checkInvariants();
                        try {
                            tree.checkReadOrder(outcome.outputs());
                        } catch (IllegalStateException e) {
                            throw new IllegalStateException("merge job (" + job.reason() + ") breaks the read order: "
                                    + e.getMessage(), e);
                        }
                    } catch (IllegalStateException e) {
                        throw new IllegalStateException("policy " + label + ", after flush " + flush.index() + ": "
                                + e.getMessage(), e);
                    }
                    if (outcome.kind() == MergeKind.TRIVIAL_MOVE) {
                        moves++;
                    } else {
                        compactions++;
                        written += outcome.bytesWritten();
                        read += outcome.bytesRead();
                    }
                    if (listener != null) {
                        listener.accept(job, outcome);
                    }
                }
                view = tree.view();
            }
        }
        long finalBytes = 0;
        for (int n = 0; n < tree.levelCount(); n++) {
            finalBytes += tree.levelBytes(n);
        }
        return new ModelResult(label, flushes.workload().description(), flushes.operations() * entryBytes,
                flushes.size(), flushBytes, written, read, compactions, moves, tree.levelCount(), finalBytes);
    }
}
