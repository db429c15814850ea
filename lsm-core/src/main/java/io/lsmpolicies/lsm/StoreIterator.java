package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.merge.MergingCursor;
import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import io.lsmpolicies.lsm.sstable.TableCursor;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A range scan: the newest version of every key in {@code [from, to)} visible at the scan's sequence number,
 * deleted keys left out, in unsigned-byte key order. It reads each SSTable's leaves in order, the first two through
 * the block cache and those after them several at a time (read ahead, not cached), and holds the SSTables it reads
 * open (merges may replace them meanwhile; their files stay until the scan is closed).
 * Not thread-safe. Close it: an open scan keeps replaced files on disk.
 *
 * <p>{@link #next()} throws {@link java.io.UncheckedIOException} wrapping a
 * {@link CorruptionException} if a page it reads is damaged.
 */
public final class StoreIterator implements Iterator<KeyValue>, Closeable {
    private final ReadView view;
    private final Version version;
    private final List<TableCursor> cursors = new ArrayList<>();
    private final MergingCursor merged;
    private final byte[] to;
    private final long sequence;
    private byte[] lastKey;
    private KeyValue next;
    private boolean closed;

    StoreIterator(ReadView view, byte[] from, byte[] to, long sequence) throws IOException {
        this.view = view;
        this.version = view.version();
        this.to = to;
        this.sequence = sequence;
        byte[] start = from == null ? new byte[0] : from;
        try {
            List<EntryCursor> sources = new ArrayList<>();
            sources.add(view.active().table().cursor(start, Long.MAX_VALUE));
            for (LiveMemTable m : view.immutables()) {
                sources.add(m.table().cursor(start, Long.MAX_VALUE));
            }
            for (TableHandle t : version.tables()) {
                if (t.endsBefore(start) || (to != null && t.startsAtOrAfter(to))) {
                    continue;
                }
                t.touch();
                for (TableHandle real : t.realTables()) { // a virtual table: its parents, as overlapping sources
                    if (real.endsBefore(start) || (to != null && real.startsAtOrAfter(to))) {
                        continue;
                    }
                    TableCursor c = real.reader().seek(start, Long.MAX_VALUE);
                    cursors.add(c);
                    sources.add(EntryCursor.of(c));
                }
            }
            merged = new MergingCursor(sources);
            advance();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void advance() {
        next = null;
        while (advanceMerged()) {
            byte[] keys = merged.keyArray(); // where the entry lies: compared there, copied out only if kept
            int at = merged.keyOffset();
            int end = at + merged.keyLength();
            if (to != null && Arrays.compareUnsigned(keys, at, end, to, 0, to.length) >= 0) {
                break;
            }
            if (merged.sequence() > sequence
                    || lastKey != null && Arrays.equals(keys, at, end, lastKey, 0, lastKey.length)) {
                continue;
            }
            Entry e = merged.entry();
            lastKey = e.key();
            if (!e.tombstone()) {
                next = new KeyValue(e.key(), e.value());
                return;
            }
        }
    }

    /** Sources are in-memory entries and table cursors, which report a damaged page unchecked already. */
    private boolean advanceMerged() {
        try {
            return merged.advance();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public boolean hasNext() {
        if (closed) {
            throw new IllegalStateException("the scan is closed");
        }
        return next != null;
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue kv = next;
        advance();
        return kv;
    }

    /** Releases the SSTables the scan holds. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            next = null;
            cursors.forEach(TableCursor::close);
            TableSet.release(view); // the MemTables' chunks may be refilled once no scan reads them
        }
    }
}
