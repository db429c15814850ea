package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.events.StoreEvent;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.PolicyViews;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Owns the merge policy's state and what runs: which tables are being merged, the output ranges of running merges,
 * the merge pool. It consults the policy after every flush and every finished merge ({@link MergePlanner} decides,
 * {@link MergeTask} runs), offers the virtual tables a read meets for materialising, holds flushes while the policy
 * says merging lags, and runs the manual full compaction. Methods marked REQUIRES run under the mutex.
 */
final class MergeScheduler {
    private final StoreContext ctx;
    private final MergePolicy policy;
    private final ExecutorService pool;

    // Guarded by the mutex.
    private PolicyState state;
    private final Set<Long> compacting = new HashSet<>();
    private final List<OutputRange> running = new ArrayList<>();
    private int runningMerges;
    private boolean manualCompaction;
    private boolean closing;

    /** Virtual tables a read has asked the policy about (see {@link #considerMaterializing}). */
    private final Set<Long> virtualReadsAsked = ConcurrentHashMap.newKeySet();
    /** Read-triggered questions queued on the merge pool, not yet asked: {@link #awaitIdle} waits for them. */
    private final AtomicInteger pendingReadQuestions = new AtomicInteger();
    /** Whether a question about reads between flushes ({@link #considerReads}) is queued. */
    private final AtomicBoolean readsQuestionQueued = new AtomicBoolean();

    MergeScheduler(StoreContext ctx, ExecutorService pool, PolicyState initial) {
        this.ctx = ctx;
        this.policy = ctx.policy();
        this.pool = pool;
        this.state = initial;
    }

    /** The policy's state. REQUIRES: the mutex. */
    PolicyState state() {
        assert ctx.mutex().held();
        return state;
    }

    /** REQUIRES: the mutex. */
    void setState(PolicyState next) {
        assert ctx.mutex().held();
        state = next;
    }

    /**
     * The policy's view of {@code set}: running merges' inputs marked compacting, each table's last access its
     * last read (its creation time if never read). REQUIRES: the mutex.
     */
    TreeView view(ComponentSet set) {
        assert ctx.mutex().held();
        return PolicyViews.of(set, compacting, this::lastAccess);
    }

    private long lastAccess(TableRecord t) {
        TableHandle h = ctx.tables().get(t.fileNumber());
        return h != null ? h.lastAccessMillis() : t.createdMillis();
    }

    /** Marks tables a merging flush (MERGE_MEMTABLE, _SMALL) merges as busy, or frees them. REQUIRES: mutex. */
    void markCompacting(Set<Long> numbers, boolean busy) {
        assert ctx.mutex().held();
        if (busy) {
            compacting.addAll(numbers);
        } else {
            compacting.removeAll(numbers);
        }
    }

    private boolean stopped() {
        return closing || manualCompaction || ctx.run().failed();
    }

    /** Consults the policy until it asks for nothing and starts what it asks for. REQUIRES: the mutex. */
    void schedule() {
        assert ctx.mutex().held();
        if (stopped()) {
            return;
        }
        MergePlanner.Consultation c;
        try {
            c = ctx.options().mergeOrder() == MergeOrder.FLUSH_THEN_MERGE
                    ? MergePlanner.plan(policy, ctx.manifest().current(), state, compacting, running, this::lastAccess)
                    : MergePlanner.planFolded(policy, ctx.manifest().current(), state, compacting, this::lastAccess,
                            ctx.manifest()::newFileNumber);
        } catch (IllegalStateException | UnsupportedOperationException e) {
            ctx.run().fail(e);
            return;
        }
        state = c.state();
        c.jobs().forEach(this::start);
    }

    /** Marks the job's inputs and hands it to the merge pool. REQUIRES: the mutex. */
    private void start(MergeJob job) {
        MergePlanner.checkInputs(policy, job, ctx.tables()::contains, compacting);
        job.inputs().forEach(t -> compacting.add(t.id()));
        if (job.outputLevel() > 0) {
            running.add(OutputRange.of(job));
        }
        runningMerges++;
        pool.execute(() -> runAndFinish(job));
    }

