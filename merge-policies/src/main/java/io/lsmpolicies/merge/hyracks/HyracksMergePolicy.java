package io.lsmpolicies.merge.hyracks;

import io.lsmpolicies.merge.policy.FlushCount;
import io.lsmpolicies.merge.policy.NoState;
import io.lsmpolicies.merge.policy.ReadLedger;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import java.util.List;
import java.util.Map;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.common.impls.NoOpIndexAccessParameters;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;

/**
 * One of our stack policies running inside a Hyracks 0.3.8 LSM index: Hyracks tells it about every new disk
 * component, it asks our policy (a pure function of a {@link DiskComponentView}) and schedules the one merge
 * the policy chose through {@code ILSMIndexAccessor.scheduleMerge}. The decision is entirely our policy's;
 * this class only translates between Hyracks' components and our view, and executes.
 *
 * <p>Contract, as Hyracks' {@code LSMHarness} drives an {@link ILSMMergePolicy}:
 * <ul>
 *   <li>{@link #diskComponentAdded} (after every flush, merge and bulk load; REQUIRES: called with the
 *       index's operation-tracker lock held, as Hyracks does): if Hyracks asks for a full merge and no
 *       component is busy, schedules it (Hyracks' own policies do the same); otherwise asks our policy once
 *       and schedules its first merge job, if any. A cascade continues when Hyracks reports that merge's
 *       output; with several jobs (no stack policy returns more than one) only the first is scheduled and the
 *       rest are decided again then.</li>
 *   <li>{@link #isMergeLagging} (called when a flush has written its component but before Hyracks adds it to
 *       {@code getDiskComponents()}; a {@code true} makes the flush wait until a merge finishes): our policy's
 *       {@code isMergeLagging} on the current components, which keeps a bounded-depth policy's bound (at most
 *       k components once a flush's merges are done; Mao et al., VLDB Journal 2021, Sect. 2-3) even when
 *       merges run in the background. When our policy lags but no merge is running (after a restart,
 *       or when a component was busy as the flush arrived), this schedules the merge the policy wants first,
 *       as Hyracks' {@code PrefixMergePolicy} does, since nothing else would ever wake the flush; if the
 *       policy then wants nothing, it answers {@code false} rather than block the flush for ever.</li>
 * </ul>
 *
 * <p>State: a policy that counts flushes (state {@link FlushCount}: Binomial, MinLatency, Exploring; the t of
 * "in response to flush t" in Mao et al.'s definitions) gets {@code flushes} from the components' flush
 * sequence numbers ({@link DiskComponentView#flushes()}), so it
 * survives restarts and stays right when components are bulk-loaded or merged by someone else; no counter is
 * kept in memory. Exploring's "decided for this flush" mark ({@link FlushCount#decided()}) is the only thing
 * held in memory: after a restart it starts at 0, which only means the first flush after the restart is
 * decided, as it would have been anyway. A policy that weighs reads (state {@link ReadLedger}: {@code adaptive})
 * is told the reads served since the previous flush, counted by {@link #recordReads} (which
 * {@link ReadCountingOperationTracker} calls once per search the index runs: every point search and every scan),
 * when Hyracks reports a component whose flush count ({@link DiskComponentView#flushes()}) is new; its ledger is
 * kept in memory, keyed by each component's flush interval (stable while positions shift), and starts empty after a
 * restart (Hyracks' components have no place for it: the reads before a restart are forgotten, and every component
 * found then starts with no rent). Other policies keep no state ({@link NoState}).
 */
public final class HyracksMergePolicy implements ILSMMergePolicy {
    private final AsterixParameters parameters;
    private volatile MergePolicy policy;
    private final AtomicLong decidedThrough = new AtomicLong();
    private final LongAdder readsSinceFlush = new LongAdder();
    /** A read-weighing policy's ledger, its entries' components (flush intervals), and the flushes it has seen. */
    private ReadLedger ledger;
    private Interval[] ledgerKeys = new Interval[0];
    private Interval ledgerFreshKey;
    private long ledgerFlushes;

    /** A component's flush interval: live components' intervals are disjoint, so it names one while it lives. */
    private record Interval(long first, long last) {
        static Interval of(SSTableInfo t) {
            return new Interval(t.minFlushIndex(), t.maxFlushIndex());
        }
    }

