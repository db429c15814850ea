package io.lsmpolicies.lsm.sstable;

import java.io.Closeable;
import java.util.Arrays;
import java.util.Iterator;

/**
 * Entries in {@link Entry#ORDER}, visited one at a time where they lie (in a table's read-ahead buffer, in a
 * MemTable's own arrays), so that a merge passes each key and value from its input page to its output page without
 * copying it in between. The arrays the accessors return are shared: their contents at the given offsets are the
 * current entry's only until the next {@link #advance()}. A caller that keeps an entry copies it ({@link #entry()}).
 *
 * <p>A cursor starts before its first entry; the accessors may be called only after {@link #advance()} returned
 * true, and until the next call.
 */
public interface EntryCursor extends Closeable {

    /**
     * Moves to the next entry (the first, on the first call).
     *
     * @return false at the end (and on every later call)
     * @throws java.io.IOException if the entry cannot be read ({@link io.lsmpolicies.lsm.CorruptionException} for
     *                             a damaged page)
     */
    boolean advance() throws java.io.IOException;

    /** {@return the array holding the current key} */
    byte[] keyArray();

    /** {@return where the current key starts in {@link #keyArray()}} */
    int keyOffset();

    /** {@return the current key's length in bytes} */
    int keyLength();

    /** {@return the current entry's sequence number} */
    long sequence();

    /** {@return whether the current entry is a delete} */
    boolean tombstone();

    /** {@return the array holding the current value (empty for a tombstone)} */
    byte[] valueArray();

    /** {@return where the current value starts in {@link #valueArray()}} */
    int valueOffset();

    /** {@return the current value's length in bytes} */
    int valueLength();

    /** {@return the current entry, key and value copied out} */
    default Entry entry() {
        int k = keyOffset();
        int v = valueOffset();
        return new Entry(Arrays.copyOfRange(keyArray(), k, k + keyLength()), sequence(), tombstone(),
                Arrays.copyOfRange(valueArray(), v, v + valueLength()));
    }

    /**
     * Compares the current entries of two cursors in {@link Entry#ORDER}.
     *
     * @param a a cursor on an entry
     * @param b another
     * @return negative, zero or positive as {@code a}'s entry comes before, with or after {@code b}'s
     */
    static int compare(EntryCursor a, EntryCursor b) {
        int ka = a.keyOffset();
        int kb = b.keyOffset();
        int c = Arrays.compareUnsigned(a.keyArray(), ka, ka + a.keyLength(), b.keyArray(), kb, kb + b.keyLength());
        return c != 0 ? c : Long.compare(b.sequence(), a.sequence());
    }

    /** Releases what the cursor holds (a table's read-ahead buffer); nothing by default. */
    @Override
    default void close() {
    }

    /**
     * A cursor over entries already in memory (a MemTable's, a test's).
     *
     * @param entries the entries, in {@link Entry#ORDER}
     * @return a cursor that hands out each entry's own arrays (its {@link #entry()} is the entry itself)
     */
    static EntryCursor of(Iterator<Entry> entries) {
        return new EntryCursor() {
            private Entry current;

            @Override
            public boolean advance() {
                current = entries.hasNext() ? entries.next() : null;
                return current != null;
            }

            @Override
            public byte[] keyArray() {
                return current.key();
            }

            @Override
            public int keyOffset() {
                return 0;
            }

            @Override
            public int keyLength() {
                return current.key().length;
            }

            @Override
            public long sequence() {
                return current.sequence();
            }

            @Override
            public boolean tombstone() {
                return current.tombstone();
            }

            @Override
            public byte[] valueArray() {
                return current.value();
            }

            @Override
            public int valueOffset() {
                return 0;
            }

            @Override
            public int valueLength() {
                return current.value().length;
            }

            @Override
            public Entry entry() {
                return current;
            }
        };
    }
}