    private void runAndFinish(MergeJob job) {
        try {
            new MergeTask(ctx, job, this::state, virtualReadsAsked::remove).run();
        } finally {
            ctx.mutex().lock();
            try {
                job.inputs().forEach(t -> compacting.remove(t.id()));
                running.removeIf(r -> r.job() == job);
                runningMerges--;
                ctx.mutex().signalAll();
                schedule();
            } catch (Throwable e) {
                ctx.run().fail(e);
            } finally {
                ctx.mutex().unlock();
            }
        }
    }

    /**
     * Waits (measured) while the policy says merging lags, starting merges if none runs; returns at once if
     * nothing runs that could end the lag. REQUIRES: the mutex.
     */
    void awaitMergeLag() {
        assert ctx.mutex().held();
        long start = 0;
        while (!ctx.run().failed() && policy.isMergeLagging(view(ctx.manifest().current()), state)) {
            if (runningMerges == 0) {
                schedule();
                if (runningMerges == 0) {
                    break; // nothing runs that could end the lag: waiting would never end
                }
            }
            if (start == 0) {
                start = System.nanoTime();
            }
            ctx.mutex().await();
        }
        if (start != 0) {
            ctx.stats().mergeLagged(System.nanoTime() - start);
            ctx.events().emit(new StoreEvent.MergeLag(StoreEvents.now(), StoreEvents.microsSince(start)));
        }
    }

    /** Waits until no merge runs and no read-triggered question waits, or a failure stops the store. */
    void awaitIdle() {
        ctx.mutex().lock();
        try {
            while ((runningMerges > 0 || pendingReadQuestions.get() > 0) && !ctx.run().failed()) {
                ctx.mutex().await();
            }
        } finally {
            ctx.mutex().unlock();
        }
    }

    /**
     * Waits for running merges, then merges every SSTable into one at the deepest level in use (no policy merge
     * starts meanwhile). The caller has flushed.
     */
    void compactAll() throws IOException {
        ctx.mutex().lock();
        try {
            manualCompaction = true;
        } finally {
            ctx.mutex().unlock();
        }
        try {
            MergeJob job = claimEverything();
            if (job != null) {
                runAndFinish(job);
            }
        } finally {
            ctx.mutex().lock();
            try {
                manualCompaction = false;
                schedule();
            } finally {
                ctx.mutex().unlock();
            }
        }
    }

    /** Waits for running merges, then marks every table as the manual job's input; null if nothing to do. */
    private MergeJob claimEverything() throws IOException {
        ctx.mutex().lock();
        try {
            while (runningMerges > 0 && !ctx.run().failed()) {
                ctx.mutex().await();
            }
            ctx.run().rethrowFailure();
            ComponentSet set = ctx.manifest().current();
            List<SSTableInfo> all = new ArrayList<>();
            view(set).levels().forEach(l -> l.runs().forEach(r -> all.addAll(r.tables())));
            if (all.size() < 2 && (all.isEmpty() || (all.get(0).tombstones() == 0 && !all.get(0).virtual()))) {
                return null;
            }
            MergeJob job = new MergeJob(all, set.levels().size() - 1, OutputCut.SINGLE_FILE, MergeKind.REAL,
                    "compactAll");
            all.forEach(t -> compacting.add(t.id()));
            runningMerges++;
            return job;
        } finally {
            ctx.mutex().unlock();
        }
    }