    /**
     * Our policy {@code parameters.policy()}, configured from AsterixDB's {@code properties}.
     *
     * @param parameters the policy and its AsterixDB parameter names
     * @param properties AsterixDB's merge-policy properties, by AsterixDB name
     * @throws io.lsmpolicies.merge.spi.PolicyConfigurationException naming the AsterixDB parameter at fault
     * @throws IllegalArgumentException if the policy keeps a state Hyracks cannot supply
     */
    public HyracksMergePolicy(AsterixParameters parameters, Map<String, String> properties) {
        this.parameters = parameters;
        configure(properties);
    }

    /**
     * {@code policy}, configured already: for a platform that builds the policy itself rather than from AsterixDB's
     * DDL names (a policy whose parameters have no AsterixDB name, such as {@code adaptive}'s {@code read-cost}).
     * {@link #configure} then refuses to reconfigure it.
     *
     * @param policy a stack policy
     * @throws IllegalArgumentException if the policy keeps a state Hyracks cannot supply
     */
    public HyracksMergePolicy(MergePolicy policy) {
        this.parameters = null;
        check(policy);
        this.policy = policy;
    }

    /**
     * Replaces the policy with one configured from {@code properties} (AsterixDB names). Hyracks' own factories
     * call this right after construction; ours configure in the constructor, so calling it again only
     * reconfigures.
     */
    @Override
    public void configure(Map<String, String> properties) {
        if (parameters == null) {
            if (properties != null && !properties.isEmpty()) {
                throw new IllegalArgumentException("policy '" + policy.name() + "' was built configured; it takes no"
                        + " AsterixDB parameters, got " + properties.keySet());
            }
            return;
        }
        MergePolicy created = parameters.create(properties);
        check(created);
        policy = created;
    }

    private static void check(MergePolicy created) {
        PolicyState initial = created.initialState();
        if (!(initial instanceof FlushCount) && initial != NoState.INSTANCE && !(initial instanceof ReadLedger)) {
            throw new IllegalArgumentException("policy '" + created.name() + "' keeps state " + initial
                    + ", which Hyracks' components cannot supply");
        }
    }

    /**
     * Counts {@code reads} searches (point searches or scans) the index served; the next flush's decision is told
     * their number. Thread-safe; cheap enough for every search.
     *
     * @param reads the searches served, {@code >= 0}
     * @throws IllegalArgumentException if {@code reads < 0}
     */
    public void recordReads(long reads) {
        if (reads < 0) {
            throw new IllegalArgumentException("read count must be >= 0, was " + reads);
        }
        readsSinceFlush.add(reads);
    }

    /**
     * Tells the policy of the reads counted since the last flush while no flush has come
     * ({@link MergePolicy#onReads}: a phase that only reads adds no component, so Hyracks would not consult the
     * policy), and if its state changes, takes those reads (the next flush is told only of later ones) and
     * schedules the merge it then wants. What {@link ReadCountingOperationTracker} calls every
     * {@value ReadCountingOperationTracker#READS_PER_QUESTION} searches. REQUIRES: called with the index's
     * operation-tracker lock held, as Hyracks calls {@link #diskComponentAdded}.
     *
     * @param index the index whose searches were counted
     * @throws HyracksDataException if scheduling the merge fails
     */
    public void readsBetweenFlushes(ILSMIndex index) throws HyracksDataException {
        MergePolicy p = policy;
        DiskComponentView view = DiskComponentView.of(index.getDiskComponents());
        synchronized (this) {
            PolicyState state = stateFor(p, view); // first: a flush not yet accounted for takes its reads here
            long reads = readsSinceFlush.sum();
            if (reads < 1) {
                return;
            }
            PolicyState next = p.onReads(state, view.treeView(), reads);
            if (next == state) {
                return;
            }
            readsSinceFlush.add(-reads);
            if (next instanceof ReadLedger l) {
                keep(l, view);
            }
        }
        if (!view.treeView().anyCompacting()) {
            scheduleDecision(index, view);
        }
    }

    /** {@return the reads counted since the last flush a decision was told of} */
    public long readsSinceFlush() {
        return readsSinceFlush.sum();
    }

    /** {@return the policy decisions are delegated to} */
    public MergePolicy policy() {
        return policy;
    }

    @Override
    public void diskComponentAdded(ILSMIndex index, boolean fullMergeIsRequested) throws HyracksDataException {
        DiskComponentView view = DiskComponentView.of(index.getDiskComponents());
        if (fullMergeIsRequested) {
            if (!view.treeView().anyCompacting()) {
                index.createAccessor(NoOpIndexAccessParameters.INSTANCE).scheduleFullMerge();
            }
            return;
        }
        scheduleDecision(index, view);
    }

