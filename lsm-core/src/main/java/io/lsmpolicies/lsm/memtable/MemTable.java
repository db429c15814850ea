package io.lsmpolicies.lsm.memtable;

import io.lsmpolicies.lsm.sstable.Entry;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory component: a concurrent sorted set of entries in {@link Entry#ORDER} (key ascending,
 * sequence descending), with its memory accounted in bytes. Many threads may add and read at once; once
 * {@link #freeze() frozen} it is immutable and is flushed to an SSTable while a new MemTable takes writes.
 */
public final class MemTable {
    /**
     * Bytes charged per entry besides its key and value: the skip-list node, index levels, the Entry and its
     * two arrays' headers, as measured on a 64-bit JVM with compressed oops (rounded up).
     */
    public static final int ENTRY_OVERHEAD_BYTES = 96;

    private final ConcurrentSkipListSet<Entry> entries = new ConcurrentSkipListSet<>(Entry.ORDER);
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong tombstones = new AtomicLong();
    private final AtomicLong minSequence = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxSequence = new AtomicLong(Long.MIN_VALUE);
    private volatile boolean frozen;

    /**
     * Adds one entry. REQUIRES: not frozen; the entry's (key, sequence) is new.
     *
     * @throws IllegalStateException if frozen
     * @throws IllegalArgumentException if an entry with the same key and sequence exists
     */
    public void add(Entry e) {
        if (frozen) {
            throw new IllegalStateException("the MemTable is frozen; writes go to its successor");
        }
        if (!entries.add(e)) {
            throw new IllegalArgumentException("the MemTable already holds " + e.toString());
        }
        bytes.addAndGet(charge(e));
        minSequence.accumulateAndGet(e.sequence(), Math::min);
        maxSequence.accumulateAndGet(e.sequence(), Math::max);
        if (e.tombstone()) {
            tombstones.incrementAndGet();
        }
    }

    /** Bytes one entry is charged. */
    public static long charge(Entry e) {
        return (long) e.key().length + e.value().length + ENTRY_OVERHEAD_BYTES;
    }

    /** The newest version of {@code key} with sequence at most {@code snapshot}, or null. */
    public Entry get(byte[] key, long snapshot) {
        Entry e = entries.ceiling(Entry.put(key, snapshot, new byte[0]));
        return e != null && Arrays.equals(e.key(), key) ? e : null;
    }

    /** Entries from the first at or after ({@code key}, {@code sequence}), in order; weakly consistent. */
    public Iterator<Entry> iterator(byte[] key, long sequence) {
        return entries.tailSet(Entry.put(key, sequence, new byte[0]), true).iterator();
    }

    /** All entries in order; weakly consistent while writes continue, exact once frozen. */
    public Iterator<Entry> iterator() {
        return entries.iterator();
    }

    /** Bytes charged so far (keys, values and per-entry overhead). */
    public long bytes() {
        return bytes.get();
    }

    public int size() {
        return entries.size();
    }

    public long tombstones() {
        return tombstones.get();
    }

    /** Smallest sequence number held ({@code Long.MAX_VALUE} when empty). */
    public long minSequence() {
        return minSequence.get();
    }

    /** Largest sequence number held ({@code Long.MIN_VALUE} when empty). */
    public long maxSequence() {
        return maxSequence.get();
    }

    /** The first entry in order. REQUIRES: not empty. */
    public Entry first() {
        return entries.first();
    }

    /** The last entry in order. REQUIRES: not empty. */
    public Entry last() {
        return entries.last();
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Makes the MemTable immutable; later {@link #add} calls fail. */
    public void freeze() {
        frozen = true;
    }

    public boolean frozen() {
        return frozen;
    }
}
