package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.memtable.MemTable;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.merge.MergingCursor;
import io.lsmpolicies.lsm.merge.VersionCollapse;
import io.lsmpolicies.lsm.sstable.BlockCache;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import io.lsmpolicies.lsm.sstable.SSTableReader;
import io.lsmpolicies.lsm.sstable.SSTableMetadata;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.sstable.SSTableWriter;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.OutputCutter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

/**
 * Writes SSTables: a MemTable's entries (a flush), or the k-way merge of tables and possibly a MemTable (a merge),
 * keeping every version a live snapshot needs, cut into files as the job's {@link OutputCutter} says. Each finished
 * file is forced to the device; on failure every file written is deleted. It reads and writes files only, and
 * takes no lock.
 */
final class TableBuilder {
    /** A merge reads each input sequentially, at most this many bytes per read. */
    static final int MERGE_READ_AHEAD_BYTES = 256 * 1024;
    /**
     * The read-ahead buffers of one merge hold at most about this many bytes in all: a merge of many inputs (a
     * folded cascade may take hundreds) reads less of each at a time, at least a page.
     */
    static final int MERGE_READ_AHEAD_BUDGET_BYTES = 16 * 1024 * 1024;
    private static final BlockCache NO_CACHE = BlockCache.ofBytes(0);

    private final FileLayer files;
    private final TableSet tables;
    private final SSTableOptions sstable;
    /** The MemTable budget: the size of a flush, which bounds fitted page sizes. */
    private final long flushBytes;
    private final Manifest manifest;
    private final StoreStatistics stats;
    private final Snapshots snapshots;
    /** Runs the key ranges of a split merge but the first (null: merges are never split). */
    private final ExecutorService subcompactors;
    private final int subcompactions;
    private final long subcompactionBytes;

    /**
     * @param subcompactors      runs the ranges of a split merge other than the first, which the merge's own thread
     *                           runs; null if {@code subcompactions} is 1
     * @param subcompactions     the most key ranges of one merge
     * @param subcompactionBytes the least input bytes per range
     */
    TableBuilder(FileLayer files, TableSet tables, SSTableOptions sstable, long flushBytes, Manifest manifest,
            StoreStatistics stats, Snapshots snapshots, ExecutorService subcompactors, int subcompactions,
            long subcompactionBytes) {
        this.files = files;
        this.tables = tables;
        this.sstable = sstable;
        this.flushBytes = flushBytes;
        this.manifest = manifest;
        this.stats = stats;
        this.snapshots = snapshots;
        this.subcompactors = subcompactors;
        this.subcompactions = subcompactors == null ? 1 : subcompactions;
        this.subcompactionBytes = subcompactionBytes;
    }

    /** The options for a table written from {@code mem}: the page size fitted to its entries. */
    SSTableOptions optionsFor(LiveMemTable mem) {
        MemTable t = mem.table();
        return sstable.fittedTo(t.size(), t.dataBytes(), flushBytes);
    }

    /** What a flush of {@code mem} writes: its entries with the versions no live snapshot needs dropped. */
    EntryCursor flushEntries(LiveMemTable mem) {
        return new VersionCollapse(mem.table().cursor(), snapshots.sequences(), false);
    }

    /**
     * Writes {@code entries} as SSTables of {@code level}, cut as {@code cutter} says (never between two versions of
     * one key).
     *
     * @param options the tables' options ({@link #optionsFor})
     * @param flushed whether a flush writes them (their bytes count as flushed)
     * @param maxKeys at most how many entries {@code entries} holds (a single file's Bloom filter is then built in
     *                place: see {@link SSTableWriter#create(FileLayer, IoCause, java.nio.file.Path, SSTableOptions,
     *                long, long, long, long)})
     * @return the new tables; empty if {@code entries} was empty
     */
    List<TableRecord> write(EntryCursor entries, SSTableOptions options, OutputCutter cutter, int level,
            IoCause cause, long minFlush, long maxFlush, long oldestTombstone, boolean flushed, long maxKeys)
            throws IOException {
        List<TableRecord> out = new ArrayList<>();
        SSTableWriter writer = null;
        long number = 0;
        byte[] lastKey = new byte[64];
        int lastKeyLen = -1;
        try {
            while (entries.advance()) {
                byte[] keys = entries.keyArray();
                int at = entries.keyOffset();
                int len = entries.keyLength();
                if (len != lastKeyLen || !Arrays.equals(lastKey, 0, len, keys, at, at + len)) {
                    // the cutter sees each distinct key once, where the entry lies
                    if (cutter.cutBefore(keys, at, at + len, writer == null ? 0 : writer.bytesWritten())
                            && writer != null) {
                        out.add(finish(writer, number, level, flushed, oldestTombstone));
                        writer = null;
                    }
                    if (lastKey.length < len) {
                        lastKey = new byte[Math.max(len, 2 * lastKey.length)];
                    }
                    System.arraycopy(keys, at, lastKey, 0, len);
                    lastKeyLen = len;
                }
                if (writer == null) {
                    number = manifest.newFileNumber();
                    writer = SSTableWriter.create(files, cause, tables.tablePath(number), options, minFlush, maxFlush,
                            System.currentTimeMillis(), cutter.cutsNever() ? maxKeys : 0);
                }
                writer.add(entries);
            }
            if (writer != null) {
                out.add(finish(writer, number, level, flushed, oldestTombstone));
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
                files.deleteIfExists(tables.tablePath(t.fileNumber()));
                stats.tableDeleted(t.fileBytes());
            }
            throw e;
        } finally {
            entries.close();
        }
    }