    @Override
    public boolean isMergeLagging(ILSMIndex index) throws HyracksDataException {
        DiskComponentView view = DiskComponentView.of(index.getDiskComponents());
        if (!lagging(view)) {
            return false;
        }
        if (view.anyMerging()) {
            return true; // Hyracks wakes the waiting flush when that merge is installed, and asks again
        }
        if (!scheduleDecision(index, view)) {
            return false;
        }
        // A background scheduler has now marked the inputs merging: lagging until Hyracks installs the output.
        // A synchronous one has run the merge, and Hyracks' diskComponentAdded after it every merge the policy
        // wanted next; what the policy still lags on, nothing would ever merge.
        DiskComponentView after = DiskComponentView.of(index.getDiskComponents());
        return after.anyMerging() && lagging(after);
    }

    private boolean lagging(DiskComponentView view) {
        MergePolicy p = policy;
        synchronized (this) {
            return p.isMergeLagging(view.treeView(), stateFor(p, view));
        }
    }

    /** Asks the policy once and schedules its first job; whether a merge was scheduled. */
    private boolean scheduleDecision(ILSMIndex index, DiskComponentView view) throws HyracksDataException {
        MergePolicy p = policy;
        Decision decision;
        synchronized (this) {
            decision = p.decide(view.treeView(), stateFor(p, view));
            if (decision.state() instanceof ReadLedger l) {
                keep(l, view);
            }
        }
        if (decision.state() instanceof FlushCount count) {
            decidedThrough.set(count.decided());
        }
        if (decision.jobs().isEmpty()) {
            return false;
        }
        List<ILSMDiskComponent> inputs = view.inputsOf(decision.jobs().get(0), p.name());
        index.createAccessor(NoOpIndexAccessParameters.INSTANCE).scheduleMerge(inputs);
        return true;
    }

    /** The policy's state for {@code view}: flushes from the components, the in-memory "decided" mark. */
    private PolicyState stateFor(MergePolicy p, DiskComponentView view) {
        PolicyState initial = p.initialState();
        if (initial instanceof FlushCount) {
            long flushes = view.flushes();
            return new FlushCount(flushes, Math.min(decidedThrough.get(), flushes));
        }
        if (initial instanceof ReadLedger empty) {
            return ledgerFor(p, empty, view);
        }
        return initial;
    }

    /**
     * The ledger for {@code view}: the kept one with its entries moved to the components' current positions (the
     * view's ids), and, if a flush was installed since, after the policy's {@code onFlush} with the reads counted
     * since. REQUIRES: holding this object's lock.
     */
    private PolicyState ledgerFor(MergePolicy p, ReadLedger empty, DiskComponentView view) {
        List<SortedRun> stack = view.treeView().level0Runs();
        Map<Interval, Long> positionOf = new HashMap<>();
        for (SortedRun run : stack) {
            positionOf.put(Interval.of(run.first()), run.first().id());
        }
        PolicyState state = empty;
        if (ledger != null) {
            long[] marks = ledger.marks();
            long[] ids = new long[marks.length];
            for (int i = 0; i < ids.length; i++) {
                // A component gone gets an id no component has (negative), so the policy drops its entry.
                ids[i] = positionOf.getOrDefault(ledgerKeys[i], -1L - i);
            }
            long fresh = ledgerFreshKey == null ? -1 : positionOf.getOrDefault(ledgerFreshKey, -1L - ids.length);
            state = ledger.withIds(ids, fresh);
        }
        if (view.flushes() > ledgerFlushes) {
            state = p.onFlush(state, view.treeView(), readsSinceFlush.sumThenReset());
            ledgerFlushes = view.flushes();
            if (state instanceof ReadLedger l) {
                keep(l, view);
            }
        }
        return state;
    }

    /** Keeps {@code l}, whose ids are positions in {@code view}, with each entry's flush interval. */
    private void keep(ReadLedger l, DiskComponentView view) {
        List<SortedRun> stack = view.treeView().level0Runs();
        long[] ids = l.ids();
        Interval[] keys = new Interval[ids.length];
        for (int i = 0; i < ids.length; i++) {
            keys[i] = Interval.of(stack.get((int) ids[i]).first());
        }
        Interval freshKey = null;
        if (l.freshFlush() >= 0 && l.freshFlush() < stack.size()) {
            freshKey = Interval.of(stack.get((int) l.freshFlush()).first());
        }
        ledger = l;
        ledgerKeys = keys;
        ledgerFreshKey = freshKey;
    }

    @Override
    public String toString() {
        return "HyracksMergePolicy(" + policy + ")";
    }
}
