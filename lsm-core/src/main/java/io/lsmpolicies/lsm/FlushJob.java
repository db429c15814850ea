package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.events.StoreEvent;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.memtable.MemTable;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import io.lsmpolicies.lsm.sstable.SSTableWriter;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.OutputCutter;
import io.lsmpolicies.merge.spi.PolicyState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Flushes the oldest immutable MemTable and installs the result, one flush at a time (the flush thread, or the
 * opening thread during recovery). With {@link MergeOrder#FLUSH_THEN_MERGE} the MemTable becomes one level-0
 * SSTable and the policy is told, then the scheduler starts the merges it asks for. With
 * {@link MergeOrder#MERGE_MEMTABLE} the {@link FlushPlanner} plans the whole cascade first, and each table that
 * survives it is written once, straight from the MemTable and the old tables it covers. Either way the install
 * waits while the policy says merging lags, and then the MemTable leaves the read view as its tables enter it.
 */
final class FlushJob {
    private final StoreContext ctx;
    private final MergeScheduler scheduler;
    /** The number of the last flush installed (tables carry the flush numbers they hold). */
    private long flushCount;
    private volatile Consumer<FlushSample> listener;

    FlushJob(StoreContext ctx, MergeScheduler scheduler) {
        this.ctx = ctx;
        this.scheduler = scheduler;
    }

    /** Recovery found tables holding flushes up to {@code flushCount}. Before the first flush. */
    void recovered(long count) {
        flushCount = count;
    }

    /** See {@link LsmStore#onFlush}. */
    void onFlush(Consumer<FlushSample> l) {
        listener = l;
    }

    /** Waits until no immutable MemTable is left or a failure stops flushing. */
    void awaitDrained() {
        ctx.mutex().lock();
        try {
            while (!ctx.tables().view().immutables().isEmpty() && !ctx.run().failed()) {
                ctx.mutex().await();
            }
        } finally {
            ctx.mutex().unlock();
        }
    }

    /** Flushes the oldest immutable MemTable, if any, and installs the result. One call at a time. */
    void flushOldest() throws IOException {
        if (ctx.run().failed()) {
            return;
        }
        List<LiveMemTable> immutables = ctx.tables().view().immutables();
        if (immutables.isEmpty()) {
            return;
        }
        LiveMemTable m = immutables.get(immutables.size() - 1);
        long start = System.nanoTime();
        long flushIndex = flushCount + 1;
        switch (ctx.options().mergeOrder()) {
            case FLUSH_THEN_MERGE -> flushToTable(m, flushIndex, start);
            case MERGE_MEMTABLE -> flushByMerging(m, flushIndex, start, Long.MAX_VALUE);
            case MERGE_MEMTABLE_SMALL -> flushByMerging(m, flushIndex, start,
                    MergeOrder.SMALL_MERGE_MEMTABLES * ctx.options().memtableBytes());
        }
    }

    private static long oldestTombstone(LiveMemTable m) {
        return m.table().tombstones() > 0 ? m.createdMillis() : Long.MAX_VALUE;
    }

    /** {@link MergeOrder#FLUSH_THEN_MERGE}: one level-0 table, then the policy is told and merges start. */
    private void flushToTable(LiveMemTable m, long flushIndex, long start) throws IOException {
        List<TableRecord> out = ctx.builder().write(ctx.builder().flushEntries(m), ctx.builder().optionsFor(m),
                OutputCutter.of(OutputCut.SINGLE_FILE), 0, IoCause.FLUSH, flushIndex, flushIndex, oldestTombstone(m),
                true, m.table().size());
        ctx.syncDirectory();
        List<TableHandle> opened = ctx.tables().openNew(out);
        long nextWal;
        ctx.mutex().lock();
        try {
            boolean logged = false;
            ReadView rv;
            List<LiveMemTable> rest;
            try {
                scheduler.awaitMergeLag();
                rv = ctx.tables().view();
                rest = withoutOldest(rv);
                nextWal = nextWal(rv, rest);
                ComponentSet current = ctx.manifest().current();
                ComponentSet after = ComponentPreview.apply(current, out, List.of());
                PolicyState state = ctx.policy().onFlush(scheduler.state(), scheduler.view(after),
                        ctx.stats().takeReadsSinceFlush());
                ManifestEdit.Builder b = ManifestEdit.builder();
                out.forEach(b::addTable);
                b.lastSequence(Math.max(current.lastSequence(), m.table().maxSequence()))
                        .policy(ctx.policy().name(), state.encode());
                ctx.manifest().append(oldestLiveWal(b, Math.max(current.walNumber(), nextWal)).build());
                logged = true;
                scheduler.setState(state);
            } finally {
                if (!logged) {
                    TableSet.release(opened);
                }
            }
            flushCount = flushIndex;
            ctx.tables().addAll(out, opened);
            ctx.stats().flushTablesInstalled(out.stream().mapToLong(TableRecord::fileBytes).sum());
            complete(rv, rest, start, flushIndex, out, List.of());
            // queued for the purge thread before a waiting flush() wakes, so awaitMerges() after it sees the deletion
            ctx.tables().deleteWalSegmentsBelow(nextWal);
        } finally {
            ctx.mutex().unlock();
        }
    }

    /** The immutable MemTables but the oldest (the one being flushed). */
    private static List<LiveMemTable> withoutOldest(ReadView rv) {
        List<LiveMemTable> rest = new ArrayList<>(rv.immutables());
        rest.remove(rest.size() - 1);
        return rest;
    }

    /** The oldest log segment still needed once the oldest MemTable is flushed. */
    private static long nextWal(ReadView rv, List<LiveMemTable> rest) {
        return rest.isEmpty() ? rv.active().walNumber() : rest.get(rest.size() - 1).walNumber();
    }

    /**
     * Publishes the installed flush (the MemTable leaves the read view as its tables enter it), counts it, tells
     * the listener, and consults the policy. REQUIRES: the mutex; the manifest holds the flush.
     */
    private void complete(ReadView before, List<LiveMemTable> rest, long start, long flushIndex,
            List<TableRecord> written, List<Long> mergedIn) {
        assert ctx.mutex().held();
        ctx.tables().install(new ReadView(before.active(), rest, ctx.tables().version(ctx.manifest().current())));
        int components = ctx.tables().view().components();
        ctx.stats().flushed(components, System.nanoTime() - start);
        ctx.events().emit(new StoreEvent.Flush(StoreEvents.now(), flushIndex,
                written.stream().map(TableRecord::fileNumber).toList(),
                written.stream().mapToLong(TableRecord::fileBytes).sum(), mergedIn, StoreEvents.microsSince(start),
                components));
        Consumer<FlushSample> l = listener;
        if (l != null) {
            l.accept(ctx.stats().sample(components));
        }
        scheduler.schedule();
    }

    /**
     * Records {@code number} as the oldest live write-ahead-log segment, and, with the log on, that the segment
     * exists (it was created before any edit names it), so that an open or {@code verify} reports it missing.
     */
    static ManifestEdit.Builder oldestLiveWal(ManifestEdit.Builder b, long number, SyncMode walMode) {
        b.walNumber(number);
        if (walMode != SyncMode.OFF) {
            b.walSegment(number);
        }
        return b;
    }

    private ManifestEdit.Builder oldestLiveWal(ManifestEdit.Builder b, long number) {
        return oldestLiveWal(b, number, ctx.options().walMode());
    }

    /**
     * {@link MergeOrder#MERGE_MEMTABLE}: plans the cascade ({@link FlushPlanner}), writes each planned table once,
     * and installs them: first each merge that leaves the MemTable out (one edit each, so the stack keeps its
     * order), then the table holding the MemTable with the WAL and policy state. A crash between edits leaves a
     * consistent set and the MemTable's WAL. The plan stops before a merge that would read more than
     * {@code maxMergeBytes} ({@link MergeOrder#MERGE_MEMTABLE_SMALL}): the policy, consulted again once the flush is
     * installed, hands that merge and what follows it to the merge thread.
     */
    private void flushByMerging(LiveMemTable m, long flushIndex, long start, long maxMergeBytes)
            throws IOException {
        MemTable mem = m.table();
        // One pass over what the flush would write: its file size estimate and its data bytes.
        SSTableWriter.Estimate estimate;
        try (EntryCursor collapsed = ctx.builder().flushEntries(m)) {
            estimate = SSTableWriter.estimate(collapsed, ctx.builder().optionsFor(m));
        }
        FlushPlanner.Plan plan;
        Set<Long> planned = new HashSet<>();
        ctx.mutex().lock();
        try {
            scheduler.awaitMergeLag();
            TableRecord flushRecord = new TableRecord(ctx.manifest().newFileNumber(), 0, estimate.fileBytes(), mem.size(),
                    mem.tombstones(), mem.first().key(), mem.last().key(), mem.minSequence(), mem.maxSequence(),
                    flushIndex, flushIndex, m.createdMillis(), oldestTombstone(m), estimate.dataBytes());
            plan = FlushPlanner.plan(ctx.policy(), scheduler.state(), ctx.stats().takeReadsSinceFlush(),
                    ctx.manifest().current(), flushRecord, scheduler::view, ctx.manifest()::newFileNumber,
                    maxMergeBytes);
            plan.tables().forEach(p -> planned.addAll(p.realInputs()));
            scheduler.markCompacting(planned, true);
            ctx.stats().memTableFolded(estimate.fileBytes());
        } finally {
            ctx.mutex().unlock();
        }
        try {
            List<List<TableRecord>> outputs = new ArrayList<>();
            for (FlushPlanner.PlannedTable p : plan.tables()) {
                List<TableHandle> inputs = new ArrayList<>();
                boolean bottommost;
                boolean oneLevel;
                ctx.mutex().lock();
                try {
                    p.realInputs().forEach(id -> inputs.add(ctx.tables().get(id)));
                    bottommost = !inputs.isEmpty()
                            && ctx.tables().isBottommost(inputs, inputs, p.withMemTable() ? Long.MAX_VALUE : 0);
                    oneLevel = ctx.manifest().current().levels().size() <= 1;
                } finally {
                    ctx.mutex().unlock();
                }
                // as a merge task's stack-shaped merge: one component, split by key if large (in a store of one level)
                outputs.add(ctx.builder().merge(inputs, p.withMemTable() ? m : null, flushIndex,
                        OutputCutter.of(OutputCut.SINGLE_FILE), p.level(), bottommost, oneLevel));
            }
            ctx.syncDirectory();
            install(m, plan, outputs, flushIndex, planned, start);
        } catch (IOException | RuntimeException | Error e) {
            ctx.mutex().lock();
            try {
                scheduler.markCompacting(planned, false);
            } finally {
                ctx.mutex().unlock();
            }
            throw e;
        }
    }

    /**
     * Installs a merging flush's tables, one edit per planned table. Every output is opened before the first edit
     * is logged (see {@link TableSet#openNew}); those of edits not logged are released. The log segments no MemTable
     * needs any more are queued for deletion.
     */
    private void install(LiveMemTable m, FlushPlanner.Plan plan, List<List<TableRecord>> outputs, long flushIndex,
            Set<Long> planned, long start) throws IOException {
        List<List<TableHandle>> opened = new ArrayList<>();
        int logged = 0;
        try {
            for (List<TableRecord> out : outputs) {
                opened.add(ctx.tables().openNew(out));
            }
            ctx.mutex().lock();
            try {
                ReadView rv = ctx.tables().view();
                List<LiveMemTable> rest = withoutOldest(rv);
                long nextWal = nextWal(rv, rest);
                for (int i = 0; i < plan.tables().size(); i++) {
                    FlushPlanner.PlannedTable p = plan.tables().get(i);
                    List<TableRecord> out = outputs.get(i);
                    ComponentSet current = ctx.manifest().current();
                    ManifestEdit.Builder b = ManifestEdit.builder();
                    p.realInputs().forEach(b::removeFile);
                    out.forEach(b::addTable);
                    if (p.withMemTable()) {
                        b.lastSequence(Math.max(current.lastSequence(), m.table().maxSequence()))
                                .policy(ctx.policy().name(), plan.state().encode());
                        oldestLiveWal(b, Math.max(current.walNumber(), nextWal));
                    }
                    ctx.manifest().append(b.build());
                    logged++;
                    long inputBytes = 0;
                    for (long id : p.realInputs()) {
                        inputBytes += ctx.tables().retire(id).record().fileBytes();
                    }
                    ctx.tables().addAll(out, opened.get(i));
                    long written = out.stream().mapToLong(TableRecord::fileBytes).sum();
                    if (p.realInputs().isEmpty()) {
                        ctx.stats().flushTablesInstalled(written);
                    } else {
                        ctx.stats().merged(inputBytes, written);
                        ctx.events().emit(new StoreEvent.Merge(StoreEvents.now(), "REAL", String.join("; ",
                                p.reasons()), p.level(), p.realInputs(), out.stream().map(TableRecord::fileNumber)
                                .toList(), inputBytes, written, StoreEvents.microsSince(start)));
                    }
                }
                scheduler.setState(plan.state());
                flushCount = flushIndex;
                scheduler.markCompacting(planned, false);
                complete(rv, rest, start, flushIndex, outputs.stream().flatMap(List::stream).toList(),
                        List.copyOf(planned));
                ctx.tables().deleteWalSegmentsBelow(nextWal); // as in flushToTable
            } finally {
                ctx.mutex().unlock();
            }
        } finally {
            for (int i = logged; i < opened.size(); i++) {
                TableSet.release(opened.get(i));
            }
        }
    }
}