    /**
     * A read met the virtual tables {@code met}, in the order of its path (shallowest first): asks the policy,
     * on a merge thread, about each one not asked before, in that order, and starts the first job it gets
     * (delayed compaction's VSMT, Pan et al., JCST 2017, Sect. 3.4 and Algorithm 2: the first virtual SSTable on
     * the read's path <i>that meets the conditions</i> is materialised, so one below the threshold does not hide
     * a deeper one above it). A table the policy declined is not asked again (its parents never change); one
     * not reached because an earlier one got a job is asked by a later read. Never blocks the read.
     */
    void considerMaterializing(List<TableHandle> met) {
        if (ctx.run().readOnly()) {
            return;
        }
        List<Long> fresh = new ArrayList<>(met.size());
        for (TableHandle v : met) {
            if (virtualReadsAsked.add(v.fileNumber())) {
                fresh.add(v.fileNumber());
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        pendingReadQuestions.incrementAndGet();
        try {
            pool.execute(() -> materializeOnRead(fresh));
        } catch (RejectedExecutionException e) {
            virtualReadsAsked.removeAll(fresh); // closing
            pendingReadQuestions.decrementAndGet();
        }
    }

    /**
     * Tells the policy, on the merge pool, of the reads counted since the last flush
     * ({@link MergePolicy#onReads}); if its state changes, the reads are taken (the next flush is told only of later
     * ones) and the policy is consulted. One question queued at a time; never blocks the read that calls it.
     */
    void considerReads() {
        if (ctx.run().readOnly() || !readsQuestionQueued.compareAndSet(false, true)) {
            return;
        }
        pendingReadQuestions.incrementAndGet();
        try {
            pool.execute(this::tellReads);
        } catch (RejectedExecutionException e) { // closing
            readsQuestionQueued.set(false);
            pendingReadQuestions.decrementAndGet();
        }
    }

    private void tellReads() {
        ctx.mutex().lock();
        try {
            readsQuestionQueued.set(false);
            pendingReadQuestions.decrementAndGet(); // a job it starts counts as running from here
            ctx.mutex().signalAll();
            long reads = ctx.stats().readsSinceFlush();
            if (stopped() || reads < 1) {
                return;
            }
            PolicyState next = policy.onReads(state, view(ctx.manifest().current()), reads);
            if (next == state) {
                return;
            }
            ctx.stats().takeReads(reads);
            state = next;
            schedule();
        } catch (Throwable e) {
            ctx.run().fail(e);
        } finally {
            ctx.mutex().unlock();
        }
    }

    private void materializeOnRead(List<Long> numbers) {
        ctx.mutex().lock();
        try {
            pendingReadQuestions.decrementAndGet(); // a job it starts counts as running from here
            ctx.mutex().signalAll();
            if (stopped()) {
                virtualReadsAsked.removeAll(numbers);
                return;
            }
            TreeView view = view(ctx.manifest().current());
            for (int i = 0; i < numbers.size(); i++) {
                long number = numbers.get(i);
                Optional<MergeJob> job = askOnVirtualRead(view, number);
                if (job.isEmpty()) {
                    continue;
                }
                virtualReadsAsked.removeAll(numbers.subList(i + 1, numbers.size())); // not asked: a later read asks
                OutputRange range = OutputRange.of(job.get());
                if (running.stream().anyMatch(range::conflictsWith)) {
                    virtualReadsAsked.remove(number); // a later read asks again
                    return;
                }
                start(job.get());
                return;
            }
        } catch (Throwable e) {
            ctx.run().fail(e);
        } finally {
            ctx.mutex().unlock();
        }
    }

    /** The policy's materialising job for live, idle virtual table {@code number}, if any. REQUIRES: the mutex. */
    private Optional<MergeJob> askOnVirtualRead(TreeView view, long number) {
        if (!ctx.tables().contains(number) || compacting.contains(number)) {
            return Optional.empty();
        }
        for (var level : view.levels()) {
            for (var run : level.runs()) {
                for (SSTableInfo t : run.tables()) {
                    if (t.id() == number) {
                        return policy.onVirtualRead(view, state, t);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Starts no merge from now on and waits for the running ones to finish. */
    void close() {
        ctx.mutex().lock();
        try {
            closing = true;
            while (runningMerges > 0) {
                ctx.mutex().await();
            }
        } finally {
            ctx.mutex().unlock();
        }
    }
}