    private TableRecord finish(SSTableWriter writer, long number, int level, boolean flushed, long oldestTombstone)
            throws IOException {
        var meta = writer.finish(oldestTombstone);
        writer.close();
        long bytes = files.size(tables.tablePath(number));
        stats.tableWritten(bytes, flushed);
        return record(number, level, bytes, meta);
    }

    /** The bytes per read of each of {@code sources} sequential inputs of one merge (see the budget above). */
    static int mergeReadAhead(int sources) {
        return Math.min(MERGE_READ_AHEAD_BYTES, MERGE_READ_AHEAD_BUDGET_BYTES / Math.max(1, sources));
    }

    /**
     * The manifest's record of SSTable {@code fileNumber} at {@code level}, {@code fileBytes} long, every other field
     * taken from the metadata it was written with (the table format's metadata stays out of the manifest's API).
     */
    static TableRecord record(long fileNumber, int level, long fileBytes, SSTableMetadata metadata) {
        return new TableRecord(fileNumber, level, fileBytes, metadata.entries(), metadata.tombstones(),
                metadata.minKey(), metadata.maxKey(), metadata.minSequence(), metadata.maxSequence(),
                metadata.minFlushIndex(), metadata.maxFlushIndex(), metadata.createdMillis(),
                metadata.oldestTombstoneMillis(), metadata.dataBytes());
    }

    /**
     * k-way merge of {@code mem} (if not null: the newest source, flush number {@code memFlushIndex}) and the real
     * tables {@code inputs}, read through readers of their own (I/O charged to merges, not the block cache; each
     * sharing the page offsets, Bloom filter and metadata the store's reader of the table parsed at open), written as
     * {@code level} tables cut by {@code cutter}; {@code bottommost} lets tombstones with nothing older behind them
     * go. A {@code splittable} merge's output is one component (its cutter cuts nothing): if the tables hold enough
     * bytes, it is split by key into ranges (see {@link KeyRanges}) merged at once, this thread taking the first,
     * each range one file (the files share the merge's flushes and hold disjoint keys: one sorted run). If any range
     * fails, every file of every range is deleted.
     */
    List<TableRecord> merge(List<TableHandle> inputs, LiveMemTable mem, long memFlushIndex,
            OutputCutter cutter, int level, boolean bottommost, boolean splittable) throws IOException {
        List<SSTableReader> readers = new ArrayList<>();
        try {
            List<EntryCursor> sources = new ArrayList<>();
            long minFlush = Long.MAX_VALUE;
            long maxFlush = Long.MIN_VALUE;
            long oldestTombstone = Long.MAX_VALUE;
            long entries = 0;
            long dataBytes = 0;
            long inputBytes = 0;
            MemTable memTable = mem == null ? null : mem.table();
            if (memTable != null) {
                entries += memTable.size();
                dataBytes += memTable.dataBytes();
                minFlush = memFlushIndex;
                maxFlush = memFlushIndex;
                oldestTombstone = memTable.tombstones() > 0 ? mem.createdMillis() : Long.MAX_VALUE;
            }
            for (TableHandle h : inputs) {
                readers.add(SSTableReader.openSharing(files, IoCause.MERGE, h.reader(), NO_CACHE));
                minFlush = Math.min(minFlush, h.record().minFlushIndex());
                maxFlush = Math.max(maxFlush, h.record().maxFlushIndex());
                oldestTombstone = Math.min(oldestTombstone, h.record().oldestTombstoneMillis());
                entries += h.record().entries();
                dataBytes += h.record().dataBytes();
                inputBytes += h.record().fileBytes();
            }
            SSTableOptions options = sstable.fittedTo(entries, dataBytes, flushBytes);
            IoCause cause = inputs.isEmpty() ? IoCause.FLUSH : IoCause.MERGE;
            int ranges = splittable ? (int) Math.min(subcompactions, inputBytes / subcompactionBytes) : 1;
            List<byte[]> splits = ranges > 1 ? KeyRanges.splitKeys(readers, ranges) : List.of();
            if (splits.isEmpty()) {
                if (memTable != null) {
                    sources.add(memTable.cursor());
                }
                int readAhead = mergeReadAhead(readers.size());
                for (SSTableReader r : readers) {
                    sources.add(r.scanInPlace(readAhead));
                }
                EntryCursor merged = new VersionCollapse(new MergingCursor(sources), snapshots.sequences(), bottommost);
                return write(merged, options, cutter, level, cause, minFlush, maxFlush, oldestTombstone, false,
                        entries);
            }
            return mergeRanges(memTable, readers, splits, options, level, bottommost,
                    new Provenance(minFlush, maxFlush, oldestTombstone, entries));
        } finally {
            for (SSTableReader r : readers) {
                r.close();
            }
        }
    }

