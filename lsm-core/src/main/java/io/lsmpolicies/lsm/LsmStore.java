package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.DirectoryLock;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.io.IoStats;
import io.lsmpolicies.lsm.log.LogTail;
import io.lsmpolicies.lsm.manifest.AbandonedCreation;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.OptionsFile;
import io.lsmpolicies.lsm.manifest.PolicyViews;
import io.lsmpolicies.lsm.manifest.Recovered;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.manifest.StoredOptions;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.memtable.MemTable;
import io.lsmpolicies.lsm.merge.MergingIterator;
import io.lsmpolicies.lsm.merge.VersionCollapse;
import io.lsmpolicies.lsm.sstable.BlockCache;
import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.SSTableReader;
import io.lsmpolicies.lsm.sstable.SSTableWriter;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.lsm.wal.WalReplay;
import io.lsmpolicies.lsm.wal.WalWriter;
import io.lsmpolicies.lsm.wal.WriteBatch;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.OutputCutter;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

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
    /** Bound on merges scheduled in one consultation, so a policy that never settles is reported. */
    static final int MAX_JOBS_PER_CONSULTATION = 10_000;

    private static final BlockCache NO_CACHE = BlockCache.ofBytes(0);
    /** A merge reads each input sequentially, this many bytes per read. */
    static final int MERGE_READ_AHEAD_BYTES = 256 * 1024;

    private final Path dir;
    private final StoreOptions options;
    private final MergePolicy policy;
    private final FileLayer files;
    private final BlockCache cache;
    private final DirectoryLock lock;
    private final Manifest manifest;
    /** Opened by {@link #openReadOnly}: nothing is ever written, deleted or flushed. */
    private final boolean readOnly;
    private final ExecutorService flusher;
    private final ExecutorService mergers;

    /** Serialises writers: sequence numbers, WAL order and MemTable rotation. */
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Guards the structure: read view, open tables, compacting set, policy state, merge bookkeeping. */
    private final ReentrantLock mutex = new ReentrantLock();
    /** Signalled on every install, failure and finished merge. */
    private final Condition changed = mutex.newCondition();

    private volatile ReadView readView;
    private final Map<Long, TableHandle> tables = new HashMap<>();
    private final Set<Long> compacting = new HashSet<>();
    /** Virtual tables a read has asked the policy about (see {@link #considerMaterializing}). */
    private final Set<Long> virtualReadsAsked = ConcurrentHashMap.newKeySet();
    /** Read-triggered questions queued on the merge pool, not yet asked: {@link #awaitMerges} waits for them. */
    private final AtomicInteger pendingReadQuestions = new AtomicInteger();
    /** Output ranges of running merges into levels >= 1. */
    private final List<OutputRange> runningRanges = new ArrayList<>();
    private final TreeSet<Long> walSegments = new TreeSet<>();
    private PolicyState policyState;
    /** The policy switch this open made, if any (set before {@link #start}). */
    private Optional<PolicySwitch> policySwitch = Optional.empty();
    private int runningMerges;
    private boolean manualCompaction;
    private boolean closing;
    private long flushCount;

    private WalWriter wal;
    private long lastSequence;
    private final AtomicLong visible = new AtomicLong();
    private final TreeMap<Long, Integer> snapshots = new TreeMap<>();
    private final AtomicReference<Throwable> backgroundError = new AtomicReference<>();
    private volatile boolean closed;

    private final LongAdder userBytes = new LongAdder();
    private final LongAdder puts = new LongAdder();
    private final LongAdder deletes = new LongAdder();
    private final LongAdder gets = new LongAdder();
    private final LongAdder tablesProbed = new LongAdder();
    private final AtomicLong flushedBytes = new AtomicLong();
    private final AtomicLong diskBytes = new AtomicLong();
    /** The most SSTable bytes on disk since the last {@link FlushSample}. */
    private final AtomicLong peakDiskBytes = new AtomicLong();
    private volatile java.util.function.Consumer<FlushSample> flushListener;
    private long flushes;
    private long merges;
    private long virtualMerges;
    private long mergeInputBytes;
    private long mergeOutputBytes;
    /** Bytes of every SSTable written by flushes and merges (the numerator of model write amplification). */
    private long tableBytes;
    private long componentSum;
    private double transientMax;
    private long stalls;
    private long stallNanos;
    private long mergeLagNanos;
    private final Histogram flushMicros = new ConcurrentHistogram(3);
    private final Histogram mergeMicros = new ConcurrentHistogram(3);
    private final Histogram stallMicros = new ConcurrentHistogram(3);
    private final Histogram mergeBytes = new ConcurrentHistogram(3);

    private LsmStore(Path dir, StoreOptions options, FileLayer files, DirectoryLock lock,
            Manifest manifest, boolean readOnly) {
        this.dir = dir;
        this.readOnly = readOnly;
        this.options = options;
        this.policy = options.policy();
        this.files = files;
        this.cache = BlockCache.ofBytes(options.blockCacheBytes());
        this.lock = lock;
        this.manifest = manifest;
        this.flusher = Executors.newSingleThreadExecutor(daemon("lsm-flush"));
        this.mergers = Executors.newFixedThreadPool(options.mergeThreads(), daemon("lsm-merge"));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Opens the store in {@code dir}, creating it (and the directory) if it holds no store.
     *
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
     */
    public static LsmStore open(Path dir, StoreOptions options, FileLayer files) throws IOException {
        files.createDirectories(dir);
        DirectoryLock lock = DirectoryLock.acquire(dir.resolve(LOCK_FILE),
                "the store in " + dir + " is already open (" + LOCK_FILE + " is locked)");
        LsmStore store = null;
        try {
            Recovered recovered = null;
            Manifest manifest;
            Optional<StoredOptions> stored = Optional.empty();
            Optional<PolicySwitch> switched = Optional.empty();
            if (files.exists(dir.resolve(StoreFiles.CURRENT))) {
                recovered = Manifest.recover(dir, files);
                checkRequiredFiles(recovered);
                stored = OptionsFile.read(files, dir);
                if (stored.isPresent()) {
                    switched = PolicySwitch.check(dir, recovered.set(), stored.get().policy(), options.policy());
                }
                recovered.deleteOrphans(files);
                manifest = Manifest.reopen(recovered, options.manifest(), files);
            } else {
                clearAbandonedCreation(files, dir);
                manifest = Manifest.create(dir, ComponentSet.empty(), options.manifest(), files);
            }
            store = new LsmStore(dir, options, files, lock, manifest, false);
            store.policySwitch = switched;
            store.start(recovered);
            if (!stored.equals(Optional.of(options.stored()))) {
                OptionsFile.write(files, dir, options.stored());
            }
            return store;
        } catch (IOException | RuntimeException | Error e) {
            if (store != null) {
                store.abandon();
            } else {
                lock.close();
            }
            throw e;
        }
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
     * @throws java.nio.file.NoSuchFileException if {@code dir} holds no store (no CURRENT)
     * @throws CorruptionException as {@link #open(Path, StoreOptions)}, for what it reads
     * @throws IOException         if the store is open for writing, or an I/O operation fails
     */
    public static LsmStore openReadOnly(Path dir, StoreOptions options) throws IOException {
        return openReadOnly(dir, options, FileLayer.of(options.device(), options.writeBytesPerSecond()));
    }

    /** As {@link #openReadOnly(Path, StoreOptions)}, reading through {@code files}. */
    public static LsmStore openReadOnly(Path dir, StoreOptions options, FileLayer files) throws IOException {
        DirectoryLock lock = DirectoryLock.acquireShared(dir.resolve(LOCK_FILE),
                "the store in " + dir + " is open for writing, or already open in this process (" + LOCK_FILE
                        + " is locked)");
        LsmStore store = null;
        try {
            Recovered recovered = Manifest.recover(dir, files);
            checkRequiredFiles(recovered);
            store = new LsmStore(dir, options, files, lock, Manifest.readOnly(recovered), true);
            store.start(recovered);
            return store;
        } catch (IOException | RuntimeException | Error e) {
            if (store != null) {
                store.abandon();
            } else {
                lock.close();
            }
            throw e;
        }
    }

    /**
     * Refuses a store whose manifest requires files that are not there, tables or the live write-ahead-log
     * segment: their data would be lost silently.
     */
    private static void checkRequiredFiles(Recovered recovered) throws CorruptionException {
        if (!recovered.missingTables().isEmpty()) {
            throw new CorruptionException(recovered.manifest(), 0, Code.MISSING_FILE, "the manifest lists "
                    + "SSTables " + recovered.missingTables() + ", which are not in " + recovered.directory());
        }
        if (recovered.missingWalSegment().isPresent()) {
            String name = StoreFiles.walName(recovered.missingWalSegment().getAsLong());
            throw new CorruptionException(recovered.manifest(), 0, Code.MISSING_FILE, "the manifest's live "
                    + "write-ahead-log segment " + name + " is not in " + recovered.directory() + ": the writes it "
                    + "held that no table holds are lost. Restore the file if you can; 'bin/lsm repair --dir "
                    + recovered.directory() + "' rebuilds the store from what is left (it deletes nothing)");
        }
    }

    /**
     * A directory without CURRENT is new, or a creation that crashed before CURRENT was written, which can have
     * left only the first manifest and CURRENT.tmp ({@link AbandonedCreation}); those are deleted. Anything else of
     * the store's is a store whose CURRENT was lost: refused, deleting nothing. Other data is refused too.
     */
    private static void clearAbandonedCreation(FileLayer files, Path dir) throws IOException {
        List<Path> leftovers = AbandonedCreation.leftovers(files, dir, LOCK_FILE);
        for (Path p : leftovers) {
            files.delete(p);
        }
        if (!leftovers.isEmpty()) {
            files.syncDirectory(dir);
        }
    }

    /** Opens the tables, restores the policy state, replays the WAL and starts taking writes. */
    private void start(Recovered recovered) throws IOException {
        ComponentSet set = manifest.current();
        mutex.lock();
        try {
            for (TableRecord t : set.parents().values()) { // before the virtual tables that point at them
                tables.put(t.fileNumber(), openTable(t));
                diskBytes.addAndGet(t.fileBytes());
                flushCount = Math.max(flushCount, t.maxFlushIndex());
            }
            for (List<TableRecord> level : set.levels()) {
                for (TableRecord t : level) {
                    tables.put(t.fileNumber(), openTable(t));
                    diskBytes.addAndGet(t.fileBytes());
                    flushCount = Math.max(flushCount, t.maxFlushIndex());
                }
            }
            // A read-only store never consults its policy, whose parameters may not be the store's own.
            policyState = set.policy().filter(p -> !readOnly && p.name().equals(policy.name())).map(p -> {
                try {
                    return policy.decodeState(p.state());
                } catch (IllegalArgumentException e) {
                    throw new UncheckedIOException(new CorruptionException(manifest.path(), 0,
                            Code.INCONSISTENT_RECORD, "policy state: " + e.getMessage()));
                }
            }).orElseGet(policy::initialState);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            mutex.unlock();
        }
        lastSequence = set.lastSequence();
        List<LiveMemTable> replayed = recovered == null ? List.of() : replay(recovered.walSegments(), set);
        visible.set(lastSequence);
        if (readOnly) {
            List<LiveMemTable> immutables = new ArrayList<>(replayed);
            java.util.Collections.reverse(immutables);
            mutex.lock();
            try {
                readView = new ReadView(new LiveMemTable(new MemTable(), 0, System.currentTimeMillis()), immutables,
                        new Version(set, tables));
            } finally {
                mutex.unlock();
            }
            return;
        }
        long walNumber = manifest.newFileNumber();
        if (options.walMode() != SyncMode.OFF) {
            Path segment = dir.resolve(StoreFiles.walName(walNumber));
            try {
                wal = WalWriter.create(files, segment, options.walMode());
            } catch (IOException e) { // LogWriter.create has removed the file: no edit names it yet
                throw new IOException("cannot create the write-ahead-log segment " + segment + " (removed): "
                        + e.getMessage(), e);
            }
            files.syncDirectory(dir);
            walSegments.add(walNumber);
        }
        List<LiveMemTable> immutables = new ArrayList<>(replayed);
        java.util.Collections.reverse(immutables);
        mutex.lock();
        try {
            readView = new ReadView(new LiveMemTable(new MemTable(), walNumber, System.currentTimeMillis()),
                    immutables, new Version(set, tables));
        } finally {
            mutex.unlock();
        }
        if (replayed.isEmpty()) {
            ManifestEdit.Builder edit = oldestLiveWal(ManifestEdit.builder(), walNumber);
            if (policySwitch.isPresent()) { // otherwise the replayed MemTables' flushes record the new policy
                edit.policy(policy.name(), policyState.encode());
            }
            manifest.append(edit.build());
            deleteWalSegmentsBelow(walNumber);
        }
        for (int i = 0; i < replayed.size(); i++) {
            flushOldest();
            rethrowBackgroundError();
        }
        mutex.lock();
        try {
            scheduleMerges();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Reads the WAL segments into MemTables of at most the budget each, oldest first. Only the newest segment
     * may end torn (the crash hit its last write); a torn older segment, or damage anywhere else, is corruption.
     *
     * <p>The newest segment's crash damage is repaired here, before {@link #start} creates a newer segment: a torn
     * tail is cut off at the end of the last intact record, and a segment whose header never reached the file
     * (it holds no write) is deleted. Otherwise a second crash during this recovery, before its flushes are
     * installed, would leave the torn segment older than the one this open created, and every later open would
     * refuse the store as corrupt. For the same reason every segment replayed is synced as it now is: after a
     * process crash its tail may be in the operating system only, and a power loss would tear it.
     */
    private List<LiveMemTable> replay(List<Path> segments, ComponentSet set) throws IOException {
        List<LiveMemTable> out = new ArrayList<>();
        long flushedUpTo = set.lastSequence();
        MemTable[] current = {new MemTable()};
        long[] firstSegment = {-1};
        for (int i = 0; i < segments.size(); i++) {
            Path segment = segments.get(i);
            long number = StoreFiles.walNumber(segment.getFileName().toString()).orElseThrow();
            walSegments.add(number);
            boolean newest = i == segments.size() - 1;
            if (firstSegment[0] < 0) {
                firstSegment[0] = number;
            }
            LogTail tail;
            try {
                tail = WalReplay.replay(files, segment, batch -> {
                    for (Entry e : batch.entries()) {
                        if (e.sequence() <= flushedUpTo) {
                            continue; // already in a table: a segment flushed just before a crash
                        }
                        current[0].add(e);
                        lastSequence = Math.max(lastSequence, e.sequence());
                    }
                    if (current[0].bytes() >= options.memtableBytes()) {
                        current[0].freeze();
                        out.add(new LiveMemTable(current[0], firstSegment[0], System.currentTimeMillis()));
                        current[0] = new MemTable();
                        firstSegment[0] = number;
                    }
                });
            } catch (CorruptionException e) {
                if (newest && e.code() == Code.TRUNCATED_HEADER) {
                    // Created, then the crash came before its header was on the device: it holds no write.
                    walSegments.remove(number);
                    if (!readOnly) {
                        files.delete(segment);
                        files.syncDirectory(dir);
                    }
                    continue;
                }
                throw e;
            }
            if (tail.torn() && !newest) {
                throw new CorruptionException(segment, tail.validEnd(), Code.TORN_TAIL, "write-ahead-log segment "
                        + "ends torn (" + tail.detail() + ") but a newer segment exists, so it was complete once");
            }
            if (readOnly) {
                continue; // the torn tail, if any, was skipped in memory; the file stays as it is
            }
            try (FileChannel ch = files.open(segment, IoCause.WAL, StandardOpenOption.WRITE)) {
                if (tail.torn()) {
                    ch.truncate(tail.validEnd());
                }
                ch.force(true);
            }
        }
        if (!current[0].isEmpty()) {
            current[0].freeze();
            out.add(new LiveMemTable(current[0], firstSegment[0], System.currentTimeMillis()));
        }
        return out;
    }

    /** A handle on {@code t}; for a virtual table, over its parents' handles, which must be open. */
    private TableHandle openTable(TableRecord t) throws IOException {
        if (t.isVirtual()) {
            List<TableHandle> parents = new ArrayList<>();
            for (TableRecord p : t.parents()) {
                TableHandle h = tables.get(p.fileNumber());
                if (h == null || h.isVirtual()) {
                    throw new IllegalStateException("virtual table " + t.fileNumber() + ": parent " + p.fileNumber()
                            + " is not an open real table");
                }
                parents.add(h);
            }
            return TableHandle.virtual(t, parents);
        }
        SSTableReader reader = SSTableReader.open(files, IoCause.READ, tablePath(t.fileNumber()), cache);
        return new TableHandle(t, reader, h -> {
            files.deleteIfExists(h.path());
            diskBytes.addAndGet(-h.record().fileBytes());
        });
    }

    /**
     * Handles on tables an edit is about to add, opened before the edit is logged: once it is in the manifest,
     * installing it must not fail halfway (a logged table missing from the open ones would break every later
     * version). On failure the handles already open are released. A virtual table's parents must be open;
     * REQUIRES: the mutex, for a virtual table.
     */
    private List<TableHandle> openNew(List<TableRecord> added) throws IOException {
        List<TableHandle> opened = new ArrayList<>(added.size());
        try {
            for (TableRecord t : added) {
                opened.add(openTable(t));
            }
            return opened;
        } catch (IOException | RuntimeException e) {
            release(opened);
            throw e;
        }
    }

    /** Closes handles {@link #openNew} opened for an edit that was not logged (their files are not deleted). */
    private static void release(List<TableHandle> handles) {
        for (TableHandle h : handles) {
            h.ref();
            try {
                h.unref();
            } catch (IOException e) {
                // closing a reader that was never used; the store's error is the one that stopped the edit
            }
        }
    }

    private Path tablePath(long number) {
        return dir.resolve(StoreFiles.tableName(number));
    }

    // ------------------------------------------------------------------------------------------------ writes

    /** Inserts or replaces the value of {@code key}. */
    public void put(byte[] key, byte[] value) throws IOException {
        write(new WriteBatch().put(key, value));
    }

    /** Same as {@link #put}: the store's writes are upserts (AsterixDB's name). */
    public void upsert(byte[] key, byte[] value) throws IOException {
        put(key, value);
    }

    /** Deletes {@code key} (a tombstone; absent keys may be deleted). */
    public void delete(byte[] key) throws IOException {
        write(new WriteBatch().delete(key));
    }

    /**
     * Applies {@code batch} atomically. The batch gets its sequence numbers here; do not reuse it.
     *
     * @throws IllegalArgumentException if a key or value exceeds its limit (nothing is written)
     * @throws IOException              if the WAL write fails, or the store stopped after a background failure
     */
    public void write(WriteBatch batch) throws IOException {
        long charge = 0;
        for (WriteBatch.Op op : batch.ops()) {
            if (op.key().length > options.maxKeyBytes()) {
                throw new IllegalArgumentException("key of " + op.key().length + " bytes exceeds the limit of "
                        + options.maxKeyBytes() + " bytes (option maxKeyBytes)");
            }
            if (op.value() != null && op.value().length > options.maxValueBytes()) {
                throw new IllegalArgumentException("value of " + op.value().length + " bytes exceeds the limit of "
                        + options.maxValueBytes() + " bytes (option maxValueBytes)");
            }
            charge += op.key().length + (op.value() == null ? 0 : op.value().length) + MemTable.ENTRY_OVERHEAD_BYTES;
        }
        if (batch.count() == 0) {
            return;
        }
        WalWriter log = null;
        long ticket = 0;
        long last;
        writeLock.lock();
        try {
            checkWritable();
            makeRoom(charge);
            batch.assignSequence(lastSequence + 1);
            if (options.walMode() != SyncMode.OFF) {
                try {
                    ticket = wal.enqueue(batch.encode());
                } catch (IOException e) {
                    fail(e);
                    throw e;
                }
                log = wal;
            }
            MemTable active = readView.active().table();
            for (Entry e : batch.entries()) {
                active.add(e);
            }
            lastSequence += batch.count();
            last = lastSequence;
        } finally {
            writeLock.unlock();
        }
        if (log != null) {
            try {
                log.awaitDurable(ticket);
            } catch (IOException e) {
                fail(e);
                throw e;
            }
        }
        visible.accumulateAndGet(last, Math::max);
        userBytes.add(batch.userBytes());
        for (WriteBatch.Op op : batch.ops()) {
            (op.isDelete() ? deletes : puts).increment();
        }
    }

    private void checkWritable() throws IOException {
        if (closed) {
            throw new IllegalStateException("the store in " + dir + " is closed");
        }
        if (readOnly) {
            throw new IllegalStateException("the store in " + dir + " is open read-only");
        }
        rethrowBackgroundError();
    }

    private void rethrowBackgroundError() throws IOException {
        Throwable e = backgroundError.get();
        if (e != null) {
            throw new IOException("the store in " + dir + " stopped taking writes after a failure ("
                    + e.getMessage() + "); reopen it to recover", e);
        }
    }

    /**
     * The first failure that stopped this store taking writes (a failed WAL write or sync, or a failed background
     * flush or merge), if any: every later write fails with it as its cause, reads go on, and only a reopen
     * (close, then {@link #open}) takes writes again.
     */
    public Optional<Throwable> writeFailure() {
        return Optional.ofNullable(backgroundError.get());
    }

    /** Records the first background failure and wakes every waiter. */
    private void fail(Throwable e) {
        backgroundError.compareAndSet(null, e);
        mutex.lock();
        try {
            changed.signalAll();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Makes the active MemTable able to take {@code charge} more bytes, rotating it if full; waits (a stall)
     * while too many immutable MemTables wait for their flush. REQUIRES: the write lock.
     */
    private void makeRoom(long charge) throws IOException {
        MemTable active = readView.active().table();
        if (active.isEmpty() || active.bytes() + charge <= options.memtableBytes()) {
            return;
        }
        mutex.lock();
        try {
            long start = 0;
            while (readView.immutables().size() >= options.maxImmutableMemtables() && backgroundError.get() == null) {
                if (start == 0) {
                    start = System.nanoTime();
                }
                changed.awaitUninterruptibly();
            }
            if (start != 0) {
                long waited = System.nanoTime() - start;
                stalls++;
                stallNanos += waited;
                stallMicros.recordValue(waited / 1000);
            }
        } finally {
            mutex.unlock();
        }
        checkWritable();
        rotate();
    }

    /**
     * Freezes the active MemTable, starts a new one with a new WAL segment, and queues the flush. The old
     * segment is closed first, before the new one is created, which writes and syncs every record queued on it,
     * so all of the frozen MemTable's writes are durable and visible. REQUIRES: the write lock; the active
     * MemTable is not empty.
     */
    private void rotate() throws IOException {
        long number = manifest.newFileNumber();
        if (options.walMode() != SyncMode.OFF) {
            try {
                // The old segment is whole on the device before a newer one exists: recovery takes a torn segment
                // with a newer one after it as corruption, since the newer one proves it was complete once.
                wal.close();
                wal = WalWriter.create(files, dir.resolve(StoreFiles.walName(number)), options.walMode());
                files.syncDirectory(dir);
            } catch (IOException e) {
                fail(e);
                throw e;
            }
        }
        mutex.lock();
        try {
            if (options.walMode() != SyncMode.OFF) {
                walSegments.add(number);
            }
            ReadView rv = readView;
            rv.active().table().freeze();
            visible.accumulateAndGet(lastSequence, Math::max);
            List<LiveMemTable> immutables = new ArrayList<>(rv.immutables().size() + 1);
            immutables.add(rv.active());
            immutables.addAll(rv.immutables());
            readView = new ReadView(new LiveMemTable(new MemTable(), number, System.currentTimeMillis()), immutables,
                    rv.version());
            changed.signalAll();
        } finally {
            mutex.unlock();
        }
        flusher.execute(() -> {
            try {
                flushOldest();
            } catch (Throwable e) {
                fail(e);
            }
        });
    }

    // ------------------------------------------------------------------------------------------------ flushes

    /** Flushes the oldest immutable MemTable, if any, and installs the result. Runs on one thread at a time. */
    private void flushOldest() throws IOException {
        if (backgroundError.get() != null) {
            return;
        }
        List<LiveMemTable> immutables = readView.immutables();
        if (immutables.isEmpty()) {
            return;
        }
        LiveMemTable m = immutables.get(immutables.size() - 1);
        long start = System.nanoTime();
        long flushIndex = flushCount + 1;
        long maxSequence = m.table().maxSequence();
        long oldestTombstone = m.table().tombstones() > 0 ? m.createdMillis() : Long.MAX_VALUE;
        if (options.mergeOrder() == MergeOrder.MERGE_MEMTABLE) {
            flushByMerging(m, flushIndex, oldestTombstone, start);
            return;
        }
        Iterator<Entry> entries = new VersionCollapse(m.table().iterator(), liveSnapshots(), false);
        List<TableRecord> out = writeTables(entries, OutputCutter.of(OutputCut.SINGLE_FILE), 0,
                IoCause.FLUSH, flushIndex, flushIndex, oldestTombstone, true);
        long flushed = out.stream().mapToLong(TableRecord::fileBytes).sum();
        files.syncDirectory(dir);
        List<TableHandle> opened = openNew(out);
        long nextWal;
        mutex.lock();
        try {
            boolean logged = false;
            ReadView rv;
            List<LiveMemTable> rest;
            try {
                waitWhileMergeLags();
                rv = readView;
                rest = new ArrayList<>(rv.immutables());
                rest.remove(rest.size() - 1);
                nextWal = rest.isEmpty() ? rv.active().walNumber() : rest.get(rest.size() - 1).walNumber();
                ComponentSet current = manifest.current();
                ComponentSet after = preview(current, out, List.of());
                PolicyState state = policy.onFlush(policyState, view(after));
                manifest.append(flushEdit(out, current, maxSequence, nextWal, state));
                logged = true;
                policyState = state;
            } finally {
                if (!logged) {
                    release(opened);
                }
            }
            flushCount = flushIndex;
            for (int i = 0; i < out.size(); i++) {
                tables.put(out.get(i).fileNumber(), opened.get(i));
            }
            tableBytes += out.stream().mapToLong(TableRecord::fileBytes).sum();
            completeFlush(rv, rest, start);
        } finally {
            mutex.unlock();
        }
        deleteWalSegmentsBelow(nextWal);
    }

    /**
     * Publishes the installed flush (the MemTable leaves the read view as its tables enter it), counts it, and
     * consults the policy. REQUIRES: the mutex; the manifest holds the flush.
     */
    private void completeFlush(ReadView before, List<LiveMemTable> rest, long start) {
        install(new ReadView(before.active(), rest, new Version(manifest.current(), tables)));
        flushes++;
        componentSum += readView.components();
        flushMicros.recordValue((System.nanoTime() - start) / 1000);
        java.util.function.Consumer<FlushSample> listener = flushListener;
        if (listener != null) {
            listener.accept(takeSample());
        }
        scheduleMerges();
    }

    /** A table the MERGE_MEMTABLE plan keeps: the real tables it replaces, and whether it holds the MemTable. */
    private record PlannedTable(int level, List<Long> realInputs, boolean withMemTable) {
    }

    /**
     * {@link MergeOrder#MERGE_MEMTABLE}: shows the policy the MemTable as the newest SSTable (size estimated),
     * plans the whole cascade it asks for on previews of the component set, then writes each table that
     * survives the step once, straight from the MemTable and the old tables it covers, and installs them:
     * first each merge that leaves the MemTable out (one edit each, so the stack keeps its order), then the
     * table holding the MemTable with the WAL and policy state. A crash between edits leaves a consistent set
     * and the MemTable's WAL.
     */
    private void flushByMerging(LiveMemTable m, long flushIndex, long oldestTombstone, long start)
            throws IOException {
        MemTable mem = m.table();
        // One pass over what the flush would write: its file size estimate and its data bytes.
        long[] dataBytesOut = {0};
        Iterator<Entry> collapsed = new VersionCollapse(mem.iterator(), liveSnapshots(), false);
        long estimate = SSTableWriter.estimateFileBytes(new Iterator<>() {
            @Override
            public boolean hasNext() {
                return collapsed.hasNext();
            }

            @Override
            public Entry next() {
                Entry e = collapsed.next();
                dataBytesOut[0] += e.key().length + e.value().length;
                return e;
            }
        }, options.sstable());
        long dataBytes = dataBytesOut[0];
        List<PlannedTable> plan = new ArrayList<>();
        PolicyState state;
        Set<Long> planned = new HashSet<>();
        mutex.lock();
        try {
            waitWhileMergeLags();
            long flushId = manifest.newFileNumber();
            TableRecord flushRecord = new TableRecord(flushId, 0, estimate, mem.size(), mem.tombstones(),
                    mem.first().key(), mem.last().key(), mem.minSequence(), mem.maxSequence(), flushIndex, flushIndex,
                    m.createdMillis(), oldestTombstone, dataBytes);
            ComponentSet set = preview(manifest.current(), List.of(flushRecord), List.of());
            state = policy.onFlush(policyState, view(set));
            Map<Long, List<Long>> origins = new HashMap<>();
            origins.put(flushId, List.of(flushId));
            for (int jobs = 0; ; jobs++) {
                if (jobs > MAX_JOBS_PER_CONSULTATION) {
                    throw new IllegalStateException("policy " + policy.name() + " asked for more than "
                            + MAX_JOBS_PER_CONSULTATION + " merges after flush " + flushIndex);
                }
                Decision d = policy.decide(view(set), state);
                state = d.state();
                if (d.jobs().isEmpty()) {
                    break;
                }
                for (MergeJob job : d.jobs()) {
                    if (job.kind() != MergeKind.REAL || job.outputLevel() != 0
                            || !(job.cut() instanceof OutputCut.SingleFile)) {
                        throw new UnsupportedOperationException("merge order MERGE_MEMTABLE plans stack merges "
                                + "only (real merges into one level-0 table); policy " + policy.name()
                                + " asked for a " + job.kind() + " into level " + job.outputLevel() + " cut "
                                + job.cut() + ": use FLUSH_THEN_MERGE with it");
                    }
                    List<TableRecord> inputs = new ArrayList<>();
                    List<Long> from = new ArrayList<>();
                    for (SSTableInfo info : job.inputs()) {
                        inputs.add(set.table(info.id()).orElseThrow());
                        List<Long> o = origins.remove(info.id());
                        from.addAll(o != null ? o : List.of(info.id()));
                    }
                    TableRecord merged = combine(manifest.newFileNumber(), job.outputLevel(), inputs);
                    origins.put(merged.fileNumber(), from);
                    set = preview(set, List.of(merged), inputs.stream().map(TableRecord::fileNumber).toList());
                }
            }
            for (Map.Entry<Long, List<Long>> e : origins.entrySet()) {
                List<Long> real = e.getValue().stream().filter(id -> id != flushId).toList();
                plan.add(new PlannedTable(set.table(e.getKey()).orElseThrow().level(), real,
                        e.getValue().contains(flushId)));
                planned.addAll(real);
            }
            plan.sort(java.util.Comparator.comparing(PlannedTable::withMemTable));
            compacting.addAll(planned);
            flushedBytes.addAndGet(estimate);
        } finally {
            mutex.unlock();
        }
        List<List<TableRecord>> outputs = new ArrayList<>();
        long nextWal;
        try {
            for (PlannedTable p : plan) {
                List<TableHandle> inputs = new ArrayList<>();
                boolean bottommost;
                mutex.lock();
                try {
                    p.realInputs().forEach(id -> inputs.add(tables.get(id)));
                    bottommost = !inputs.isEmpty() && isBottommost(inputs, inputs, p.withMemTable() ? Long.MAX_VALUE : 0);
                } finally {
                    mutex.unlock();
                }
                outputs.add(mergeTables(inputs, p.withMemTable() ? m : null, flushIndex,
                        OutputCutter.of(OutputCut.SINGLE_FILE),
                        p.level(), bottommost));
            }
            files.syncDirectory(dir);
            // Every output is opened before the first edit is logged (see openNew); those of edits not logged
            // are released at the end.
            List<List<TableHandle>> opened = new ArrayList<>();
            int logged = 0;
            try {
                for (List<TableRecord> out : outputs) {
                    opened.add(openNew(out));
                }
                mutex.lock();
                try {
                    ReadView rv = readView;
                    List<LiveMemTable> rest = new ArrayList<>(rv.immutables());
                    rest.remove(rest.size() - 1);
                    nextWal = rest.isEmpty() ? rv.active().walNumber() : rest.get(rest.size() - 1).walNumber();
                    for (int i = 0; i < plan.size(); i++) {
                        PlannedTable p = plan.get(i);
                        List<TableRecord> out = outputs.get(i);
                        ComponentSet current = manifest.current();
                        ManifestEdit.Builder b = ManifestEdit.builder();
                        p.realInputs().forEach(b::removeFile);
                        out.forEach(b::addTable);
                        if (p.withMemTable()) {
                            b.lastSequence(Math.max(current.lastSequence(), mem.maxSequence()))
                                    .policy(policy.name(), state.encode());
                            oldestLiveWal(b, Math.max(current.walNumber(), nextWal));
                        }
                        long inputBytes = 0;
                        manifest.append(b.build());
                        logged++;
                        for (long id : p.realInputs()) {
                            TableHandle h = tables.remove(id);
                            inputBytes += h.record().fileBytes();
                            h.markObsolete();
                        }
                        long written = 0;
                        for (int j = 0; j < out.size(); j++) {
                            tables.put(out.get(j).fileNumber(), opened.get(i).get(j));
                            written += out.get(j).fileBytes();
                        }
                        tableBytes += written;
                        if (!p.realInputs().isEmpty()) {
                            merges++;
                            mergeInputBytes += inputBytes;
                            mergeOutputBytes += written;
                            mergeBytes.recordValue(written);
                        }
                    }
                    policyState = state;
                    flushCount = flushIndex;
                    compacting.removeAll(planned);
                    completeFlush(rv, rest, start);
                } finally {
                    mutex.unlock();
                }
            } finally {
                for (int i = logged; i < opened.size(); i++) {
                    release(opened.get(i));
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            mutex.lock();
            try {
                compacting.removeAll(planned);
            } finally {
                mutex.unlock();
            }
            throw e;
        }
        deleteWalSegmentsBelow(nextWal);
    }

    /** {@code set} with {@code added} and without {@code removed}, for planning (nothing is logged). */
    private static ComponentSet preview(ComponentSet set, List<TableRecord> added, List<Long> removed) {
        ManifestEdit.Builder b = ManifestEdit.builder();
        removed.forEach(b::removeFile);
        long next = set.nextFileNumber();
        for (TableRecord t : added) {
            b.addTable(t);
            next = Math.max(next, t.fileNumber() + 1);
        }
        return set.apply(b.nextFileNumber(next).build());
    }

    /** The record a merge of {@code inputs} would have if nothing were dropped (sizes add up). */
    private static TableRecord combine(long number, int level, List<TableRecord> inputs) {
        long bytes = 0;
        long entries = 0;
        long tombstones = 0;
        byte[] minKey = null;
        byte[] maxKey = null;
        long minSeq = Long.MAX_VALUE;
        long maxSeq = Long.MIN_VALUE;
        long minFlush = Long.MAX_VALUE;
        long maxFlush = Long.MIN_VALUE;
        long oldestTombstone = Long.MAX_VALUE;
        long data = 0;
        for (TableRecord t : inputs) {
            data += t.dataBytes();
            bytes += t.fileBytes();
            entries += t.entries();
            tombstones += t.tombstones();
            minKey = minKey == null || Arrays.compareUnsigned(t.minKey(), minKey) < 0 ? t.minKey() : minKey;
            maxKey = maxKey == null || Arrays.compareUnsigned(t.maxKey(), maxKey) > 0 ? t.maxKey() : maxKey;
            minSeq = Math.min(minSeq, t.minSequence());
            maxSeq = Math.max(maxSeq, t.maxSequence());
            minFlush = Math.min(minFlush, t.minFlushIndex());
            maxFlush = Math.max(maxFlush, t.maxFlushIndex());
            oldestTombstone = Math.min(oldestTombstone, t.oldestTombstoneMillis());
        }
        return new TableRecord(number, level, bytes, entries, tombstones, minKey, maxKey, minSeq, maxSeq, minFlush,
                maxFlush, System.currentTimeMillis(), oldestTombstone, data);
    }

    private ManifestEdit flushEdit(List<TableRecord> out, ComponentSet current, long maxSequence, long nextWal,
            PolicyState state) {
        ManifestEdit.Builder b = ManifestEdit.builder();
        out.forEach(b::addTable);
        b.lastSequence(Math.max(current.lastSequence(), maxSequence)).policy(policy.name(), state.encode());
        return oldestLiveWal(b, Math.max(current.walNumber(), nextWal)).build();
    }

    /**
     * Records {@code number} as the oldest live write-ahead-log segment, and, with the log on, that the segment
     * exists (it was created before any edit names it), so that an open or {@code verify} reports it missing.
     */
    private ManifestEdit.Builder oldestLiveWal(ManifestEdit.Builder b, long number) {
        b.walNumber(number);
        if (options.walMode() != SyncMode.OFF) {
            b.walSegment(number);
        }
        return b;
    }

    /** Waits (measured) while the policy says merging lags. REQUIRES: the mutex. */
    private void waitWhileMergeLags() {
        long start = 0;
        while (backgroundError.get() == null
                && policy.isMergeLagging(view(manifest.current()), policyState)) {
            if (runningMerges == 0) {
                scheduleMerges();
                if (runningMerges == 0) {
                    break; // nothing runs that could end the lag: waiting would never end
                }
            }
            if (start == 0) {
                start = System.nanoTime();
            }
            changed.awaitUninterruptibly();
        }
        if (start != 0) {
            mergeLagNanos += System.nanoTime() - start;
        }
    }

    private void deleteWalSegmentsBelow(long number) throws IOException {
        List<Long> obsolete;
        mutex.lock();
        try {
            obsolete = new ArrayList<>(walSegments.headSet(number));
            walSegments.removeAll(obsolete);
        } finally {
            mutex.unlock();
        }
        for (long n : obsolete) {
            files.deleteIfExists(dir.resolve(StoreFiles.walName(n)));
        }
    }

    /** Publishes {@code next} and releases the store's reference on the version it replaces. REQUIRES: mutex. */
    private void install(ReadView next) {
        Version old = readView.version();
        readView = next;
        if (old != next.version()) {
            old.unref();
        }
        changed.signalAll();
    }

    /**
     * Writes {@code entries} as SSTables of {@code level}, cut as {@code cut} says (never between two versions of
     * one key). Each finished file is forced to the device. On failure, every file written is deleted.
     *
     * @return the new tables; empty if {@code entries} was empty
     */
    private List<TableRecord> writeTables(Iterator<Entry> entries, OutputCutter cutter, int level, IoCause cause,
            long minFlush, long maxFlush, long oldestTombstone, boolean countsAsFlushed) throws IOException {
        List<TableRecord> out = new ArrayList<>();
        SSTableWriter writer = null;
        long number = 0;
        byte[] lastKey = null;
        try {
            while (entries.hasNext()) {
                Entry e = entries.next();
                if (!Arrays.equals(lastKey, e.key())
                        && cutter.cutBefore(e.key(), writer == null ? 0 : writer.bytesWritten()) && writer != null) {
                    out.add(finishTable(writer, number, level, countsAsFlushed, oldestTombstone));
                    writer = null;
                }
                if (writer == null) {
                    number = manifest.newFileNumber();
                    writer = SSTableWriter.create(files, cause, tablePath(number),
                            options.sstable(), minFlush, maxFlush, System.currentTimeMillis());
                }
                writer.add(e);
                lastKey = e.key();
            }
            if (writer != null) {
                out.add(finishTable(writer, number, level, countsAsFlushed, oldestTombstone));
                writer = null;
            }
            return out;
        } catch (IOException | RuntimeException | Error e) {
            if (writer != null) {
                try {
                    writer.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            for (TableRecord t : out) {
                files.deleteIfExists(tablePath(t.fileNumber()));
                diskBytes.addAndGet(-t.fileBytes());
            }
            throw e;
        }
    }

    private TableRecord finishTable(SSTableWriter writer, long number, int level,
            boolean countsAsFlushed, long oldestTombstone) throws IOException {
        var meta = writer.finish(oldestTombstone);
        writer.close();
        long bytes = files.size(tablePath(number));
        long flushed = countsAsFlushed ? flushedBytes.addAndGet(bytes) : flushedBytes.get();
        long onDisk = diskBytes.addAndGet(bytes);
        peakDiskBytes.accumulateAndGet(onDisk, Math::max);
        synchronized (flushMicros) {
            transientMax = Math.max(transientMax, (double) onDisk / Math.max(1, flushed));
        }
        return TableRecord.of(number, level, bytes, meta);
    }

    // ------------------------------------------------------------------------------------------------ merges

    /**
     * The policy's view of {@code set}: running merges' inputs marked compacting, each table's last access its
     * last read (its creation time if never read). REQUIRES: the mutex.
     */
    private TreeView view(ComponentSet set) {
        return PolicyViews.of(set, compacting, t -> {
            TableHandle h = tables.get(t.fileNumber());
            return h != null ? h.lastAccessMillis() : t.createdMillis();
        });
    }

    /** The key range a running merge writes into a level >= 1 (its inputs' union range). */
    private record OutputRange(int level, byte[] minKey, byte[] maxKey, MergeJob job) {
        boolean overlaps(OutputRange o) {
            return level == o.level && Arrays.compareUnsigned(minKey, o.maxKey) <= 0
                    && Arrays.compareUnsigned(o.minKey, maxKey) <= 0;
        }

        static OutputRange of(MergeJob job) {
            byte[] min = null;
            byte[] max = null;
            for (SSTableInfo t : job.inputs()) {
                byte[] lo = t.minKey().toByteArray();
                byte[] hi = t.maxKey().toByteArray();
                min = min == null || Arrays.compareUnsigned(lo, min) < 0 ? lo : min;
                max = max == null || Arrays.compareUnsigned(hi, max) > 0 ? hi : max;
            }
            return new OutputRange(job.outputLevel(), min, max, job);
        }
    }

    /**
     * Consults the policy until it asks for nothing, and starts each job it returns. A decision with a job
     * whose output range in a level >= 1 overlaps a running merge's output range in that level is set aside
     * whole (its state too), and the policy is asked again when a merge finishes: two merges writing
     * overlapping tables into one level would break the level's sorted run. REQUIRES: the mutex.
     */
    private void scheduleMerges() {
        if (closing || manualCompaction || backgroundError.get() != null) {
            return;
        }
        for (int i = 0; i < MAX_JOBS_PER_CONSULTATION; i++) {
            Decision d = policy.decide(view(manifest.current()), policyState);
            if (d.jobs().isEmpty()) {
                policyState = d.state();
                return;
            }
            for (MergeJob job : d.jobs()) {
                OutputRange range = OutputRange.of(job);
                if (job.outputLevel() > 0 && runningRanges.stream().anyMatch(range::overlaps)) {
                    return;
                }
            }
            policyState = d.state();
            for (MergeJob job : d.jobs()) {
                start(job);
            }
        }
        fail(new IllegalStateException("policy " + policy.name() + " asked for more than "
                + MAX_JOBS_PER_CONSULTATION + " merges in one consultation"));
    }

    /** Marks the job's inputs and hands it to the merge pool. REQUIRES: the mutex. */
    private void start(MergeJob job) {
        for (SSTableInfo t : job.inputs()) {
            if (!tables.containsKey(t.id()) || compacting.contains(t.id())) {
                throw new IllegalStateException("policy " + policy.name() + " asked to merge SSTable " + t.id()
                        + ", which is " + (tables.containsKey(t.id()) ? "already being merged" : "not live"));
            }
        }
        job.inputs().forEach(t -> compacting.add(t.id()));
        if (job.outputLevel() > 0) {
            runningRanges.add(OutputRange.of(job));
        }
        runningMerges++;
        mergers.execute(() -> runMerge(job));
    }

    /**
     * Runs one job and installs its result; a failure stops the store's writes (see the class comment). A real
     * merge reads the real tables behind its inputs (a virtual input's parents); a virtual merge reads nothing
     * and installs one virtual table over the same real tables (delayed compaction).
     */
    private void runMerge(MergeJob job) {
        long start = System.nanoTime();
        List<TableRecord> out = List.of();
        // Set just before the manifest append: from then on the edit may be in the manifest file even if the
        // append fails (written, then the sync failed), so its output tables must stay (see the catch below).
        boolean logged = false;
        try {
            List<TableHandle> inputs = new ArrayList<>();
            List<TableHandle> reads = new ArrayList<>();
            boolean bottommost;
            OutputCutter cutter;
            mutex.lock();
            try {
                for (SSTableInfo t : job.inputs()) {
                    TableHandle h = tables.get(t.id());
                    inputs.add(h);
                    reads.addAll(h.realTables());
                }
                bottommost = isBottommost(inputs, reads, 0);
                List<TableRecord> grandparents = manifest.current().level(job.outputLevel() + 1);
                cutter = OutputCutter.of(job.cut(), grandparents.stream().map(TableRecord::minKey)
                        .toArray(byte[][]::new), grandparents.stream().map(TableRecord::maxKey)
                        .toArray(byte[][]::new), grandparents.stream().mapToLong(TableRecord::fileBytes).toArray());
            } finally {
                mutex.unlock();
            }
            long inputBytes = reads.stream().mapToLong(h -> h.record().fileBytes()).sum();
            ManifestEdit.Builder edit = ManifestEdit.builder();
            inputs.forEach(h -> edit.removeFile(h.fileNumber()));
            TableRecord virtual = null;
            TableRecord moved = null;
            if (job.kind() == MergeKind.TRIVIAL_MOVE) {
                moved = inputs.get(0).record().atLevel(job.outputLevel());
                edit.addTable(moved);
            } else if (job.kind() == MergeKind.REAL) {
                out = mergeTables(reads, null, 0, cutter, job.outputLevel(), bottommost);
                out.forEach(edit::addTable);
                files.syncDirectory(dir);
            } else {
                if (job.outputLevel() == 0) {
                    throw new IllegalStateException("policy " + policy.name() + " asked for a virtual merge into "
                            + "level 0 (" + job.reason() + "); virtual tables live in levels >= 1");
                }
                virtual = TableRecord.virtual(manifest.newFileNumber(), job.outputLevel(),
                        System.currentTimeMillis(), reads.stream().map(TableHandle::record).toList());
                edit.addTable(virtual);
            }
            mutex.lock();
            try {
                edit.policy(policy.name(), policyState.encode());
                ManifestEdit built = edit.build();
                checkLevelsStaySorted(manifest.current(), built, job);
                List<TableRecord> added = moved != null ? List.of(moved) : virtual != null ? List.of(virtual) : out;
                List<TableHandle> opened = openNew(added);
                logged = true;
                try {
                    manifest.append(built);
                } catch (IOException | RuntimeException e) {
                    release(opened);
                    throw e;
                }
                if (job.kind() == MergeKind.TRIVIAL_MOVE) {
                    // Same number, new record: the old handle closes when its versions go (never deleting a file).
                    tables.remove(moved.fileNumber());
                    tables.put(moved.fileNumber(), opened.get(0));
                } else {
                    for (int i = 0; i < added.size(); i++) {
                        tables.put(added.get(i).fileNumber(), opened.get(i));
                    }
                    if (virtual != null) {
                        virtualMerges++;
                    } else {
                        merges++;
                        mergeInputBytes += inputBytes;
                        long written = out.stream().mapToLong(TableRecord::fileBytes).sum();
                        mergeOutputBytes += written;
                        tableBytes += written;
                        mergeBytes.recordValue(written);
                    }
                    dropDeadHandles();
                }
                ReadView rv = readView;
                install(new ReadView(rv.active(), rv.immutables(), new Version(manifest.current(), tables)));
                mergeMicros.recordValue((System.nanoTime() - start) / 1000);
            } finally {
                mutex.unlock();
            }
        } catch (Throwable e) {
            // A failed append may still have reached the file: the next open would replay the edit and find its
            // tables missing. Kept, they are either live or orphans that the next open deletes.
            if (!logged) {
                for (TableRecord t : out) {
                    try {
                        files.deleteIfExists(tablePath(t.fileNumber()));
                        diskBytes.addAndGet(-t.fileBytes());
                    } catch (IOException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
            }
            fail(e);
        } finally {
            mutex.lock();
            try {
                job.inputs().forEach(t -> compacting.remove(t.id()));
                runningRanges.removeIf(r -> r.job() == job);
                runningMerges--;
                changed.signalAll();
                scheduleMerges();
            } catch (Throwable e) {
                fail(e);
            } finally {
                mutex.unlock();
            }
        }
    }

    /**
     * Forgets the handles of tables that are no longer live (in no level and no virtual table's parent): a real
     * one is marked obsolete, so its file goes once no version or virtual table holds it. REQUIRES: the mutex.
     */
    private void dropDeadHandles() {
        ComponentSet set = manifest.current();
        Set<Long> files = set.fileNumbers();
        for (var it = tables.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            long n = e.getKey();
            if (files.contains(n) || set.table(n).isPresent()) {
                continue;
            }
            it.remove();
            virtualReadsAsked.remove(n);
            if (!e.getValue().isVirtual()) {
                e.getValue().markObsolete();
            }
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
    private void considerMaterializing(List<TableHandle> met) {
        if (readOnly) {
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
            mergers.execute(() -> materializeOnRead(fresh));
        } catch (RejectedExecutionException e) {
            virtualReadsAsked.removeAll(fresh); // closing
            pendingReadQuestions.decrementAndGet();
        }
    }

    private void materializeOnRead(List<Long> numbers) {
        mutex.lock();
        try {
            pendingReadQuestions.decrementAndGet(); // a job it starts counts as running from here
            changed.signalAll();
            if (closing || manualCompaction || backgroundError.get() != null) {
                virtualReadsAsked.removeAll(numbers);
                return;
            }
            TreeView view = view(manifest.current());
            for (int i = 0; i < numbers.size(); i++) {
                long number = numbers.get(i);
                Optional<MergeJob> job = askOnVirtualRead(view, number);
                if (job.isEmpty()) {
                    continue;
                }
                virtualReadsAsked.removeAll(numbers.subList(i + 1, numbers.size())); // not asked: a later read asks
                OutputRange range = OutputRange.of(job.get());
                if (job.get().outputLevel() > 0 && runningRanges.stream().anyMatch(range::overlaps)) {
                    virtualReadsAsked.remove(number); // a later read asks again
                    return;
                }
                start(job.get());
                return;
            }
        } catch (Throwable e) {
            fail(e);
        } finally {
            mutex.unlock();
        }
    }

    /** The policy's materialising job for live, idle virtual table {@code number}, if any. REQUIRES: the mutex. */
    private Optional<MergeJob> askOnVirtualRead(TreeView view, long number) {
        if (!tables.containsKey(number) || compacting.contains(number)) {
            return Optional.empty();
        }
        for (var level : view.levels()) {
            for (var run : level.runs()) {
                for (SSTableInfo t : run.tables()) {
                    if (t.id() == number) {
                        return policy.onVirtualRead(view, policyState, t);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Refuses an install that would leave two overlapping tables in a level >= 1 (each such level must stay
     * one sorted run): a policy that asked for it left out an overlapping table of the output level.
     *
     * @throws IllegalStateException naming the job, the level and the two tables
     */
    private void checkLevelsStaySorted(ComponentSet current, ManifestEdit edit, MergeJob job) {
        ComponentSet after = preview(current, edit.added(), edit.removed());
        for (int level = 1; level < after.levels().size(); level++) {
            List<TableRecord> tablesOfLevel = after.level(level);
            for (int i = 1; i < tablesOfLevel.size(); i++) {
                TableRecord a = tablesOfLevel.get(i - 1);
                TableRecord b = tablesOfLevel.get(i);
                if (Arrays.compareUnsigned(a.maxKey(), b.minKey()) >= 0) {
                    throw new IllegalStateException("policy " + policy.name() + "'s job (" + job.reason()
                            + ") would leave tables " + a.fileNumber() + " and " + b.fileNumber()
                            + " overlapping in level " + level + "; a job into a level >= 1 must take every "
                            + "table of that level its key range overlaps");
                }
            }
        }
    }

    /**
     * Whether no table outside {@code inputs} (and {@code reads}, the real tables behind them) can hold an older
     * version of a key inside them, so a tombstone
     * with nothing older behind it can be dropped. MemTables only hold newer versions; {@code newerThanInputs}
     * is the newest sequence merged besides the inputs (a MemTable's), or 0. REQUIRES: the mutex.
     */
    private boolean isBottommost(List<TableHandle> inputs, List<TableHandle> reads, long newerThanInputs) {
        Set<Long> ids = new HashSet<>();
        long maxSequence = newerThanInputs;
        for (TableHandle h : inputs) {
            ids.add(h.fileNumber());
            maxSequence = Math.max(maxSequence, h.record().maxSequence());
        }
        for (TableHandle h : reads) { // a virtual input's parents are inputs too
            ids.add(h.fileNumber());
        }
        for (TableHandle t : tables.values()) {
            if (ids.contains(t.fileNumber()) || t.record().minSequence() > maxSequence) {
                continue;
            }
            for (TableHandle h : inputs) {
                if (h.overlaps(t.record())) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * k-way merge of {@code mem} (if not null: the newest source) and the {@code inputs}, read through their own
     * readers (I/O charged to merges, not the block cache), written as {@code level} tables cut by {@code cut}.
     */
    private List<TableRecord> mergeTables(List<TableHandle> inputs, LiveMemTable mem, long memFlushIndex,
            OutputCutter cut, int level, boolean bottommost) throws IOException {
        List<SSTableReader> readers = new ArrayList<>();
        try {
            List<Iterator<Entry>> sources = new ArrayList<>();
            long minFlush = Long.MAX_VALUE;
            long maxFlush = Long.MIN_VALUE;
            long oldestTombstone = Long.MAX_VALUE;
            if (mem != null) {
                sources.add(mem.table().iterator());
                minFlush = memFlushIndex;
                maxFlush = memFlushIndex;
                oldestTombstone = mem.table().tombstones() > 0 ? mem.createdMillis() : Long.MAX_VALUE;
            }
            for (TableHandle h : inputs) {
                SSTableReader r = SSTableReader.open(files, IoCause.MERGE, h.path(), NO_CACHE);
                readers.add(r);
                sources.add(r.scan(MERGE_READ_AHEAD_BYTES));
                minFlush = Math.min(minFlush, h.record().minFlushIndex());
                maxFlush = Math.max(maxFlush, h.record().maxFlushIndex());
                oldestTombstone = Math.min(oldestTombstone, h.record().oldestTombstoneMillis());
            }
            Iterator<Entry> merged = new VersionCollapse(new MergingIterator(sources), liveSnapshots(), bottommost);
            try {
                return writeTables(merged, cut, level, inputs.isEmpty() ? IoCause.FLUSH : IoCause.MERGE, minFlush,
                        maxFlush, oldestTombstone, false);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        } finally {
            for (SSTableReader r : readers) {
                r.close();
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ reads

    /** The current value of {@code key}, or null if absent or deleted. */
    public byte[] get(byte[] key) throws IOException {
        return get(key, -1);
    }

    /** The value of {@code key} as of {@code snapshot}, or null. */
    public byte[] get(byte[] key, Snapshot snapshot) throws IOException {
        return get(key, snapshot.checkedSequence());
    }

    /**
     * A read at {@code snapshot}, or (-1) at the newest acknowledged write. The latter reads the sequence
     * number after taking the view: every version a flush or merge in that view dropped was superseded by
     * one at or below that number, so the read sees the newest; reading it before could meet a view whose
     * flush dropped the version it needs.
     */
    private byte[] get(byte[] key, long snapshot) throws IOException {
        ReadView rv = acquire();
        long sequence = snapshot >= 0 ? snapshot : visible.get();
        try {
            gets.increment();
            Entry e = rv.active().table().get(key, sequence);
            for (int i = 0; e == null && i < rv.immutables().size(); i++) {
                e = rv.immutables().get(i).table().get(key, sequence);
            }
            if (e == null) {
                e = getFromTables(rv.version(), key, sequence);
            }
            return e == null || e.tombstone() ? null : e.value();
        } finally {
            rv.version().unref();
        }
    }

    /**
     * Level 0 newest first, then one table per deeper level found by key range; the first version found wins. A
     * virtual table is read through its parents; the virtual tables a read meets are offered for materialising
     * (see {@link #considerMaterializing}).
     */
    private Entry getFromTables(Version v, byte[] key, long sequence) throws IOException {
        List<TableHandle> metVirtual = new ArrayList<>(0);
        try {
            return search(v, key, sequence, metVirtual);
        } finally {
            if (!metVirtual.isEmpty()) {
                considerMaterializing(metVirtual);
            }
        }
    }

    /** {@link #getFromTables}'s search; adds each virtual table it reads through to {@code metVirtual}. */
    private Entry search(Version v, byte[] key, long sequence, List<TableHandle> metVirtual) throws IOException {
        List<List<TableHandle>> levels = v.levels();
        for (int level = 0; level < levels.size(); level++) {
            List<TableHandle> candidates = levels.get(level);
            if (level > 0) {
                TableHandle t = findCovering(candidates, key);
                candidates = t == null ? List.of() : List.of(t);
            }
            for (TableHandle t : candidates) {
                if (t.isVirtual() && t.covers(key)) {
                    metVirtual.add(t);
                    t.touch();
                    Entry e = getFromParents(t, key, sequence);
                    if (e != null) {
                        return e;
                    }
                    continue;
                }
                if (!t.covers(key) || !t.reader().mightContain(key)) {
                    continue;
                }
                tablesProbed.increment();
                t.touch();
                Entry e = t.reader().get(key, sequence);
                if (e != null) {
                    return e;
                }
            }
        }
        return null;
    }

    /**
     * The newest version of {@code key} at or below {@code sequence} among a virtual table's parents, which may
     * overlap: they are tried newest first (by largest sequence), skipped by key range and Bloom filter, and the
     * search stops at a parent whose largest sequence is below the best version found.
     */
    private Entry getFromParents(TableHandle virtual, byte[] key, long sequence) throws IOException {
        Entry best = null;
        for (TableHandle p : virtual.parents()) {
            if (best != null && p.record().maxSequence() < best.sequence()) {
                break;
            }
            if (!p.covers(key) || !p.reader().mightContain(key)) {
                continue;
            }
            tablesProbed.increment();
            Entry e = p.reader().get(key, sequence);
            if (e != null && (best == null || e.sequence() > best.sequence())) {
                best = e;
            }
        }
        return best;
    }

    /** The table of a key-partitioned level whose range holds {@code key}, by binary search; or null. */
    private static TableHandle findCovering(List<TableHandle> level, byte[] key) {
        int lo = 0;
        int hi = level.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            TableHandle t = level.get(mid);
            if (t.endsBefore(key)) {
                lo = mid + 1;
            } else if (t.covers(key)) {
                return t;
            } else {
                hi = mid - 1;
            }
        }
        return null;
    }

    /**
     * The keys in {@code [from, to)} (null bounds are open), newest values, deleted keys left out. Close the
     * iterator.
     */
    public StoreIterator scan(byte[] from, byte[] to) throws IOException {
        return scan(from, to, -1);
    }

    /** As {@link #scan(byte[], byte[])}, as of {@code snapshot}. */
    public StoreIterator scan(byte[] from, byte[] to, Snapshot snapshot) throws IOException {
        return scan(from, to, snapshot.checkedSequence());
    }

    /** As {@link #get(byte[], long)}: -1 reads the newest acknowledged write, its number taken after the view. */
    private StoreIterator scan(byte[] from, byte[] to, long snapshot) throws IOException {
        ReadView rv = acquire();
        return new StoreIterator(rv, from, to, snapshot >= 0 ? snapshot : visible.get());
    }

    /**
     * Measures space amplification by a full scan of one consistent view (O(store): for reports, not for a
     * hot path).
     */
    public SpaceUsage spaceUsage() throws IOException {
        ReadView rv = acquire();
        long onDisk = rv.version().tables().stream().flatMap(t -> t.realTables().stream())
                .mapToLong(t -> t.record().fileBytes()).sum();
        long entries = 0;
        long bytes = 0;
        try (StoreIterator it = new StoreIterator(rv, null, null, visible.get())) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                entries++;
                bytes += kv.key().length + kv.value().length;
            }
        }
        return new SpaceUsage(onDisk, entries, bytes, bytes == 0 ? Double.NaN : (double) (onDisk - bytes) / bytes);
    }

    /** The current read view with a reference taken on its version. Lock-free. */
    private ReadView acquire() {
        while (true) {
            if (closed) {
                throw new IllegalStateException("the store in " + dir + " is closed");
            }
            ReadView rv = readView;
            if (rv.version().tryRef()) {
                return rv;
            }
        }
    }

    /** A snapshot of every write acknowledged so far. Close it. */
    public Snapshot snapshot() {
        if (closed) {
            throw new IllegalStateException("the store in " + dir + " is closed");
        }
        synchronized (snapshots) {
            long s = visible.get();
            snapshots.merge(s, 1, Integer::sum);
            return new Snapshot(s, this);
        }
    }

    void releaseSnapshot(long sequence) {
        synchronized (snapshots) {
            snapshots.computeIfPresent(sequence, (k, n) -> n == 1 ? null : n - 1);
        }
    }

    private long[] liveSnapshots() {
        synchronized (snapshots) {
            return snapshots.keySet().stream().mapToLong(Long::longValue).toArray();
        }
    }

    // ------------------------------------------------------------------------------------------------ control

    /**
     * Flushes the active MemTable and waits until every MemTable written before the call is in an SSTable
     * (the merges those flushes trigger may still run; see {@link #awaitMerges()}).
     */
    public void flush() throws IOException {
        writeLock.lock();
        try {
            checkWritable();
            if (!readView.active().table().isEmpty()) {
                makeRoomForFlush();
            }
        } finally {
            writeLock.unlock();
        }
        mutex.lock();
        try {
            awaitFlushes();
        } finally {
            mutex.unlock();
        }
        rethrowBackgroundError();
    }

    /** Waits until no immutable MemTable is left or a background failure stops flushing. REQUIRES: the mutex. */
    private void awaitFlushes() {
        while (!readView.immutables().isEmpty() && backgroundError.get() == null) {
            changed.awaitUninterruptibly();
        }
    }

    /** Rotates a non-empty active MemTable, waiting like a writer if too many wait already. REQUIRES: write lock. */
    private void makeRoomForFlush() throws IOException {
        makeRoom(Long.MAX_VALUE / 4);
    }

    /** Waits until no merge runs and the policy asks for none. */
    public void awaitMerges() throws IOException {
        mutex.lock();
        try {
            while ((runningMerges > 0 || pendingReadQuestions.get() > 0) && backgroundError.get() == null) {
                changed.awaitUninterruptibly();
            }
        } finally {
            mutex.unlock();
        }
        rethrowBackgroundError();
    }

    /**
     * Flushes, waits for running merges, then merges every SSTable into one (at the deepest level in use),
     * dropping every version and tombstone no live snapshot needs.
     */
    public void compactAll() throws IOException {
        flush();
        MergeJob job = null;
        mutex.lock();
        try {
            manualCompaction = true;
            while (runningMerges > 0 && backgroundError.get() == null) {
                changed.awaitUninterruptibly();
            }
            rethrowBackgroundError();
            ComponentSet set = manifest.current();
            TreeView view = view(set);
            List<SSTableInfo> all = new ArrayList<>();
            view.levels().forEach(l -> l.runs().forEach(r -> all.addAll(r.tables())));
            if (all.size() > 1 || (all.size() == 1 && (all.get(0).tombstones() > 0 || all.get(0).virtual()))) {
                job = new MergeJob(all, set.levels().size() - 1, OutputCut.SINGLE_FILE, MergeKind.REAL,
                        "compactAll");
                all.forEach(t -> compacting.add(t.id()));
                runningMerges++;
            }
        } finally {
            mutex.unlock();
        }
        try {
            if (job != null) {
                runMerge(job);
            }
        } finally {
            mutex.lock();
            try {
                manualCompaction = false;
                scheduleMerges();
            } finally {
                mutex.unlock();
            }
        }
        rethrowBackgroundError();
    }

    /** The store's counters now. */
    public StoreMetrics metrics() {
        IoStats io = files.stats();
        Map<String, Long> written = new java.util.LinkedHashMap<>();
        Map<String, Long> read = new java.util.LinkedHashMap<>();
        for (IoCause c : IoCause.values()) {
            written.put(c.name().toLowerCase(java.util.Locale.ROOT), io.bytesWritten(c));
            read.put(c.name().toLowerCase(java.util.Locale.ROOT), io.bytesRead(c));
        }
        mutex.lock();
        try {
            long flushed = flushedBytes.get();
            long user = userBytes.sum();
            long deviceBytes = io.bytesWritten(IoCause.FLUSH) + io.bytesWritten(IoCause.MERGE);
            long g = gets.sum();
            ReadView rv = readView;
            double transientAmp;
            synchronized (flushMicros) {
                transientAmp = transientMax;
            }
            return new StoreMetrics(user, puts.sum(), deletes.sum(), g, flushes, flushed, merges, mergeInputBytes,
                    mergeOutputBytes, flushed == 0 ? 1.0 : (double) tableBytes / flushed,
                    user == 0 ? 0.0 : (double) deviceBytes / user, io.bytesWritten(IoCause.WAL),
                    flushes == 0 ? 0.0 : (double) componentSum / flushes, rv.components(),
                    g == 0 ? 0.0 : (double) tablesProbed.sum() / g, transientAmp, diskBytes.get(),
                    manifest.current().tableCount(), stalls, stallNanos, mergeLagNanos,
                    StoreMetrics.Summary.of(flushMicros), StoreMetrics.Summary.of(mergeMicros),
                    StoreMetrics.Summary.of(stallMicros), StoreMetrics.Summary.of(mergeBytes), written, read,
                    cache.hits(), cache.misses(), virtualMerges, (int) manifest.current().levels().stream()
                            .flatMap(List::stream).filter(TableRecord::isVirtual).count());
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Calls {@code listener} with a {@link FlushSample} each time a flush is installed, before the merges it
     * triggers, in flush order; {@code null} removes it. The call holds the store's structure lock, so the listener
     * must be quick and must not call back into the store. Flushes installed before this call are not reported.
     */
    public void onFlush(java.util.function.Consumer<FlushSample> listener) {
        flushListener = listener;
    }

    /** The counters now, as a {@link FlushSample}; its peak covers the time since the previous sample. */
    public FlushSample sample() {
        mutex.lock();
        try {
            return takeSample();
        } finally {
            mutex.unlock();
        }
    }

    /** REQUIRES: the mutex. Starts the next peak at the bytes on disk now. */
    private FlushSample takeSample() {
        long now = diskBytes.get();
        long peak = Math.max(now, peakDiskBytes.getAndSet(now));
        return new FlushSample(flushes, flushedBytes.get(), tableBytes, readView.components(), peak);
    }

    /**
     * The merge-policy switch this open made: the store recorded another policy or other parameters than it was
     * opened with (see {@link PolicySwitch}); empty if it was opened with its own, was created, or recorded none.
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
     * @throws CorruptionException if the file is damaged
     */
    public static Optional<StoredOptions> storedOptions(Path dir) throws IOException {
        return OptionsFile.read(FileLayer.plain(), dir);
    }

    /** The live component set (what the manifest holds now). */
    public ComponentSet components() {
        return manifest.current();
    }

    /** The policy's current state. */
    public PolicyState policyState() {
        mutex.lock();
        try {
            return policyState;
        } finally {
            mutex.unlock();
        }
    }

    public Path directory() {
        return dir;
    }

    public StoreOptions options() {
        return options;
    }

    /** The file layer's byte counters (by cause). */
    public IoStats ioStats() {
        return files.stats();
    }

    /**
     * Flushes what the MemTables hold, lets running merges finish (no new ones start), and releases every file
     * and the directory lock. After a background failure nothing more is written: the WAL holds the writes
     * and the next open replays them. Idempotent.
     */
    @Override
    public void close() throws IOException {
        if (readOnly) {
            synchronized (this) {
                if (!closed) {
                    abandon();
                }
            }
            return;
        }
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            if (backgroundError.get() == null && !readView.active().table().isEmpty()) {
                try {
                    rotate();
                } catch (IOException e) {
                    // the failure is recorded; the WAL keeps the writes for the next open
                }
            }
            closed = true;
        } finally {
            writeLock.unlock();
        }
        mutex.lock();
        try {
            awaitFlushes();
            closing = true;
            while (runningMerges > 0) {
                changed.awaitUninterruptibly();
            }
        } finally {
            mutex.unlock();
        }
        abandon();
    }

    /** Stops the threads and releases files and the lock without flushing. */
    private void abandon() throws IOException {
        closed = true;
        flusher.shutdown();
        mergers.shutdown();
        try {
            flusher.awaitTermination(1, TimeUnit.MINUTES);
            mergers.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        IOException first = null;
        try {
            if (wal != null) {
                wal.close();
            }
        } catch (IOException e) {
            first = e;
        }
        try {
            manifest.close();
        } catch (IOException e) {
            first = first == null ? e : first;
        }
        mutex.lock();
        try {
            if (readView != null) {
                readView.version().unref();
            } else {
                for (TableHandle h : tables.values()) {
                    h.ref();
                    h.unref();
                }
            }
        } catch (UncheckedIOException e) {
            first = first == null ? e.getCause() : first;
        } finally {
            mutex.unlock();
        }
        lock.close();
        if (first != null) {
            throw first;
        }
    }
}
