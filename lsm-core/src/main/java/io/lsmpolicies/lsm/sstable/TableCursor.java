package io.lsmpolicies.lsm.sstable;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Iterates one table's entries from a leaf onwards ({@link SSTableReader#seek}, {@link SSTableReader#scan}). The
 * first {@value LeafReadAhead#AFTER_LEAVES} leaves come through the block cache, one at a time; the leaves after
 * them are read ahead, several per read ({@link LeafReadAhead}), and not cached. A cursor holds a reference to its
 * current leaf until it moves past it, reaches the end, or is closed: close a cursor that is not read to the end.
 * Iteration throws {@link UncheckedIOException} wrapping a {@code CorruptionException} on a damaged leaf. Not
 * thread-safe.
 */
public final class TableCursor implements Iterator<Entry>, Closeable {
    private final SSTableReader table;
    private long leaf;
    private Page page;
    private int index;
    private Entry next;
    /** Leaves read one after another so far (the first counts as one). */
    private int inOrder;
    /** Reads the leaves ahead once {@link #inOrder} reaches {@link LeafReadAhead#AFTER_LEAVES}. */
    private LeafReadAhead ahead;

    /**
     * From the first entry of {@code leaf} at or after ({@code key}, {@code sequence}) (every entry if {@code key}
     * is null).
     */
    TableCursor(SSTableReader table, long leaf, byte[] key, long sequence) throws IOException {
        this.table = table;
        this.leaf = leaf;
        try {
            load();
            if (key != null) {
                index = page.lowerBound(key, sequence);
            }
            advance();
        } catch (IOException | RuntimeException e) {
            releaseAll();
            throw e;
        }
    }

    private void load() throws IOException {
        releasePage();
        if (inOrder++ < LeafReadAhead.AFTER_LEAVES) {
            page = table.leafPage(leaf);
        } else {
            if (ahead == null) {
                ahead = new LeafReadAhead(table);
            }
            page = ahead.leaf(leaf);
        }
        index = 0;
    }

    private void releasePage() {
        if (page != null) {
            page.release();
            page = null;
        }
    }

    /** Releases the current leaf and gives the read-ahead's buffer back: the cursor is at its end or closed. */
    private void releaseAll() {
        releasePage();
        if (ahead != null) {
            ahead.release();
        }
    }

    private void advance() throws IOException {
        while (index >= page.count()) {
            if (++leaf >= table.leafCount()) {
                next = null;
                releaseAll();
                return;
            }
            load();
        }
        next = page.entry(index++);
    }

    @Override
    public boolean hasNext() {
        return next != null;
    }

    @Override
    public Entry next() {
        if (next == null) {
            throw new NoSuchElementException();
        }
        Entry e = next;
        try {
            advance();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return e;
    }

    @Override
    public void close() {
        releaseAll();
        next = null;
    }
}
