package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.SSTableReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One open SSTable, shared by every {@link Version} that lists it and reference-counted by them. When the
 * last version holding it is released, the reader is closed and, if a merge has replaced the table
 * ({@link #markObsolete()}), the file is deleted: so a file is never deleted under a reader.
 *
 * <p>A virtual table (delayed compaction) has no reader: it holds one reference on each of its parents' handles
 * from its creation until its own last reference goes, so a parent's file outlives every virtual table (and so
 * every read) that points at it. Its parents are kept newest first (by largest sequence number).
 */
final class TableHandle {
    private final TableRecord record;
    private final SSTableReader reader;
    private final List<TableHandle> parents;
    private final byte[] minKey;
    private final byte[] maxKey;
    private final AtomicInteger refs = new AtomicInteger();
    private final Deleter deleter;
    private volatile boolean obsolete;
    private volatile long lastAccessMillis;

    /** Deletes an obsolete table's file (and accounts for it) once its last reference is gone. */
    interface Deleter {
        void delete(TableHandle table) throws IOException;
    }

    TableHandle(TableRecord record, SSTableReader reader, Deleter deleter) {
        this(record, reader, List.of(), deleter);
    }

    /** A virtual table's handle over its parents' handles (one reference taken on each). */
    static TableHandle virtual(TableRecord record, List<TableHandle> parents) {
        List<TableHandle> newestFirst = new ArrayList<>(parents);
        newestFirst.sort(Comparator.comparingLong((TableHandle h) -> h.record.maxSequence()).reversed());
        newestFirst.forEach(TableHandle::ref);
        return new TableHandle(record, null, List.copyOf(newestFirst), h -> { });
    }

    private TableHandle(TableRecord record, SSTableReader reader, List<TableHandle> parents, Deleter deleter) {
        this.record = record;
        this.reader = reader;
        this.parents = parents;
        this.minKey = record.minKey();
        this.maxKey = record.maxKey();
        this.deleter = deleter;
        this.lastAccessMillis = record.createdMillis();
    }

    /** When a read last probed the table (its creation time if never): what a "coldest" picker compares. */
    long lastAccessMillis() {
        return lastAccessMillis;
    }

    /** Records a read of the table now. */
    void touch() {
        lastAccessMillis = System.currentTimeMillis();
    }

    TableRecord record() {
        return record;
    }

    /** @throws IllegalStateException for a virtual table, which has no reader (read its {@link #parents()}) */
    SSTableReader reader() {
        if (reader == null) {
            throw new IllegalStateException("table " + fileNumber() + " is virtual: it has no reader");
        }
        return reader;
    }

    boolean isVirtual() {
        return reader == null;
    }

    /** A virtual table's parents, newest first (by largest sequence number); empty for a real table. */
    List<TableHandle> parents() {
        return parents;
    }

    /** The real tables holding this table's data: its parents if virtual, else itself. */
    List<TableHandle> realTables() {
        return reader == null ? parents : List.of(this);
    }

    long fileNumber() {
        return record.fileNumber();
    }

    Path path() {
        return reader().path();
    }

    /** Whether {@code key} lies in the table's key range. */
    boolean covers(byte[] key) {
        return Arrays.compareUnsigned(key, minKey) >= 0 && Arrays.compareUnsigned(key, maxKey) <= 0;
    }

    /** Whether the table's key range ends before {@code key}. */
    boolean endsBefore(byte[] key) {
        return Arrays.compareUnsigned(maxKey, key) < 0;
    }

    /** Whether the table's key range starts at or after {@code key} (exclusive upper bound of a scan). */
    boolean startsAtOrAfter(byte[] key) {
        return Arrays.compareUnsigned(minKey, key) >= 0;
    }

    /** Whether the key ranges of the two tables intersect. */
    boolean overlaps(TableRecord other) {
        return Arrays.compareUnsigned(minKey, other.maxKey()) <= 0
                && Arrays.compareUnsigned(other.minKey(), maxKey) <= 0;
    }

    void ref() {
        refs.incrementAndGet();
    }

    /** A merge replaced the table: delete the file once no version holds it. */
    void markObsolete() {
        obsolete = true;
    }

    /** Drops one reference; the last one closes the reader and deletes an obsolete file. */
    void unref() throws IOException {
        int left = refs.decrementAndGet();
        if (left < 0) {
            throw new IllegalStateException("table " + fileNumber() + " released more often than referenced");
        }
        if (left == 0) {
            if (reader == null) {
                IOException first = null;
                for (TableHandle p : parents) {
                    try {
                        p.unref();
                    } catch (IOException e) {
                        first = first == null ? e : first;
                    }
                }
                if (first != null) {
                    throw first;
                }
                return;
            }
            reader.close();
            if (obsolete) {
                deleter.delete(this);
            }
        }
    }
}
