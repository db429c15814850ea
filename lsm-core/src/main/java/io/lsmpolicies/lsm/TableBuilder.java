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
import io.lsmpolicies.merge.spi.OutputCutter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes SSTables: a MemTable's entries (a flush), or the k-way merge of tables and possibly a MemTable (a merge),
 * keeping every version a live snapshot needs, cut into files as the job's {@link OutputCutter} says. Each finished
 * file is forced to the device; on failure every file written is deleted. It reads and writes files only, and
 * takes no lock.
 */
final class TableBuilder {
    /** A merge reads each input sequentially, this many bytes per read. */
    static final int MERGE_READ_AHEAD_BYTES = 256 * 1024;
    private static final BlockCache NO_CACHE = BlockCache.ofBytes(0);

    private final FileLayer files;
    private final TableSet tables;
    private final SSTableOptions sstable;
    /** The MemTable budget: the size of a flush, which bounds fitted page sizes. */
    private final long flushBytes;
    private final Manifest manifest;
    private final StoreStatistics stats;
    private final Snapshots snapshots;

    TableBuilder(FileLayer files, TableSet tables, SSTableOptions sstable, long flushBytes, Manifest manifest,
            StoreStatistics stats, Snapshots snapshots) {
        this.files = files;
        this.tables = tables;
        this.sstable = sstable;
        this.flushBytes = flushBytes;
        this.manifest = manifest;
        this.stats = stats;
        this.snapshots = snapshots;
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
     * @return the new tables; empty if {@code entries} was empty
     */
    List<TableRecord> write(EntryCursor entries, SSTableOptions options, OutputCutter cutter, int level,
            IoCause cause, long minFlush, long maxFlush, long oldestTombstone, boolean flushed) throws IOException {
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
                            System.currentTimeMillis());
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
     * k-way merge of {@code mem} (if not null: the newest source, flush number {@code memFlushIndex}) and the
     * real tables {@code inputs}, read through their own readers (I/O charged to merges, not the block cache),
     * written as {@code level} tables cut by {@code cutter}; {@code bottommost} lets tombstones with nothing older
     * behind them go.
     */
    List<TableRecord> merge(List<TableHandle> inputs, LiveMemTable mem, long memFlushIndex, OutputCutter cutter,
            int level, boolean bottommost) throws IOException {
        List<SSTableReader> readers = new ArrayList<>();
        try {
            List<EntryCursor> sources = new ArrayList<>();
            long minFlush = Long.MAX_VALUE;
            long maxFlush = Long.MIN_VALUE;
            long oldestTombstone = Long.MAX_VALUE;
            long entries = 0;
            long dataBytes = 0;
            if (mem != null) {
                MemTable t = mem.table();
                entries += t.size();
                dataBytes += t.dataBytes();
                sources.add(t.cursor());
                minFlush = memFlushIndex;
                maxFlush = memFlushIndex;
                oldestTombstone = mem.table().tombstones() > 0 ? mem.createdMillis() : Long.MAX_VALUE;
            }
            for (TableHandle h : inputs) {
                SSTableReader r = SSTableReader.open(files, IoCause.MERGE, h.path(), NO_CACHE);
                readers.add(r);
                sources.add(r.scanInPlace(MERGE_READ_AHEAD_BYTES));
                minFlush = Math.min(minFlush, h.record().minFlushIndex());
                maxFlush = Math.max(maxFlush, h.record().maxFlushIndex());
                oldestTombstone = Math.min(oldestTombstone, h.record().oldestTombstoneMillis());
                entries += h.record().entries();
                dataBytes += h.record().dataBytes();
            }
            EntryCursor merged = new VersionCollapse(new MergingCursor(sources), snapshots.sequences(), bottommost);
            return write(merged, sstable.fittedTo(entries, dataBytes, flushBytes), cutter, level,
                    inputs.isEmpty() ? IoCause.FLUSH : IoCause.MERGE, minFlush, maxFlush, oldestTombstone, false);
        } finally {
            for (SSTableReader r : readers) {
                r.close();
            }
        }
    }
}
