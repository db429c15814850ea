package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.events.StoreEvent;
import io.lsmpolicies.lsm.log.WalRecord;
import io.lsmpolicies.lsm.log.WalWriter;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.memtable.MemTable;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The write path: checks a batch against the limits, gives it its sequence numbers, appends it to the write-ahead
 * log and applies it to the active MemTable under the write lock, then waits for the log outside it, so that
 * concurrent writers share one sync (group commit). It makes room when the active MemTable is full: a writer waits
 * (a stall, measured) while too many immutable MemTables wait for their flush, then the MemTable rotates to a new
 * log segment and its flush is queued. It publishes the newest acknowledged sequence number reads see.
 */
final class WritePath {
    private static final byte[] NO_VALUE = new byte[0];
    private final StoreContext ctx;
    private final ExecutorService flusher;
    private final FlushJob flushJob;
    /** Serialises writers: sequence numbers, log order and MemTable rotation. */
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Guarded by the write lock. */
    private WalWriter wal;
    /** The number of {@link #wal}'s segment. Guarded by the write lock. */
    private long segment;
    /** Guarded by the write lock. */
    private long lastSequence;
    /** The newest sequence number every write at or below which was acknowledged. */
    private final AtomicLong visible = new AtomicLong();

    WritePath(StoreContext ctx, ExecutorService flusher, FlushJob flushJob) {
        this.ctx = ctx;
        this.flusher = flusher;
        this.flushJob = flushJob;
    }

    /** Recovery found writes up to {@code sequence}: the next write gets the number after it. Before any write. */
    void recovered(long sequence) {
        writeLock.lock();
        try {
            lastSequence = sequence;
            visible.set(sequence);
        } finally {
            writeLock.unlock();
        }
    }

    /** The sequence number of the newest write a read must see. */
    long visibleSequence() {
        return visible.get();
    }

    private boolean logging() {
        return ctx.options().walMode() != SyncMode.OFF;
    }

    /**
     * Creates log segment {@code number} for the writes to come (at open, before any edit names it); with the
     * log off, nothing.
     */
    void startLog(long number) throws IOException {
        if (!logging()) {
            return;
        }
        Path path = ctx.dir().resolve(StoreFiles.walName(number));
        writeLock.lock();
        try {
            wal = WalWriter.create(ctx.files(), path, ctx.options().walMode());
            segment = number;
        } catch (IOException e) { // WalWriter.create has removed the file: no edit names it yet
            throw new IOException("cannot create the write-ahead-log segment " + path + " (removed): "
                    + e.getMessage(), e);
        } finally {
            writeLock.unlock();
        }
        ctx.syncDirectory();
        ctx.mutex().lock();
        try {
            ctx.tables().addWalSegment(number);
        } finally {
            ctx.mutex().unlock();
        }
    }

    /** See {@link LsmStore#write}. */
    void write(WriteBatch batch) throws IOException {
        long charge = 0;
        StoreOptions options = ctx.options();
        List<WriteBatch.Op> ops = batch.ops();
        for (int i = 0; i < ops.size(); i++) {
            WriteBatch.Op op = ops.get(i);
            if (op.key().length > options.maxKeyBytes()) {
                throw new IllegalArgumentException("key of " + op.key().length + " bytes exceeds the limit of "
                        + options.maxKeyBytes() + " bytes (option maxKeyBytes)");
            }
            if (op.value() != null && op.value().length > options.maxValueBytes()) {
                throw new IllegalArgumentException("value of " + op.value().length + " bytes exceeds the limit of "
                        + options.maxValueBytes() + " bytes (option maxValueBytes)");
            }
            charge += MemTable.charge(op.key().length, op.value() == null ? 0 : op.value().length);
        }
        if (batch.count() == 0) {
            return;
        }
        WalWriter log = null;
        long ticket = 0;
        long last;
        writeLock.lock();
        try {
            ctx.run().checkWritable();
            makeRoom(charge, false);
            WalRecord record = WalRecord.of(lastSequence + 1, batch);
            if (logging()) {
                try {
                    ticket = wal.enqueue(record);
                } catch (IOException e) {
                    ctx.run().fail(e);
                    throw e;
                }
                log = wal;
            }
            MemTable active = ctx.tables().view().active().table();
            for (int i = 0; i < ops.size(); i++) {
                WriteBatch.Op op = ops.get(i);
                active.add(op.key(), record.baseSequence() + i, op.isDelete(), op.isDelete() ? NO_VALUE : op.value());
            }
            lastSequence += record.count();
            last = lastSequence;
        } finally {
            writeLock.unlock();
        }
        if (log != null) {
            try {
                log.awaitDurable(ticket);
            } catch (IOException e) {
                ctx.run().fail(e);
                throw e;
            }
        }
        visible.accumulateAndGet(last, Math::max);
        ctx.stats().write(batch);
    }

