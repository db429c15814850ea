package io.lsmpolicies.ycsb.rocksdb;

import java.nio.file.Path;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.rocksdb.TableFileCreationInfo;
import org.rocksdb.TableFileDeletionInfo;

/**
 * Feeds a {@link FlushTrace} from RocksDB's events: table files created (by flush, compaction or recovery) and
 * deleted, flushes and compactions completed. Only these five callbacks are enabled, so RocksDB does not build
 * the others' job descriptions. Runs on RocksDB's background threads, which it must not hold up: each callback
 * updates the trace under its lock; a completed flush also reads the file count of each level (one property
 * per level), and a completed job samples {@code rocksdb.total-sst-files-size}. Thread-safe.
 */
final class TraceListener extends AbstractEventListener {
    private static final System.Logger LOG = System.getLogger(TraceListener.class.getName());

    private final FlushTrace trace;
    private final int levels;

    /** @param levels the database's {@code num_levels} */
    TraceListener(FlushTrace trace, int levels) {
        super(EnabledEventCallback.ON_TABLE_FILE_CREATED, EnabledEventCallback.ON_TABLE_FILE_DELETED,
                EnabledEventCallback.ON_FLUSH_COMPLETED, EnabledEventCallback.ON_COMPACTION_COMPLETED);
        this.trace = trace;
        this.levels = levels;
    }

    @Override
    public void onTableFileCreated(TableFileCreationInfo info) {
        if (info.getStatus() != null && info.getStatus().getCode() != Status.Code.Ok) {
            return; // nothing was kept
        }
        FlushTrace.Origin origin = switch (info.getReason()) {
            case FLUSH -> FlushTrace.Origin.FLUSH;
            case COMPACTION -> FlushTrace.Origin.COMPACTION;
            default -> FlushTrace.Origin.OTHER;
        };
        trace.fileCreated(fileName(info.getFilePath()), origin, info.getJobId(), info.getFileSize());
    }

    @Override
    public void onTableFileDeleted(TableFileDeletionInfo info) {
        trace.fileDeleted(fileName(info.getFilePath()));
    }

    @Override
    public void onFlushCompleted(RocksDB db, FlushJobInfo info) {
        sampleDisk(db);
        trace.flushCompleted(info.getJobId(), components(db, levels));
    }

    @Override
    public void onCompactionCompleted(RocksDB db, CompactionJobInfo info) {
        Status status = info.status();
        trace.compactionCompleted(info.jobId(), status == null || status.getCode() == Status.Code.Ok);
        sampleDisk(db);
    }

    private void sampleDisk(RocksDB db) {
        try {
            trace.observe(db.getLongProperty("rocksdb.total-sst-files-size"));
        } catch (RocksDBException e) {
            LOG.log(System.Logger.Level.DEBUG, "rocksdb.total-sst-files-size: " + e.getMessage());
        }
    }

    /**
     * The SSTables a point read may have to probe: every level-0 file (each a sorted run), plus one per non-empty
     * level below (leveled: a level is one sorted run; universal: each non-empty level holds one sorted run).
     * -1 if the counts cannot be read.
     */
    static int components(RocksDB db, int levels) {
        try {
            // a string property (RocksDB has no integer form of it)
            int n = Integer.parseInt(db.getProperty("rocksdb.num-files-at-level0").trim());
            for (int level = 1; level < levels; level++) {
                if (Long.parseLong(db.getProperty("rocksdb.num-files-at-level" + level).trim()) > 0) {
                    n++;
                }
            }
            return n;
        } catch (RocksDBException | NumberFormatException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot read the file count per level: " + e.getMessage());
            return -1;
        }
    }

    /** The key of a table file in the trace: its name, as RocksDB reports paths in several forms. */
    static String fileName(String path) {
        Path name = Path.of(path).getFileName();
        return name == null ? path : name.toString();
    }
}
