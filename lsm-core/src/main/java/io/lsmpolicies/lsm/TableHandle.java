package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.SSTableReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One open SSTable, shared by every {@link Version} that lists it and reference-counted by them. When the
 * last version holding it is released, the reader is closed and, if a merge has replaced the table
 * ({@link #markObsolete()}), the file is deleted: so a file is never deleted under a reader.
 */
final class TableHandle {
    private final TableRecord record;
    private final SSTableReader reader;
    private final byte[] minKey;
    private final byte[] maxKey;
    private final AtomicInteger refs = new AtomicInteger();
    private final Consumer<TableHandle> onDeleted;
    private volatile boolean obsolete;
    private volatile long lastAccessMillis;

    TableHandle(TableRecord record, SSTableReader reader, Consumer<TableHandle> onDeleted) {
        this.record = record;
        this.reader = reader;
        this.minKey = record.minKey();
        this.maxKey = record.maxKey();
        this.onDeleted = onDeleted;
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

    SSTableReader reader() {
        return reader;
    }

    long fileNumber() {
        return record.fileNumber();
    }

    Path path() {
        return reader.path();
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
            reader.close();
            if (obsolete) {
                Files.deleteIfExists(path());
                onDeleted.accept(this);
            }
        }
    }
}