    /**
     * Merges {@code mem} (if not null) and {@code readers} range by range, the ranges cut at {@code splits}
     * (ascending): the first on this thread, the others on {@link #subcompactors}. Waits for every range; if one
     * failed, deletes what the others wrote and throws the first failure (the others suppressed).
     */
    private List<TableRecord> mergeRanges(MemTable mem, List<SSTableReader> readers, List<byte[]> splits,
            SSTableOptions options, int level, boolean bottommost, Provenance provenance) throws IOException {
        int n = splits.size() + 1;
        List<Future<List<TableRecord>>> others = new ArrayList<>(n - 1);
        List<TableRecord> out = new ArrayList<>();
        Throwable failure = null;
        try {
            for (int i = 1; i < n; i++) {
                byte[] from = splits.get(i - 1);
                byte[] to = i < n - 1 ? splits.get(i) : null;
                others.add(subcompactors.submit(() -> mergeRange(mem, readers, from, to, n, options, level,
                        bottommost, provenance)));
            }
        } catch (RejectedExecutionException e) { // the store is closing: the merge fails, its submitted ranges go
            failure = e;
        }
        if (failure == null) {
            try {
                out.addAll(mergeRange(mem, readers, null, splits.get(0), n, options, level, bottommost, provenance));
            } catch (IOException | RuntimeException | Error e) {
                failure = e;
            }
        }
        for (Future<List<TableRecord>> f : others) {
            try {
                out.addAll(f.get());
            } catch (ExecutionException e) {
                failure = firstOf(failure, e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                f.cancel(true);
                failure = firstOf(failure, new InterruptedIOException("interrupted while merging key ranges"));
            }
        }
        if (failure == null) {
            return out;
        }
        for (TableRecord t : out) {
            try {
                files.deleteIfExists(tables.tablePath(t.fileNumber()));
                stats.tableDeleted(t.fileBytes());
            } catch (IOException suppressed) {
                failure.addSuppressed(suppressed);
            }
        }
        if (failure instanceof IOException io) {
            throw io;
        } else if (failure instanceof RuntimeException re) {
            throw re;
        } else if (failure instanceof Error err) {
            throw err;
        }
        throw new IOException("merging a key range failed: " + failure, failure);
    }

    private static Throwable firstOf(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        if (next != first) {
            first.addSuppressed(next);
        }
        return first;
    }

    /**
     * Merges the entries of {@code mem} (if not null) and {@code readers} with keys in {@code [from, to)} into one file
     * (none if empty), one of {@code ranges} ranges merged at once (they share the read-ahead budget).
     */
    private List<TableRecord> mergeRange(MemTable mem, List<SSTableReader> readers, byte[] from, byte[] to,
            int ranges, SSTableOptions options, int level, boolean bottommost, Provenance provenance)
            throws IOException {
        List<EntryCursor> sources = new ArrayList<>(readers.size() + 1);
        if (mem != null) {
            sources.add(mem.cursor(from, to));
        }
        int readAhead = mergeReadAhead(readers.size() * ranges);
        for (SSTableReader r : readers) {
            sources.add(r.scanInPlace(readAhead, from, to));
        }
        EntryCursor merged = new VersionCollapse(new MergingCursor(sources), snapshots.sequences(), bottommost);
        return write(merged, options, OutputCutter.of(OutputCut.SINGLE_FILE), level, IoCause.MERGE,
                provenance.minFlush(), provenance.maxFlush(), provenance.oldestTombstone(), false,
                provenance.entries());
    }

    /**
     * What every file of a split merge records of its inputs: the flushes they hold, their oldest tombstone; and how
     * many entries they hold, which bounds each file's.
     */
    private record Provenance(long minFlush, long maxFlush, long oldestTombstone, long entries) {
    }
}
