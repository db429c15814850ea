package io.lsmpolicies.lsm.log;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.sstable.BackgroundSync;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One write-ahead-log segment with group commit. Any number of threads call {@link #append}; while one of
 * them (the leader) writes and, in {@link SyncMode#SYNC}, fsyncs the records queued so far, the others queue
 * behind it and are released together when their records are durable, so one fsync serves many writes.
 * Records reach the file in the order their {@code append} calls entered the queue.
 *
 * <p>The first I/O failure sticks: the append that hit it, every waiting one and every later one fails with an
 * {@link IOException} that names the segment and the first failure's message (say, {@code No space left on
 * device}) and has that failure as its cause. Nothing more is written to the segment, which ends at its last
 * complete record (see {@link LogWriter}); the store stops taking writes until it is reopened.
 */
public final class WalWriter implements Closeable {
    /** Largest WAL record (one write batch): 64 MiB. */
    public static final int MAX_RECORD_BYTES = 64 << 20;
    /** In {@link SyncMode#ASYNC}, the bytes written between two background forces of the segment. */
    static final long SYNC_EVERY_BYTES = 8L << 20;

    private final LogWriter log;
    private final SyncMode mode;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition done = lock.newCondition();
    private List<LogPayload> queue = new ArrayList<>();
    /** The list the next group write's records are queued in after this one's: {@link #queue}'s spare. */
    private List<LogPayload> spare = new ArrayList<>();
    private long enqueued;
    private long durable;
    private boolean writing;
    private IOException failure;
    private boolean closed;
    /** Written only by the one leader at a time (syncs under the lock); read without it. */
    private volatile long syncs;
    private volatile long bytes;
    /** The background force started at {@link #syncRequestedAt} bytes, if any. Leader (or closer) only. */
    private Future<?> syncing;
    private long syncRequestedAt;

    private WalWriter(LogWriter log, SyncMode mode) {
        this.log = log;
        this.mode = mode;
    }

    /**
     * Creates a new segment file.
     *
     * @throws IllegalArgumentException for {@link SyncMode#OFF}, which writes no log
     */
    public static WalWriter create(Path path, SyncMode mode) throws IOException {
        return create(FileLayer.plain(), path, mode);
    }

    /** As {@link #create(Path, SyncMode)}, with I/O through {@code files} (charged to the WAL). */
    public static WalWriter create(FileLayer files, Path path, SyncMode mode) throws IOException {
        if (mode == SyncMode.OFF) {
            throw new IllegalArgumentException("sync mode OFF writes no write-ahead log");
        }
        return new WalWriter(LogWriter.create(files, path, LogKind.WAL, MAX_RECORD_BYTES, mode == SyncMode.ASYNC),
                mode);
    }

    /**
     * Appends one record and returns when it is acknowledged under the segment's {@link SyncMode}.
     *
     * @throws IOException if this or an earlier write of the segment failed (the first failure, as the cause)
     */
    public void append(byte[] record) throws IOException {
        awaitDurable(enqueue(LogPayload.of(record)));
    }

