package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.events.EventListener;
import io.lsmpolicies.lsm.events.EventLog;
import io.lsmpolicies.lsm.events.StoreEvent;
import io.lsmpolicies.lsm.io.DirectoryLock;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoStats;
import io.lsmpolicies.lsm.manifest.AbandonedCreation;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.OptionsFile;
import io.lsmpolicies.lsm.manifest.StoredOptions;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.memtable.MemTable;
import io.lsmpolicies.lsm.sstable.BlockCache;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.lsm.wal.WriteBatch;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * An LSM key-value store: writes go to the write-ahead log and an in-memory {@link MemTable}; a full MemTable
 * is flushed in the background as a bulk-loaded B+-tree SSTable; the merge policy is consulted after every
 * flush and every finished merge, and its jobs run on a pool of merge threads; the manifest makes each
 * flush and merge install atomic across crashes. Keys and values are byte arrays; keys compare as unsigned
 * bytes.
 *
 * <p>Contracts:
 * <ul>
 *   <li><b>Durability.</b> With {@link SyncMode#SYNC} a write is on the device when its call returns; with
 *       {@code ASYNC} it is in the operating system (it survives a process crash); with {@code OFF} it
 *       survives only once flushed. Concurrent writers share fsyncs (group commit).</li>
 *   <li><b>Atomicity and order.</b> A {@link WriteBatch} is applied all or nothing, and its operations in
 *       order. Writes get consecutive sequence numbers; a read sees every write whose call returned before
 *       the read started.</li>
 *   <li><b>Snapshots.</b> {@link #snapshot()} fixes a sequence number; reads through it never change.</li>
 *   <li><b>Recovery.</b> {@link #open} rebuilds the component set from the manifest, deletes files no
 *       component references, replays the WAL (a torn final record is a crash during the last write, and is
 *       skipped) and flushes what it replayed. Policy state lives in the manifest, so a schedule continues. A
 *       missing table or live WAL segment is refused ({@code MISSING_FILE}), as is a directory that holds a store's
 *       files but no CURRENT. {@link #openReadOnly} does the same reading and changes nothing.</li>
 *   <li><b>Faults.</b> A damaged page, WAL record or manifest record is a {@link CorruptionException} naming
 *       the file and offset, never a wrong answer. A failed write I/O fails the call that hit it; a failed
 *       background flush or merge stops the store from taking writes (reads go on) until it is reopened, and
 *       every later write reports that first failure as its cause.</li>
 *   <li><b>Stalls.</b> Writers wait only when {@link StoreOptions#maxImmutableMemtables()} MemTables wait for
 *       their flush; a flush waits to be installed while the policy says merging lags
 *       ({@link MergePolicy#isMergeLagging}). Both waits are measured.</li>
 * </ul>
 * Thread-safe: any number of threads may read and write. One process opens a directory at a time (a lock
 * file enforces it).
 */
public final class LsmStore implements Closeable {
    /** The file that locks the directory for one process. */
    public static final String LOCK_FILE = "LOCK";

    private final StoreContext ctx;
    private final BlockCache cache;
    private final FilePurger purger;
    private final DirectoryLock lock;
    private final ExecutorService flusher;
    private final ExecutorService mergers;
    /** Runs the key ranges of split merges but the first; null if merges are never split. */
    private final ExecutorService subcompactors;
    private final MergeScheduler scheduler;
    private final FlushJob flushJob;
    private final WritePath writes;
    private final ReadPath reads;
    /** The policy switch this open made, if any. */
    private final Optional<PolicySwitch> policySwitch;

    /** A store over {@code manifest} whose parts are built but not started: {@link Recovery} starts them. */
    LsmStore(Path dir, StoreOptions options, FileLayer files, DirectoryLock lock, Manifest manifest,
            boolean readOnly, Optional<PolicySwitch> policySwitch) {
        this.lock = lock;
        this.policySwitch = policySwitch;
        this.cache = BlockCache.ofBytes(options.blockCacheBytes());
        StoreMutex mutex = new StoreMutex();
        StoreStatistics stats = new StoreStatistics(mutex);
        Snapshots snapshots = new Snapshots();
        StoreEvents events = new StoreEvents(EventLog.open(dir, readOnly ? 0 : options.eventLogBytes()));
        RunState run = new RunState(dir, readOnly, mutex, events);
        this.purger = new FilePurger(files, run);
        TableSet tables = new TableSet(files, dir, cache, stats, mutex, purger, options.memtableBytes());
        this.subcompactors = options.subcompactions() > 1
                ? DaemonThreads.pool("lsm-subcompaction", options.subcompactions() - 1) : null;
        this.ctx = new StoreContext(dir, options, options.policy(), files, manifest, mutex, run, stats, tables,
                new TableBuilder(files, tables, options.sstable(), options.memtableBytes(), manifest, stats, snapshots,
                        subcompactors, options.subcompactions(), options.subcompactionBytes()),
                snapshots, events);
        this.flusher = DaemonThreads.pool("lsm-flush", 1);
        this.mergers = DaemonThreads.pool("lsm-merge", options.mergeThreads());
        this.scheduler = new MergeScheduler(ctx, mergers, options.policy().initialState());
        stats.onManyReads(scheduler::considerReads);
        this.flushJob = new FlushJob(ctx, scheduler);
        this.writes = new WritePath(ctx, flusher, flushJob);
        this.reads = new ReadPath(ctx, scheduler, writes::visibleSequence);
    }

    /**
     * Opens the store in {@code dir}, creating it (and the directory) if it holds no store.
     *
     * @param dir     the store directory
     * @param options the store's options
     * @return the open store
     * @throws CorruptionException if the manifest, a WAL segment or an SSTable it must open is damaged, of an
     *                             unknown format version, or a live SSTable is missing; or ({@code MISSING_FILE})
     *                             if {@code dir} holds a store's files but no CURRENT (nothing is deleted; see
     *                             {@link AbandonedCreation} and {@link StoreRepair})
     * @throws IOException         if the directory is locked by another open store, holds files that are not a
     *                             store's, or an I/O operation fails
     */
    public static LsmStore open(Path dir, StoreOptions options) throws IOException {
        return open(dir, options, FileLayer.of(options.device(), options.writeBytesPerSecond()));
    }

    /**
     * As {@link #open(Path, StoreOptions)}, with every file operation of the store going through {@code files}
     * (whose device and rate limit then apply instead of the options'): the seam where tests inject faults
     * and simulate power loss.
     *
     * @param dir     the store directory
     * @param options the store's options
     * @param files   the file layer every file operation goes through
     * @return the open store
     * @throws IOException if an I/O operation fails
     */
    public static LsmStore open(Path dir, StoreOptions options, FileLayer files) throws IOException {
        return Recovery.open(dir, options, files);
    }

    /**
     * Opens the store in {@code dir} for reading only: it changes nothing in the directory. It reads the manifest,
     * opens the tables and replays the write-ahead log into memory, so reads see every write the store holds, but
     * it writes no manifest, creates no log segment, deletes no orphan, cuts no torn tail, flushes nothing and
     * starts no merge. It works on a read-only directory and on a full disk. It takes a shared lock (see
     * {@link DirectoryLock#acquireShared}): it fails while the store is open for writing, and a store open
     * read-only cannot be opened for writing. Every write, {@link #flush} and {@link #compactAll} throws
     * {@link IllegalStateException}. The policy in {@code options} is not consulted.
     *
     * @param dir     the store directory
     * @param options the store's options
     * @return the store, read-only
     * @throws java.nio.file.NoSuchFileException if {@code dir} holds no store (no CURRENT)
     * @throws CorruptionException as {@link #open(Path, StoreOptions)}, for what it reads
     * @throws IOException         if the store is open for writing, or an I/O operation fails
     */
    public static LsmStore openReadOnly(Path dir, StoreOptions options) throws IOException {
        return openReadOnly(dir, options, FileLayer.of(options.device(), options.writeBytesPerSecond()));
    }

    /**
     * As {@link #openReadOnly(Path, StoreOptions)}, reading through {@code files}.
     *
     * @param dir     the store directory
     * @param options the store's options
     * @param files   the file layer every file operation goes through
     * @return the store, read-only
     * @throws IOException if an I/O operation fails
     */
    public static LsmStore openReadOnly(Path dir, StoreOptions options, FileLayer files) throws IOException {
        return Recovery.openReadOnly(dir, options, files);
    }

    /** The recovery of this store's parts, for {@link Recovery#open}. */
    Recovery recovery() {
        return new Recovery(ctx, scheduler, flushJob, writes);
    }

    /** The MemTable taking writes now, for tests that measure what it holds. */
    MemTable activeMemTable() {
        return ctx.tables().view().active().table();
    }

    // ------------------------------------------------------------------------------------------------ writes

    /**
     * Inserts or replaces the value of {@code key}.
     *
     * @param key   the key
     * @param value the value
     * @throws IOException if an I/O operation fails
     */
    public void put(byte[] key, byte[] value) throws IOException {
        write(new WriteBatch().put(key, value));
    }

    /**
     * Same as {@link #put}: the store's writes are upserts (AsterixDB's name).
     *
     * @param key   the key
     * @param value the value
     * @throws IOException if an I/O operation fails
     */
    public void upsert(byte[] key, byte[] value) throws IOException {
        put(key, value);
    }

    /**
     * Deletes {@code key} (a tombstone; absent keys may be deleted).
     *
     * @param key the key
     * @throws IOException if an I/O operation fails
     */
    public void delete(byte[] key) throws IOException {
        write(new WriteBatch().delete(key));
    }

    /**
     * Applies {@code batch} atomically. The batch gets its sequence numbers here; do not reuse it.
     *
     * @param batch the operations
     * @throws IllegalArgumentException if a key or value exceeds its limit (nothing is written)
     * @throws IOException              if the WAL write fails, or the store stopped after a background failure
     */
    public void write(WriteBatch batch) throws IOException {
        writes.write(batch);
    }

    /**
     * The first failure that stopped this store taking writes (a failed WAL write or sync, or a failed background
     * flush or merge), if any: every later write fails with it as its cause, reads go on, and only a reopen
     * (close, then {@link #open}) takes writes again.
     *
     * @return the failure, or empty
     */
    public Optional<Throwable> writeFailure() {
        return ctx.run().failure();
    }

    // ------------------------------------------------------------------------------------------------ reads

    /**
     * {@return the current value of {@code key}, or null if absent or deleted}
     *
     * @param key the key
     * @throws IOException if an I/O operation fails
     */
    public byte[] get(byte[] key) throws IOException {
        return reads.get(key, -1);
    }

    /**
     * {@return the value of {@code key} as of {@code snapshot}, or null}
     *
     * @param key      the key
     * @param snapshot a snapshot of this store
     * @throws IOException if an I/O operation fails
     */
    public byte[] get(byte[] key, Snapshot snapshot) throws IOException {
        return reads.get(key, snapshot.checkedSequence());
    }

    /**
     * The keys in {@code [from, to)} (null bounds are open), newest values, deleted keys left out. Close the
     * iterator.
     *
     * @param from the start of the range (inclusive; null: open)
     * @param to   the end of the range (exclusive; null: open)
     * @return an iterator over the range
     * @throws IOException if an I/O operation fails
     */
    public StoreIterator scan(byte[] from, byte[] to) throws IOException {
        return reads.scan(from, to, -1);
    }

    /**
     * As {@link #scan(byte[], byte[])}, as of {@code snapshot}.
     *
     * @param from     the start of the range (inclusive; null: open)
     * @param to       the end of the range (exclusive; null: open)
     * @param snapshot a snapshot of this store
     * @return an iterator over the range
     * @throws IOException if an I/O operation fails
     */
    public StoreIterator scan(byte[] from, byte[] to, Snapshot snapshot) throws IOException {
        return reads.scan(from, to, snapshot.checkedSequence());
    }

    /**
     * Measures space amplification by a full scan of one consistent view (O(store): for reports, not for a
     * hot path).
     *
     * @return the space usage
     * @throws IOException if an I/O operation fails
     */
    public SpaceUsage spaceUsage() throws IOException {
        return reads.spaceUsage();
    }

    /** {@return a snapshot of every write acknowledged so far} Close it. */
    public Snapshot snapshot() {
        ctx.run().checkOpen();
        return ctx.snapshots().take(writes::visibleSequence);
    }

    // ------------------------------------------------------------------------------------------------ control

    /**
     * Flushes the active MemTable and waits until every MemTable written before the call is in an SSTable (the
     * merges those flushes trigger may still run, and the files they and the flushes made obsolete may still be
     * being deleted; see {@link #awaitMerges()}).
     *
     * @throws IOException if an I/O operation fails
     */
    public void flush() throws IOException {
        writes.rotateForFlush();
        flushJob.awaitDrained();
        ctx.run().rethrowFailure();
    }

    /**
     * Waits until no merge runs and the policy asks for none, and the files merges and flushes made obsolete (replaced
     * tables, log segments) are deleted.
     *
     * @throws IOException if an I/O operation fails
     */
    public void awaitMerges() throws IOException {
        scheduler.awaitIdle();
        purger.awaitIdle();
        ctx.run().rethrowFailure();
    }

    /**
     * Flushes, waits for running merges, then merges every SSTable into one (at the deepest level in use),
     * dropping every version and tombstone no live snapshot needs.
     *
     * @throws IOException if an I/O operation fails
     */
    public void compactAll() throws IOException {
        flush();
        scheduler.compactAll();
        purger.awaitIdle();
        ctx.run().rethrowFailure();
    }

    // ------------------------------------------------------------------------------------------------ state

    /** {@return the store's counters now} */
    public StoreMetrics metrics() {
        IoStats io = ctx.files().stats();
        ctx.mutex().lock();
        try {
            ComponentSet set = ctx.manifest().current();
            long pinned = ctx.tables().all().stream().filter(h -> !h.isVirtual())
                    .mapToLong(h -> h.reader().pinnedBytes()).sum();
            return ctx.stats().metrics(io, cache, pinned, ctx.tables().view().components(), set.tableCount(),
                    (int) set.levels().stream().flatMap(List::stream).filter(TableRecord::isVirtual).count());
        } finally {
            ctx.mutex().unlock();
        }
    }

    /**
     * Calls {@code listener} with a {@link FlushSample} each time a flush is installed, before the merges it
     * triggers, in flush order; {@code null} removes it. The call holds the store's structure lock, so the listener
     * must be quick and must not call back into the store. Flushes installed before this call are not reported.
     *
     * @param listener the listener
     */
    public void onFlush(Consumer<FlushSample> listener) {
        flushJob.onFlush(listener);
    }

    /**
     * Delivers every later {@link StoreEvent} to {@code listener} (see {@link EventListener} for what it may do).
     * The events of opening happened before it could be added; the store's event log holds them.
     *
     * @param listener the listener
     */
    public void addEventListener(EventListener listener) {
        ctx.events().add(listener);
    }

    /**
     * Stops telling {@code listener} of the store's events.
     *
     * @param listener a listener {@link #addEventListener} added
     */
    public void removeEventListener(EventListener listener) {
        ctx.events().remove(listener);
    }

    /** {@return the counters now, as a {@link FlushSample}; its peak covers the time since the previous sample} */
    public FlushSample sample() {
        ctx.mutex().lock();
        try {
            return ctx.stats().sample(ctx.tables().view().components());
        } finally {
            ctx.mutex().unlock();
        }
    }

    /**
     * The merge-policy switch this open made: the store recorded another policy or other parameters than it was
     * opened with (see {@link PolicySwitch}); empty if it was opened with its own, was created, or recorded none.
     *
     * @return the switch, or empty
     */
    public Optional<PolicySwitch> policySwitch() {
        return policySwitch;
    }

    /**
     * The settings the store in {@code dir} recorded when it was last opened for writing, among them its merge
     * policy with every parameter: what a tool opens it with when it is not told otherwise. Empty if the
     * directory holds no {@code OPTIONS} file (no store, or a store written before the file existed). Reads
     * only that file; the store may be open elsewhere.
     *
     * @param dir the store directory
     * @return the recorded settings, or empty if the store recorded none
     * @throws CorruptionException if the file is damaged
     */
    public static Optional<StoredOptions> storedOptions(Path dir) throws IOException {
        return OptionsFile.read(FileLayer.plain(), dir);
    }

    /** {@return the live component set (what the manifest holds now)} */
    public ComponentSet components() {
        return ctx.manifest().current();
    }

    /** {@return the policy's current state} */
    public PolicyState policyState() {
        ctx.mutex().lock();
        try {
            return scheduler.state();
        } finally {
            ctx.mutex().unlock();
        }
    }

    /** {@return the store directory} */
    public Path directory() {
        return ctx.dir();
    }

    /** {@return the options the store was opened with} */
    public StoreOptions options() {
        return ctx.options();
    }

    /** {@return the file layer's byte counters (by cause)} */
    public IoStats ioStats() {
        return ctx.files().stats();
    }

    // ------------------------------------------------------------------------------------------------ lifecycle

    /**
     * Flushes what the MemTables hold, lets running merges finish (no new ones start), and releases every file
     * and the directory lock. After a background failure nothing more is written: the WAL holds the writes
     * and the next open replays them. Idempotent.
     */
    @Override
    public void close() throws IOException {
        if (ctx.run().readOnly()) {
            synchronized (this) {
                if (!ctx.run().closed()) {
                    abandon();
                }
            }
            return;
        }
        if (!writes.closeForWrites()) {
            return;
        }
        flushJob.awaitDrained();
        scheduler.close();
        ctx.events().emit(new StoreEvent.Closed(System.currentTimeMillis(), ctx.run().failure()
                .map(e -> "closed after a failure, the log keeps the unflushed writes: " + e).orElse("flushed and closed")));
        abandon();
    }

    /** Stops the threads and releases files and the lock without flushing (also after an open that failed). */
    void abandon() throws IOException {
        ctx.run().markClosed();
        DaemonThreads.shutdown(flusher);
        DaemonThreads.shutdown(mergers);
        if (subcompactors != null) {
            DaemonThreads.shutdown(subcompactors); // after the merges, which wait for their ranges
        }
        IOException first = null;
        try {
            writes.closeLog();
        } catch (IOException e) {
            first = e;
        }
        try {
            ctx.manifest().close();
        } catch (IOException e) {
            first = first == null ? e : first;
        }
        try {
            ctx.tables().close();
        } catch (IOException e) {
            first = first == null ? e : first;
        }
        purger.close();
        ctx.events().close();
        lock.close();
        if (first != null) {
            throw first;
        }
    }
}
