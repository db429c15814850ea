package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.io.IoStats;
import io.lsmpolicies.lsm.sstable.BlockCache;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The store's counters and histograms, and the one place each is updated: the write and read paths count
 * lock-free; flushes, merges and stalls are counted under the mutex, where they are installed, so that a
 * {@link #metrics} or {@link #sample} taken under it is consistent. Merge accounting happens here once, for
 * merges run by the merge pool and for the merges a merging flush ({@link MergeOrder#MERGE_MEMTABLE},
 * {@link MergeOrder#MERGE_MEMTABLE_SMALL}) folds in.
 */
final class StoreStatistics {
    private final StoreMutex mutex;

    private final LongAdder userBytes = new LongAdder();
    private final LongAdder puts = new LongAdder();
    private final LongAdder deletes = new LongAdder();
    private final LongAdder gets = new LongAdder();
    private final LongAdder scans = new LongAdder();
    /** Point reads and scans since the last flush was installed: what the policy is told at the next one. */
    private final AtomicLong readsSinceFlush = new AtomicLong();
    private final LongAdder tablesProbed = new LongAdder();
    private final AtomicLong flushedBytes = new AtomicLong();
    private final AtomicLong diskBytes = new AtomicLong();
    /** The most SSTable bytes on disk since the last {@link FlushSample}. */
    private final AtomicLong peakDiskBytes = new AtomicLong();
    /** The largest disk bytes / flushed bytes seen; written by table writers on any thread. */
    private final AtomicLong transientMaxBits = new AtomicLong(Double.doubleToLongBits(0));

    // Guarded by the mutex.
    private long flushes;
    private long merges;
    private long virtualMerges;
    private long mergeInputBytes;
    private long mergeOutputBytes;
    /** Bytes of every SSTable written by flushes and merges (the numerator of model write amplification). */
    private long tableBytes;
    private long componentSum;
    private long stalls;
    private long stallNanos;
    private long mergeLagNanos;

    private final Histogram flushMicros = new ConcurrentHistogram(3);
    private final Histogram mergeMicros = new ConcurrentHistogram(3);
    private final Histogram stallMicros = new ConcurrentHistogram(3);
    private final Histogram mergeBytes = new ConcurrentHistogram(3);

    StoreStatistics(StoreMutex mutex) {
        this.mutex = mutex;
    }

    /** A batch was applied. */
    void write(WriteBatch batch) {
        userBytes.add(batch.userBytes());
        List<WriteBatch.Op> ops = batch.ops();
        for (int i = 0; i < ops.size(); i++) {
            (ops.get(i).isDelete() ? deletes : puts).increment();
        }
    }

    void get() {
        gets.increment();
        countRead();
    }

    /** A scan (an iterator) was opened. */
    void scan() {
        scans.increment();
        countRead();
    }

    /**
     * Reads between flushes after which the policy is asked about them
     * ({@link io.lsmpolicies.merge.spi.MergePolicy#onReads}): a read-only phase installs no flush.
     */
    static final long READS_PER_QUESTION = 1024;
    private volatile Runnable manyReads = () -> { };

    /** Runs {@code question} (which must not block) each time another {@link #READS_PER_QUESTION} reads are counted. */
    void onManyReads(Runnable question) {
        manyReads = question;
    }

    private void countRead() {
        if (readsSinceFlush.incrementAndGet() % READS_PER_QUESTION == 0) {
            manyReads.run();
        }
    }

    /** The reads counted since the last flush took them, or since the policy was last told of them. */
    long readsSinceFlush() {
        return readsSinceFlush.get();
    }

    /** Takes {@code reads} the policy was told of between flushes: the next flush is told only of later ones. */
    void takeReads(long reads) {
        assert mutex.held();
        readsSinceFlush.addAndGet(-reads);
    }

    /**
     * The point reads and scans since the previous call (each counted once), for the policy at a flush's install
     * ({@link io.lsmpolicies.merge.spi.MergePolicy#onFlush(io.lsmpolicies.merge.spi.PolicyState,
     * io.lsmpolicies.merge.spi.TreeView, long)}). REQUIRES: the mutex.
     */
    long takeReadsSinceFlush() {
        assert mutex.held();
        return readsSinceFlush.getAndSet(0);
    }

    /** A get read a table's pages (its key range and Bloom filter let the key through). */
    void tableProbed() {
        tablesProbed.increment();
    }

    /** A table the store opened at start, or one a repair left, is on disk. */
    void tableOnDisk(long bytes) {
        diskBytes.addAndGet(bytes);
    }

    /**
     * A table of {@code bytes} was written and synced; {@code flushed} if a flush wrote it (it counts toward the
     * bytes flushed, the denominator of the amplifications).
     */
    void tableWritten(long bytes, boolean flushed) {
        long f = flushed ? flushedBytes.addAndGet(bytes) : flushedBytes.get();
        long onDisk = diskBytes.addAndGet(bytes);
        peakDiskBytes.accumulateAndGet(onDisk, Math::max);
        double ratio = (double) onDisk / Math.max(1, f);
        transientMaxBits.accumulateAndGet(Double.doubleToLongBits(ratio),
                (a, b) -> Double.longBitsToDouble(a) >= Double.longBitsToDouble(b) ? a : b);
    }

    /** A merging flush's MemTable ({@link MergeOrder#MERGE_MEMTABLE}, _SMALL), estimated at {@code bytes}. */
    void memTableFolded(long bytes) {
        flushedBytes.addAndGet(bytes);
    }

    /** A table's file was deleted. */
    void tableDeleted(long bytes) {
        diskBytes.addAndGet(-bytes);
    }

    /** A flush that wrote {@code written} table bytes was installed. REQUIRES: the mutex. */
    void flushTablesInstalled(long written) {
        assert mutex.held();
        tableBytes += written;
    }

    /**
     * A flush was installed, leaving {@code components} SSTables a point read may probe, {@code nanos} after it
     * began. REQUIRES: the mutex.
     */
    void flushed(int components, long nanos) {
        assert mutex.held();
        flushes++;
        componentSum += components;
        flushMicros.recordValue(nanos / 1000);
    }

    /** A real merge of {@code inputBytes} that wrote {@code written} bytes was installed. REQUIRES: the mutex. */
    void merged(long inputBytes, long written) {
        assert mutex.held();
        merges++;
        mergeInputBytes += inputBytes;
        mergeOutputBytes += written;
        tableBytes += written;
        mergeBytes.recordValue(written);
    }

    /** A virtual merge (metadata only) was installed. REQUIRES: the mutex. */
    void mergedVirtually() {
        assert mutex.held();
        virtualMerges++;
    }

    /**
     * A merge job of any kind took {@code nanos} from its start to its install. REQUIRES: the mutex (the
     * histograms are read under it by {@link #metrics}; reading one while another thread records into it fails).
     */
    void mergeTook(long nanos) {
        assert mutex.held();
        mergeMicros.recordValue(nanos / 1000);
    }

    /** A writer waited {@code nanos} for a flush. REQUIRES: the mutex. */
    void stalled(long nanos) {
        assert mutex.held();
        stalls++;
        stallNanos += nanos;
        stallMicros.recordValue(nanos / 1000);
    }

    /** A flush waited {@code nanos} to be installed because the policy said merging lagged. REQUIRES: the mutex. */
    void mergeLagged(long nanos) {
        assert mutex.held();
        mergeLagNanos += nanos;
    }

    /**
     * The counters as a {@link FlushSample}; the peak starts again at the bytes on disk now. REQUIRES: the
     * mutex.
     */
    FlushSample sample(int components) {
        assert mutex.held();
        long now = diskBytes.get();
        long peak = Math.max(now, peakDiskBytes.getAndSet(now));
        return new FlushSample(flushes, flushedBytes.get(), tableBytes, components, peak);
    }

    /**
     * Every metric, with the file layer's {@code io} counters, the block cache's, the index bytes the open tables
     * pin, and the current structure ({@code components}, {@code liveTables}, {@code virtualTables}). REQUIRES:
     * the mutex.
     */
    StoreMetrics metrics(IoStats io, BlockCache cache, long pinnedIndexBytes, int components, int liveTables,
            int virtualTables) {
        assert mutex.held();
        Map<String, Long> written = new LinkedHashMap<>();
        Map<String, Long> read = new LinkedHashMap<>();
        for (IoCause c : IoCause.values()) {
            written.put(c.name().toLowerCase(Locale.ROOT), io.bytesWritten(c));
            read.put(c.name().toLowerCase(Locale.ROOT), io.bytesRead(c));
        }
        long flushed = flushedBytes.get();
        long user = userBytes.sum();
        long deviceBytes = io.bytesWritten(IoCause.FLUSH) + io.bytesWritten(IoCause.MERGE);
        long g = gets.sum();
        return new StoreMetrics(
                new StoreMetrics.Writes(user, puts.sum(), deletes.sum(), io.bytesWritten(IoCause.WAL), stalls,
                        stallNanos, StoreMetrics.Summary.of(stallMicros)),
                new StoreMetrics.Flushes(flushes, flushed, mergeLagNanos, StoreMetrics.Summary.of(flushMicros)),
                new StoreMetrics.Merges(merges, mergeInputBytes, mergeOutputBytes, virtualMerges,
                        StoreMetrics.Summary.of(mergeMicros), StoreMetrics.Summary.of(mergeBytes)),
                new StoreMetrics.Reads(g, scans.sum(), g == 0 ? 0.0 : (double) tablesProbed.sum() / g),
                new StoreMetrics.Amplification(flushed == 0 ? 1.0 : (double) tableBytes / flushed,
                        user == 0 ? 0.0 : (double) deviceBytes / user,
                        flushes == 0 ? 0.0 : (double) componentSum / flushes,
                        Double.longBitsToDouble(transientMaxBits.get())),
                new StoreMetrics.Tables(components, liveTables, virtualTables, diskBytes.get()),
                new StoreMetrics.Io(written, read),
                new StoreMetrics.Cache(cache.hits(), cache.misses(), cache.weightedBytes(), cache.reservedBytes(),
                        pinnedIndexBytes));
    }
}
