package io.lsmpolicies.ycsb.rocksdb;

import io.lsmpolicies.lsm.io.DeviceProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionOptionsUniversal;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.Options;
import org.rocksdb.RateLimiter;
import org.rocksdb.RateLimiterMode;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * One open RocksDB database and the native objects it was opened with (options, block cache, Bloom filter, rate
 * limiter, statistics, event listener), which must outlive it and are closed with it. The options are RocksDB's
 * defaults except these, chosen to match our engine's (docs/peers-rocksdb.md has the table):
 * <ul>
 *   <li>compaction style, level size multiplier or universal size ratio, level-0 trigger, static or dynamic level
 *       targets: from the {@link RocksDbConfig};</li>
 *   <li>{@code write_buffer_size} = {@code rocksdb.memtable.size} (4 MiB by default, as ours), and
 *       {@code max_write_buffer_number} = 3 (ours: one active MemTable and up to two immutable ones);</li>
 *   <li>no compression at any level (our SSTables are not compressed);</li>
 *   <li>4 KiB blocks (our page size), a full Bloom filter of 10 bits per key (ours), an LRU block cache of
 *       {@code rocksdb.block-cache} bytes (32 MiB by default, as ours);</li>
 *   <li>{@code max_background_jobs} = 2, which RocksDB splits into one flush thread and one compaction thread
 *       (ours: one flush thread, one merge thread), and no subcompactions;</li>
 *   <li>with {@code rocksdb.device} ssd or hdd, a {@link RateLimiter} of the profile's bandwidth on all flush and
 *       compaction I/O, reads and writes. That is all RocksDB lets a Java caller throttle: the per-operation
 *       latency of the profile, user reads and WAL writes are not emulated;</li>
 *   <li>statistics on (the flush and compaction byte counters), and a {@link TraceListener}.</li>
 * </ul>
 * Direct I/O stays off, as in our engine. Not thread-safe for {@link #finish}, {@link #settle} and {@link #close};
 * the database itself is. Public for {@code bin/bench-vs-rocksdb}, which opens RocksDB exactly as this binding does.
 */
public final class OpenRocksDb {
    private static final System.Logger LOG = System.getLogger(OpenRocksDb.class.getName());
    /** RocksDB's default {@code num_levels}, kept. */
    static final int LEVELS = 7;
    /** {@code max_write_buffer_number}: one active MemTable plus our engine's two immutable ones. */
    static final int MAX_WRITE_BUFFERS = 3;
    static final long BLOCK_BYTES = 4096;
    static final double BLOOM_BITS_PER_KEY = 10;
    /** How long compactions may stay pending with none running before {@link #finish} stops waiting for them. */
    private static final long IDLE_PENDING_MILLIS = 2_000;

    static {
        RocksDB.loadLibrary();
    }

    final RocksDB db;
    final WriteOptions writeOptions;
    final FlushTrace trace;
    /** The emulated device's limiter of flush and compaction I/O; null without a device. */
    final RateLimiter rateLimiter;
    private final RocksDbConfig config;
    private final Statistics statistics;
    /** Everything to close after the database, in this order. */
    private final List<AutoCloseable> resources;

    private OpenRocksDb(RocksDbConfig config, RocksDB db, WriteOptions writeOptions, FlushTrace trace,
            RateLimiter rateLimiter, Statistics statistics, List<AutoCloseable> resources) {
        this.config = config;
        this.rateLimiter = rateLimiter;
        this.db = db;
        this.writeOptions = writeOptions;
        this.trace = trace;
        this.statistics = statistics;
        this.resources = resources;
    }

    /**
     * Opens (creating if absent) the database in {@code dir} with {@code config}'s settings.
     *
     * @throws RocksDBException if RocksDB refuses (e.g. another process holds the directory)
     */
    public static OpenRocksDb open(Path dir, RocksDbConfig config) throws RocksDBException {
        List<AutoCloseable> resources = new ArrayList<>();
        RocksDB db = null;
        try {
            FlushTrace trace = new FlushTrace();
            TraceListener listener = add(resources, new TraceListener(trace, LEVELS));
            Statistics statistics = add(resources, new Statistics());
            BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockSize(BLOCK_BYTES)
                    .setFilterPolicy(add(resources, new BloomFilter(BLOOM_BITS_PER_KEY, false)));
            if (config.blockCacheBytes() == 0) {
                table.setNoBlockCache(true);
            } else {
                table.setBlockCache(add(resources, new LRUCache(config.blockCacheBytes())));
            }
            Options options = add(resources, new Options());
            options.setCreateIfMissing(true)
                    .setWriteBufferSize(config.memtableBytes())
                    .setMaxWriteBufferNumber(MAX_WRITE_BUFFERS)
                    .setLevel0FileNumCompactionTrigger(config.l0Trigger())
                    .setTargetFileSizeBase(config.targetFileBytes())
                    .setNumLevels(LEVELS)
                    .setCompressionType(CompressionType.NO_COMPRESSION)
                    .setBottommostCompressionType(CompressionType.DISABLE_COMPRESSION_OPTION)
                    .setMaxBackgroundJobs(2)
                    .setMaxSubcompactions(config.subcompactions())
                    .setUseDirectReads(false)
                    .setUseDirectIoForFlushAndCompaction(false)
                    .setStatistics(statistics)
                    .setListeners(List.<AbstractEventListener>of(listener))
                    .setTableFormatConfig(table);
            if (config.compaction() == RocksDbConfig.Compaction.LEVELED) {
                options.setCompactionStyle(CompactionStyle.LEVEL)
                        .setMaxBytesForLevelMultiplier(config.sizeRatio())
                        .setMaxBytesForLevelBase(config.baseLevelBytes())
                        .setLevelCompactionDynamicLevelBytes(config.dynamicLevels());
            } else {
                CompactionOptionsUniversal universal = add(resources, new CompactionOptionsUniversal());
                universal.setSizeRatio(config.sizeRatio());
                options.setCompactionStyle(CompactionStyle.UNIVERSAL)
                        .setCompactionOptionsUniversal(universal)
                        .setLevelCompactionDynamicLevelBytes(false);
            }
            DeviceProfile device = config.device();
            RateLimiter limiter = null;
            if (device != null) {
                limiter = add(resources, new RateLimiter(device.bytesPerSecond(),
                        RateLimiter.DEFAULT_REFILL_PERIOD_MICROS, RateLimiter.DEFAULT_FAIRNESS,
                        RateLimiterMode.ALL_IO, false));
                options.setRateLimiter(limiter);
            }
            WriteOptions writeOptions = add(resources, new WriteOptions());
            writeOptions.setSync(config.wal() == RocksDbConfig.Wal.SYNC)
                    .setDisableWAL(config.wal() == RocksDbConfig.Wal.OFF);
            db = RocksDB.open(options, dir.toString());
            Map<String, Long> live = new HashMap<>();
            for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
                live.put(TraceListener.fileName(f.fileName()), f.size());
            }
            trace.seed(live);
            // closed in reverse: the database first, then what it was opened with
            List<AutoCloseable> closeOrder = new ArrayList<>(resources);
            Collections.reverse(closeOrder);
            return new OpenRocksDb(config, db, writeOptions, trace, limiter, statistics, closeOrder);
        } catch (RocksDBException | RuntimeException e) {
            if (db != null) {
                db.close();
            }
            for (int i = resources.size() - 1; i >= 0; i--) {
                closeQuietly(resources.get(i));
            }
            throw e;
        }
    }

    /** The open database. */
    public RocksDB db() {
        return db;
    }

    /** The options every write of this database uses (sync, WAL off or neither, from the config's WAL mode). */
    public WriteOptions writeOptions() {
        return writeOptions;
    }

    /** The value of one of the database's statistics tickers since it was opened. */
    public long ticker(TickerType ticker) {
        return statistics.getTickerCount(ticker);
    }

    /**
     * The sorted runs a point read may have to probe now: every level-0 file plus one per non-empty level below;
     * -1 if RocksDB does not report the counts.
     */
    public int components() {
        return TraceListener.components(db, LEVELS);
    }

    /**
     * Flushes the MemTable (waiting for it), then waits until no flush or compaction runs or is pending (see
     * {@link #awaitSettled}).
     *
     * @throws IOException if RocksDB fails the flush, or the wait is interrupted
     */
    public void settle() throws IOException {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
            awaitSettled();
        } catch (RocksDBException e) {
            throw new IOException("RocksDB in " + config.dir() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for RocksDB's compactions in " + config.dir(), e);
        }
    }

    private static <T extends AutoCloseable> T add(List<AutoCloseable> resources, T r) {
        resources.add(r);
        return r;
    }

    /**
     * Flushes the MemTable (waiting for it). With a trace file, then waits until no flush or compaction is running
     * or pending, appends the trace's end row and writes the file. Logs the write amplification on stderr.
     *
     * @throws IOException if the trace cannot be written, or RocksDB fails the flush
     */
    void finish() throws IOException {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
            if (config.traceFile() != null) {
                awaitSettled();
                trace.observe(db.getLongProperty("rocksdb.total-sst-files-size"));
                trace.end(TraceListener.components(db, LEVELS));
                trace.write(config.traceFile());
            }
        } catch (RocksDBException e) {
            throw new IOException("RocksDB in " + config.dir() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for RocksDB's compactions in " + config.dir(), e);
        }
        logAmplification();
    }

    /**
     * Waits until RocksDB runs no flush or compaction and has none pending. Compactions reported pending while none
     * runs for {@link #IDLE_PENDING_MILLIS} are left (logged): RocksDB did not schedule them.
     */
    private void awaitSettled() throws RocksDBException, InterruptedException {
        long idleSince = -1;
        long lastLog = System.nanoTime();
        while (true) {
            long running = db.getLongProperty("rocksdb.num-running-compactions")
                    + db.getLongProperty("rocksdb.num-running-flushes");
            long pending = db.getLongProperty("rocksdb.compaction-pending")
                    + db.getLongProperty("rocksdb.mem-table-flush-pending");
            if (running == 0 && pending == 0) {
                return;
            }
            long now = System.nanoTime();
            if (running == 0) {
                if (idleSince < 0) {
                    idleSince = now;
                } else if (now - idleSince > IDLE_PENDING_MILLIS * 1_000_000) {
                    LOG.log(System.Logger.Level.WARNING, "RocksDB in " + config.dir() + " reports work pending but "
                            + "runs none; the trace ends without it");
                    return;
                }
            } else {
                idleSince = -1;
            }
            if (now - lastLog > 60_000_000_000L) {
                LOG.log(System.Logger.Level.INFO, "waiting for RocksDB's compactions in " + config.dir());
                lastLog = now;
            }
            Thread.sleep(20);
        }
    }

    /** One line on stderr: write amplification from the trace and from RocksDB's statistics. */
    private void logAmplification() {
        long flushBytes = statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES);
        long compactBytes = statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES);
        long userBytes = statistics.getTickerCount(TickerType.BYTES_WRITTEN);
        LOG.log(System.Logger.Level.INFO, String.format(Locale.ROOT, "RocksDB %s (%s): trace: %d flushes, "
                        + "%d bytes flushed, %d written, WA %.3f; statistics: flush %d bytes, compaction %d bytes, "
                        + "WA %.3f, user bytes %d", config.dir(), config.settings(), trace.flushes(),
                trace.flushedBytes(), trace.writtenBytes(), ratio(trace.writtenBytes(), trace.flushedBytes()),
                flushBytes, compactBytes, ratio(flushBytes + compactBytes, flushBytes), userBytes));
    }

    private static double ratio(long a, long b) {
        return b == 0 ? Double.NaN : (double) a / b;
    }

    /** Closes the database, then the objects it was opened with. */
    public void close() {
        try {
            db.closeE();
        } catch (RocksDBException e) {
            LOG.log(System.Logger.Level.ERROR, "closing RocksDB in " + config.dir() + ": " + e.getMessage(), e);
        }
        for (AutoCloseable r : resources) {
            closeQuietly(r);
        }
    }

    private static void closeQuietly(AutoCloseable r) {
        try {
            r.close();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "closing " + r.getClass().getSimpleName() + ": " + e);
        }
    }
}
