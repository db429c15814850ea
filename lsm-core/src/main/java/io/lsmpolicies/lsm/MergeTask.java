package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.events.StoreEvent;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.OutputCutter;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * Runs one merge job the scheduler started, in three steps: {@link #prepare} (under the mutex: the input handles,
 * whether the output is bottommost, the output cutter), {@link #execute} (no lock: write the output tables, or
 * for a trivial move or a virtual merge only their records) and {@link #install} (under the mutex: check the
 * level order, log the edit, publish the new version). A real merge reads the real tables behind its inputs (a
 * virtual input's parents); a virtual merge reads nothing and installs one virtual table over the same real
 * tables (delayed compaction). A failure stops the store's writes; the job's outputs are deleted unless the edit
 * may have reached the manifest.
 */
final class MergeTask {
    private final StoreContext ctx;
    private final MergeJob job;
    private final Supplier<PolicyState> policyState;
    private final LongConsumer forgotten;

    private final List<TableHandle> inputs = new ArrayList<>();
    private final List<TableHandle> reads = new ArrayList<>();
    private boolean bottommost;
    /** Whether the job may be split by key (see {@link StoreOptions#subcompactions()}). */
    private boolean splittable;
    private OutputCutter cutter;
    private final ManifestEdit.Builder edit = ManifestEdit.builder();
    /** The tables the edit adds: the merge's outputs, the moved table's new record, or the virtual table. */
    private List<TableRecord> added = List.of();
    private List<TableRecord> written = List.of();

    /**
     * @param policyState the policy's state at install (logged with the edit); called under the mutex
     * @param forgotten   hears the number of each table that leaves the store
     */
    MergeTask(StoreContext ctx, MergeJob job, Supplier<PolicyState> policyState, LongConsumer forgotten) {
        this.ctx = ctx;
        this.job = job;
        this.policyState = policyState;
        this.forgotten = forgotten;
    }

    /** Prepares, executes and installs the job; a failure stops the store's writes (it is never thrown). */
    void run() {
        long start = System.nanoTime();
        // Set just before the manifest append: from then on the edit may be in the manifest file even if the
        // append fails (written, then the sync failed), so its output tables must stay (see the catch below).
        boolean[] logged = {false};
        try {
            ctx.mutex().lock();
            try {
                prepare();
            } finally {
                ctx.mutex().unlock();
            }
            execute();
            ctx.mutex().lock();
            try {
                install(logged);
                ctx.events().emit(new StoreEvent.Merge(StoreEvents.now(), job.kind().name(), job.reason(),
                        job.outputLevel(), job.inputs().stream().map(SSTableInfo::id).toList(),
                        added.stream().map(TableRecord::fileNumber).toList(), inputBytes(),
                        written.stream().mapToLong(TableRecord::fileBytes).sum(), StoreEvents.microsSince(start)));
                ctx.stats().mergeTook(System.nanoTime() - start);
            } finally {
                ctx.mutex().unlock();
            }
        } catch (Throwable e) {
            // A failed append may still have reached the file: the next open would replay the edit and find its
            // tables missing. Kept, they are either live or orphans that the next open deletes.
            if (!logged[0]) {
                for (TableRecord t : written) {
                    try {
                        ctx.files().deleteIfExists(ctx.tables().tablePath(t.fileNumber()));
                        ctx.stats().tableDeleted(t.fileBytes());
                    } catch (IOException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
            }
            ctx.run().fail(e);
        }
    }

    /** Bytes of the real tables a real merge reads; 0 for a move or a virtual merge, which read nothing. */
    private long inputBytes() {
        return job.kind() == MergeKind.REAL ? reads.stream().mapToLong(h -> h.record().fileBytes()).sum() : 0;
    }

    /** REQUIRES: the mutex. */
    private void prepare() {
        assert ctx.mutex().held();
        for (SSTableInfo t : job.inputs()) {
            TableHandle h = ctx.tables().get(t.id());
            inputs.add(h);
            reads.addAll(h.realTables());
        }
        bottommost = ctx.tables().isBottommost(inputs, reads, 0);
        // A stack-shaped merge (one file into level 0) in a store of one level: its output is one component,
        // whatever number of files it takes. A leveled policy's files are its own to cut.
        splittable = job.kind() == MergeKind.REAL && job.outputLevel() == 0
                && job.cut() instanceof OutputCut.SingleFile && ctx.manifest().current().levels().size() <= 1;
        List<TableRecord> grandparents = ctx.manifest().current().level(job.outputLevel() + 1);
        cutter = OutputCutter.of(job.cut(), grandparents.stream().map(TableRecord::minKey).toArray(byte[][]::new),
                grandparents.stream().map(TableRecord::maxKey).toArray(byte[][]::new),
                grandparents.stream().mapToLong(TableRecord::fileBytes).toArray());
    }

    private void execute() throws IOException {
        inputs.forEach(h -> edit.removeFile(h.fileNumber()));
        switch (job.kind()) {
            case TRIVIAL_MOVE -> added = List.of(inputs.get(0).record().atLevel(job.outputLevel()));
            case REAL -> {
                written = ctx.builder().merge(reads, null, 0, cutter, job.outputLevel(), bottommost, splittable);
                added = written;
                ctx.syncDirectory();
            }
            case VIRTUAL -> {
                if (job.outputLevel() == 0) {
                    throw new IllegalStateException("policy " + ctx.policy().name() + " asked for a virtual merge "
                            + "into level 0 (" + job.reason() + "); virtual tables live in levels >= 1");
                }
                added = List.of(TableRecord.virtual(ctx.manifest().newFileNumber(), job.outputLevel(),
                        System.currentTimeMillis(), reads.stream().map(TableHandle::record).toList()));
            }
        }
        added.forEach(edit::addTable);
    }

    /** REQUIRES: the mutex. */
    private void install(boolean[] logged) throws IOException {
        assert ctx.mutex().held();
        edit.policy(ctx.policy().name(), policyState.get().encode());
        ManifestEdit built = edit.build();
        LevelOrder.check(ctx.manifest().current(), built, job, ctx.policy().name());
        List<TableHandle> opened = ctx.tables().openNew(added);
        logged[0] = true;
        try {
            ctx.manifest().append(built);
        } catch (IOException | RuntimeException e) {
            TableSet.release(opened);
            throw e;
        }
        if (job.kind() == MergeKind.TRIVIAL_MOVE) {
            ctx.tables().replace(opened.get(0));
        } else {
            ctx.tables().addAll(added, opened);
            if (job.kind() == MergeKind.VIRTUAL) {
                ctx.stats().mergedVirtually();
            } else {
                ctx.stats().merged(inputBytes(), written.stream().mapToLong(TableRecord::fileBytes).sum());
            }
            ctx.tables().dropDead(ctx.manifest().current(), forgotten);
        }
        ReadView rv = ctx.tables().view();
        ctx.tables().install(new ReadView(rv.active(), rv.immutables(),
                ctx.tables().version(ctx.manifest().current())));
    }
}
