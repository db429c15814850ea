package io.lsmpolicies.merge.spi;

import java.util.Optional;

/**
 * A merge policy: a pure function from an immutable {@link TreeView} (plus the policy's own small
 * {@link PolicyState}) to merge jobs. It never touches files, threads or locks.
 *
 * <p>Protocol, as the engine and the simulator drive it:
 * <ol>
 *   <li>After a flush has been installed (the flushed SSTable is the newest run of level 0), call
 *       {@link #onFlush(PolicyState, TreeView, long)} once with the new view and the number of reads served since
 *       the previous flush was installed (point reads and scans, each counted once; since the store opened for the
 *       first flush after an open; in the simulator r(t - 1), the reads of the previous step), and keep the state
 *       it returns. A caller that does not count reads calls {@link #onFlush(PolicyState, TreeView)}, which a
 *       policy that uses reads takes as no reads.</li>
 *   <li>Call {@link #decide}; schedule its jobs (marking their inputs {@code compacting}) and keep its state.
 *       Call {@link #decide} again, with the inputs of scheduled jobs marked, until it returns no job.</li>
 *   <li>After every finished merge has been installed, go back to step 2.</li>
 *   <li>Before installing the next flush, wait while {@link #isMergeLagging} is true.</li>
 * </ol>
 * Implementations are immutable and thread-safe; all variable state lives in {@link PolicyState}.
 */
public interface MergePolicy {

    /** {@return the policy's registered name, e.g. {@code binomial}} */
    String name();

    /** {@return the validated parameters this instance was created with} */
    PolicyParameters parameters();

    /** {@return the state of a tree that has seen no flush} */
    PolicyState initialState();

    /**
     * Reads a state written by {@link PolicyState#encode()} of this policy.
     *
     * @param encoded the bytes {@link PolicyState#encode()} wrote
     * @return the state
     * @throws IllegalArgumentException naming the policy if the bytes are not such a state
     */
    PolicyState decodeState(byte[] encoded);

    /**
     * Accounts for one flush. REQUIRES: {@code view} already holds the flushed SSTable as level 0's newest run.
     *
     * @param state the policy's state before it
     * @param view  the tree with the flushed SSTable as level 0's newest run
     * @return the state after the flush (the same state if the policy does not count flushes)
     */
    default PolicyState onFlush(PolicyState state, TreeView view) {
        return state;
    }

    /**
     * Accounts for one flush and the reads served since the previous flush. A policy that weighs reads against
     * merges (e.g. {@code adaptive}) overrides this; the default ignores {@code reads} and calls
     * {@link #onFlush(PolicyState, TreeView)}, so a policy that does not use reads behaves exactly as before.
     * REQUIRES: {@code view} already holds the flushed SSTable as level 0's newest run.
     *
     * @param state the policy's state before it
     * @param view  the tree with the flushed SSTable as level 0's newest run
     * @param reads the reads served since the previous flush was installed, {@code >= 0}: point reads and scans,
     *              each counted once (each probes, in the cost model, every SSTable present)
     * @return the state after the flush
     * @throws IllegalArgumentException if {@code reads < 0}
     */
    default PolicyState onFlush(PolicyState state, TreeView view, long reads) {
        if (reads < 0) {
            throw new IllegalArgumentException("policy '" + name() + "': the read count must be >= 0, was " + reads);
        }
        return onFlush(state, view);
    }

    /**
     * Accounts for reads served since the previous flush (or the previous call of this method) while no flush has
     * come: a caller that counts reads calls it when many have accumulated between flushes (a read-only phase
     * installs no flush, so {@link #onFlush(PolicyState, TreeView, long)} alone would tell the policy of them only
     * after they were served), and calls {@link #decide} next if the state changed. The reads passed here are not
     * passed again with the next flush. The default ignores them and returns {@code state} itself, which tells the
     * caller that nothing changed and that the reads stay counted for the next flush.
     *
     * @param state the policy's state
     * @param view  the tree as it is
     * @param reads the reads served since the previous flush or call, {@code >= 1}
     * @return the state after the reads; {@code state} itself if the policy does not weigh reads
     */
    default PolicyState onReads(PolicyState state, TreeView view, long reads) {
        return state;
    }

    /**
     * The merges to run now. Inputs of running merges are marked {@link SSTableInfo#compacting()} and are
     * never chosen again; a stack-based policy returns nothing while any merge runs.
     *
     * @param view  the tree as it is, with the inputs of running merges marked
     * @param state the policy's state
     * @return the jobs to schedule now (possibly none) and the state after scheduling them
     */
    Decision decide(TreeView view, PolicyState state);

    /**
     * Whether merging is behind: the writer must not install another flush until this turns false. This
     * is how a bounded-depth policy keeps its bound while merges run in the background.
     *
     * @param view  the tree as it is
     * @param state the policy's state
     * @return whether the next flush must wait
     */
    default boolean isMergeLagging(TreeView view, PolicyState state) {
        return false;
    }

    /**
     * A read met virtual SSTable {@code table} (delayed compaction, Pan et al., JCST 2017, Sect. 3.4 and
     * Algorithm 2): the merge that materialises it, if the policy wants one now. The engine asks about the virtual
     * SSTables a read meets in the order of its path (shallowest first) and runs the first job it gets, so the
     * first one that meets the policy's conditions is materialised; it asks at most once per virtual SSTable
     * that the policy declined, from a background thread, and runs the job like any other ({@code table} is then
     * among its inputs). The default, for policies that never write virtual SSTables: none.
     *
     * @param view  the tree as it is
     * @param state the policy's state
     * @param table a virtual SSTable of {@code view} that a read met
     * @return the merge that materialises {@code table}, or empty if the policy wants none now
     */
    default Optional<MergeJob> onVirtualRead(TreeView view, PolicyState state, SSTableInfo table) {
        return Optional.empty();
    }
}