    /**
     * Queues one record without waiting, and returns its ticket for {@link #awaitDurable}. Records reach the
     * file in the order of their {@code enqueue} calls, so a caller that enqueues under its own lock fixes the
     * log order; it then waits outside that lock, and one group write serves every queued record.
     *
     * @throws IOException if an earlier write of the segment failed
     */
    public long enqueue(LogPayload record) throws IOException {
        int size = record.encodedSize();
        if (size > MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("write batch of " + size + " bytes exceeds the WAL record "
                    + "limit of " + MAX_RECORD_BYTES + " bytes");
        }
        lock.lock();
        try {
            check();
            queue.add(record);
            return ++enqueued;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns when the record with {@code ticket} (and so every earlier one) is acknowledged: written, and in
     * {@link SyncMode#SYNC} forced to the device. The caller may become the leader that writes the group.
     *
     * @throws IOException if a write of the segment failed (the first failure, as the cause)
     */
    public void awaitDurable(long ticket) throws IOException {
        lock.lock();
        try {
            while (durable < ticket) {
                if (failure != null) {
                    check();
                }
                if (writing) {
                    done.awaitUninterruptibly();
                    continue;
                }
                writeQueued();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns when every record queued so far is acknowledged under the segment's {@link SyncMode}, as
     * {@link #awaitDurable} with the latest ticket.
     *
     * @throws IOException if a write of the segment failed (the first failure, as the cause)
     */
    public void awaitQueued() throws IOException {
        long last;
        lock.lock();
        try {
            last = enqueued;
        } finally {
            lock.unlock();
        }
        awaitDurable(last);
    }

    /** Writes (and in SYNC mode forces) every queued record as the leader. REQUIRES: lock held, not writing. */
    private void writeQueued() {
        assert lock.isHeldByCurrentThread() && !writing : "REQUIRES: the log's lock, no group write running";
        writing = true;
        List<LogPayload> batch = queue;
        long last = enqueued;
        queue = spare;
        lock.unlock();
        IOException error = null;
        try {
            long before = log.size();
            for (int i = 0; i < batch.size(); i++) {
                log.append(batch.get(i));
            }
            bytes += log.size() - before - (long) batch.size() * LogFormat.RECORD_HEADER_BYTES;
            if (mode == SyncMode.SYNC) {
                log.sync();
            } else {
                log.flush();
                syncInBackground();
            }
        } catch (IOException | RuntimeException | Error e) { // an Error too: the leader must not leave the rest waiting
            error = e instanceof IOException io ? io : new IOException(e.toString(), e);
        } finally {
            batch.clear();
            lock.lock();
        }
        spare = batch;
        writing = false;
        if (error != null) {
            failure = error;
        } else {
            durable = last;
            if (mode == SyncMode.SYNC) {
                syncs++;
            }
        }
        done.signalAll();
    }

    /**
     * Starts a background force of the segment when {@value #SYNC_EVERY_BYTES} bytes or more were written since the
     * last one started and that one has ended; throws that one's failure, which is the segment's failure (a record
     * it was to force may be lost on power loss: no more are taken). So an {@code ASYNC} segment reaches the device
     * as it is written, and the sync that closes it waits only for the rest. Leader only.
     */
    private void syncInBackground() throws IOException {
        long size = log.size();
        if (size - syncRequestedAt < SYNC_EVERY_BYTES || (syncing != null && !syncing.isDone())) {
            return;
        }
        awaitBackgroundSync();
        syncRequestedAt = size;
        syncing = log.startBackgroundSync();
    }

    /** Waits for the background force, if one was started, and throws its failure. */
    private void awaitBackgroundSync() throws IOException {
        Future<?> f = syncing;
        syncing = null;
        BackgroundSync.await(f, log.path().toString());
    }

    private void check() throws IOException {
        if (failure != null) {
            throw new IOException("write-ahead log " + log.path() + " failed: " + failure.getMessage()
                    + "; no more writes until the store is reopened", failure);
        }
        if (closed) {
            throw new IllegalStateException("write-ahead log " + log.path() + " is closed");
        }
    }

    /** Number of fsyncs so far (fewer than appends when group commit batched them). */
    public long syncs() {
        return syncs;
    }

    /** Record payload bytes written so far. */
    public long bytes() {
        return bytes;
    }

    public Path path() {
        return log.path();
    }

    /**
     * Waits for a running group write, writes any records still queued (their writers are released), then
     * syncs and closes the segment.
     */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            while (writing || (failure == null && !closed && durable < enqueued)) {
                if (writing) {
                    done.awaitUninterruptibly();
                } else {
                    writeQueued();
                }
            }
            if (closed) {
                return;
            }
            closed = true;
            try {
                try {
                    awaitBackgroundSync();
                } catch (IOException e) {
                    if (failure == null) {
                        failure = e;
                        throw e;
                    }
                }
                if (failure == null) {
                    log.sync();
                }
            } finally {
                log.close(); // after a failure it only releases the file
            }
        } finally {
            lock.unlock();
        }
    }
}