    /**
     * Rotates a non-empty active MemTable (waiting like a writer if too many wait already), so that a flush of
     * everything written so far is queued, and starts a new log segment, so that once that flush is installed no
     * segment holds what tables hold.
     */
    void rotateForFlush() throws IOException {
        writeLock.lock();
        try {
            ctx.run().checkWritable();
            if (!ctx.tables().view().active().table().isEmpty()) {
                makeRoom(Long.MAX_VALUE / 4, true);
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Stops taking writes: queues the flush of a non-empty active MemTable (unless a failure stopped the store:
     * the log keeps those writes for the next open) and marks the store closed. False if it was closed already.
     */
    boolean closeForWrites() {
        writeLock.lock();
        try {
            if (ctx.run().closed()) {
                return false;
            }
            if (!ctx.run().failed() && !ctx.tables().view().active().table().isEmpty()) {
                try {
                    rotate(true);
                } catch (IOException e) {
                    // the failure is recorded; the WAL keeps the writes for the next open
                }
            }
            ctx.run().markClosed();
            return true;
        } finally {
            writeLock.unlock();
        }
    }

    /** Closes the log (every queued record is written and synced). */
    void closeLog() throws IOException {
        writeLock.lock();
        try {
            if (wal != null) {
                wal.close();
            }
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Makes the active MemTable able to take {@code charge} more bytes, rotating it if full (see {@link #rotate} for
     * {@code newSegment}); waits (a stall) while too many immutable MemTables wait for their flush. REQUIRES: the
     * write lock.
     */
    private void makeRoom(long charge, boolean newSegment) throws IOException {
        assert writeLock.isHeldByCurrentThread() : "REQUIRES: the write lock";
        MemTable active = ctx.tables().view().active().table();
        if (active.isEmpty() || active.bytes() + charge <= ctx.options().memtableBytes()) {
            return;
        }
        ctx.mutex().lock();
        try {
            long start = 0;
            int waiting = 0;
            while (ctx.tables().view().immutables().size() >= ctx.options().maxImmutableMemtables()
                    && !ctx.run().failed()) {
                if (start == 0) {
                    start = System.nanoTime();
                    waiting = ctx.tables().view().immutables().size();
                }
                ctx.mutex().await();
            }
            if (start != 0) {
                ctx.stats().stalled(System.nanoTime() - start);
                ctx.events().emit(new StoreEvent.Stall(StoreEvents.now(), StoreEvents.microsSince(start), waiting));
            }
        } finally {
            ctx.mutex().unlock();
        }
        ctx.run().checkWritable();
        rotate(newSegment);
    }

    /**
     * Freezes the active MemTable, starts a new one, and queues the flush. Every record queued on the log is written
     * first (and in {@code SYNC} forced), so all of the frozen MemTable's writes are acknowledged and visible. The
     * new MemTable writes on in the current log segment until that segment holds {@code walSegmentBytes}; then it
     * starts a new segment, closing the old one first, which syncs it, so a segment is whole on the device before a
     * newer one exists (recovery takes a torn segment with a newer one after it as corruption, since the newer one
     * proves it was complete once). With {@code newSegment} (a flush asked for, or the store closing) it starts a new
     * segment whatever the current one holds. REQUIRES: the write lock; the active MemTable is not empty.
     */
    private void rotate(boolean newSegment) throws IOException {
        assert writeLock.isHeldByCurrentThread() : "REQUIRES: the write lock";
        long number;
        boolean started = false;
        if (!logging()) {
            number = ctx.manifest().newFileNumber();
        } else {
            try {
                if (!newSegment && wal.bytes() < ctx.options().walSegmentBytes()) {
                    wal.awaitQueued();
                    number = segment;
                } else {
                    number = ctx.manifest().newFileNumber();
                    wal.close();
                    wal = WalWriter.create(ctx.files(), ctx.dir().resolve(StoreFiles.walName(number)),
                            ctx.options().walMode());
                    ctx.syncDirectory();
                    segment = number;
                    started = true;
                }
            } catch (IOException e) {
                ctx.run().fail(e);
                throw e;
            }
        }
        ctx.mutex().lock();
        try {
            if (started) {
                ctx.tables().addWalSegment(number);
            }
            ReadView rv = ctx.tables().view();
            rv.active().table().freeze();
            visible.accumulateAndGet(lastSequence, Math::max);
            List<LiveMemTable> immutables = new ArrayList<>(rv.immutables().size() + 1);
            immutables.add(rv.active());
            immutables.addAll(rv.immutables());
            ctx.tables().install(new ReadView(new LiveMemTable(ctx.tables().newMemTable(), number, System.currentTimeMillis()),
                    immutables, rv.version()));
        } finally {
            ctx.mutex().unlock();
        }
        flusher.execute(() -> {
            try {
                flushJob.flushOldest();
            } catch (Throwable e) {
                ctx.run().fail(e);
            }
        });
    }
}
