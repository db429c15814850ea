package io.lsmpolicies.ycsb.rocksdb;

import io.lsmpolicies.ycsb.common.TraceFile.Event;
import io.lsmpolicies.ycsb.common.TraceFile.Row;
import io.lsmpolicies.ycsb.common.TraceFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The flush trace of one database, built from its table-file events: one row per completed flush and a final
 * {@code end} row, in the CSV form shared by every system of the benchmark ({@link TraceFile}):
 * <pre>
 * event,flushes,flushed_bytes,written_bytes,components,disk_bytes
 * </pre>
 * <ul>
 *   <li>{@code flushes}: completed flushes so far, 1..n (the end row repeats n);</li>
 *   <li>{@code flushed_bytes}: bytes of the SST files written by those flushes (file sizes);</li>
 *   <li>{@code written_bytes}: bytes of the SST files written by the flushes and by the compactions completed so far.
 *       Only files a job created count, so a trivial move (a file moved to another level, nothing copied) adds
 *       nothing, and neither does a failed compaction;</li>
 *   <li>{@code components}: the SSTables a point read may have to probe when the row is taken (level-0 files plus
 *       non-empty levels below), as given by the caller;</li>
 *   <li>{@code disk_bytes}: the largest total bytes of SST files on disk seen since the previous row. The total
 *       is kept from the creation and deletion events (a compaction's finished outputs count while its inputs are
 *       still on disk), and also raised to any sample the caller passes in.</li>
 * </ul>
 * Files written by other means (recovery at open) count on disk only. Thread-safe: every method holds this
 * object's lock, and each is a few map operations, so callers on RocksDB's background threads are not held up.
 */
final class FlushTrace {
    /** Why a table file was created. */
    enum Origin {
        FLUSH, COMPACTION, OTHER
    }

    private final Map<Integer, Long> pendingFlushBytes = new HashMap<>();
    private final Map<Integer, Long> pendingCompactionBytes = new HashMap<>();
    private final Map<String, Long> onDisk = new HashMap<>();
    /** Files deleted before {@link #seed} told us their size: not to be added by the seed. */
    private final Set<String> deletedUnknown = new HashSet<>();
    private final List<Row> rows = new ArrayList<>();
    private boolean seeded;
    private long flushes;
    private long flushedBytes;
    private long writtenBytes;
    private long diskBytes;
    private long maxDiskSinceRow;
    private boolean ended;

    /** A table file {@code name} of {@code bytes} was created by job {@code jobId} for {@code origin}. */
    synchronized void fileCreated(String name, Origin origin, int jobId, long bytes) {
        switch (origin) {
            case FLUSH -> pendingFlushBytes.merge(jobId, bytes, Long::sum);
            case COMPACTION -> pendingCompactionBytes.merge(jobId, bytes, Long::sum);
            case OTHER -> {
            }
        }
        Long old = onDisk.put(name, bytes);
        diskBytes += bytes - (old == null ? 0 : old);
        observe(diskBytes);
    }

    /** Table file {@code name} was deleted. */
    synchronized void fileDeleted(String name) {
        Long bytes = onDisk.remove(name);
        if (bytes != null) {
            diskBytes -= bytes;
        } else if (!seeded) {
            deletedUnknown.add(name);
        }
    }

    /**
     * The files present when the database opened (name to bytes), to count on disk; files this trace already
     * knows, or saw deleted, are left as they are. Call once, right after opening.
     */
    synchronized void seed(Map<String, Long> live) {
        live.forEach((name, bytes) -> {
            if (!onDisk.containsKey(name) && !deletedUnknown.contains(name)) {
                onDisk.put(name, bytes);
                diskBytes += bytes;
            }
        });
        deletedUnknown.clear();
        seeded = true;
        observe(diskBytes);
    }

    /** Raises the disk maximum since the last row to {@code sampledDiskBytes}, a size observed by other means. */
    synchronized void observe(long sampledDiskBytes) {
        maxDiskSinceRow = Math.max(maxDiskSinceRow, sampledDiskBytes);
    }

    /**
     * Flush job {@code jobId} completed and is installed; appends its row.
     *
     * @param components the SSTables a point read may probe now
     */
    synchronized void flushCompleted(int jobId, int components) {
        long bytes = pendingFlushBytes.getOrDefault(jobId, 0L);
        pendingFlushBytes.remove(jobId);
        flushes++;
        flushedBytes += bytes;
        writtenBytes += bytes;
        rows.add(row(Event.FLUSH, components));
    }

    /** Compaction job {@code jobId} completed ({@code ok}: successfully); its output files count as written. */
    synchronized void compactionCompleted(int jobId, boolean ok) {
        Long bytes = pendingCompactionBytes.remove(jobId);
        if (ok && bytes != null) {
            writtenBytes += bytes;
        }
    }

    /**
     * Appends the final row (once; later calls change nothing).
     *
     * @param components the SSTables a point read may probe now
     */
    synchronized void end(int components) {
        if (!ended) {
            rows.add(row(Event.END, components));
            ended = true;
        }
    }

    private Row row(Event event, int components) {
        Row r = new Row(event, flushes, flushedBytes, writtenBytes, components, Math.max(maxDiskSinceRow, diskBytes));
        maxDiskSinceRow = diskBytes;
        return r;
    }

    /** The rows so far, in order. */
    synchronized List<Row> rows() {
        return List.copyOf(rows);
    }

    synchronized long flushes() {
        return flushes;
    }

    synchronized long flushedBytes() {
        return flushedBytes;
    }

    synchronized long writtenBytes() {
        return writtenBytes;
    }

    /** Writes the trace to {@code file} ({@link TraceFile#write}). */
    synchronized void write(Path file) throws IOException {
        TraceFile.write(file, rows);
    }
}
