package io.lsmpolicies.lsm.memtable;

import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import java.util.Iterator;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory component: entries in {@link Entry#ORDER} (key ascending, sequence descending), with its memory
 * accounted in bytes. Each entry's key and value are copied into the MemTable's {@link Arena} (large chunks that,
 * under G1, live outside the young generation); a concurrent skip list of small index nodes orders them. Many
 * threads may add and read at once; once {@link #freeze() frozen} it is immutable and is flushed to an SSTable
 * while a new MemTable takes writes.
 *
 * <p>Lifetime: a MemTable starts with one reference, its owner's (the store's read view). A reader that may read
 * it after its owner let go takes a reference of its own first ({@link #tryRetain()}) and gives it back when done
 * ({@link #release()}); when the last reference goes, a MemTable made with a {@link ChunkPool} gives its chunks to
 * the pool for the next MemTables to fill, and must not be read again. Without a pool the chunks are left to the
 * collector, which frees them once nothing refers to them.
 *
 * <p>{@link #bytes()} charges each entry its record ({@value Slot#HEADER}-byte header, key and value) and
 * {@link #INDEX_NODE_BYTES} for its index node, plus the unused end of every chunk no longer filled; the heap it
 * holds is at most that plus the unused end of the chunk being filled ({@link #allocatedBytes()}).
 */
public final class MemTable {
    /**
     * Bytes charged per entry for its place in the index: the node pointing into the arena, the skip-list node,
     * and on average half a skip-list index node, as measured on a 64-bit JVM with compressed oops (rounded up).
     */
    public static final int INDEX_NODE_BYTES = 64;
    /** The budget the no-argument constructor sizes its chunks for: a small MemTable's. */
    public static final long SMALL_BUDGET_BYTES = 4096;

    private final Arena arena;
    private final ConcurrentSkipListSet<Slot> entries = new ConcurrentSkipListSet<>(Slot.ORDER);
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicLong dataBytes = new AtomicLong();
    private final AtomicLong tombstones = new AtomicLong();
    private final AtomicLong minSequence = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxSequence = new AtomicLong(Long.MIN_VALUE);
    private final AtomicInteger refs = new AtomicInteger(1);
    private volatile boolean frozen;

    /** A MemTable whose chunks are sized for a small one ({@link #SMALL_BUDGET_BYTES}), without a pool. */
    public MemTable() {
        this(SMALL_BUDGET_BYTES);
    }

    /**
     * A MemTable whose chunks are sized for {@code budgetBytes} (the store's {@code memtableBytes}): a G1 region
     * less its array header when the budget holds one, so that the chunks are humongous objects.
     *
     * @param budgetBytes the budget the MemTable is filled up to
     */
    public MemTable(long budgetBytes) {
        this(budgetBytes, null);
    }

    /**
     * A MemTable sized for {@code budgetBytes} whose chunks come from, and after its last {@link #release()} go
     * back to, {@code pool}.
     *
     * @param budgetBytes the budget the MemTable is filled up to
     * @param pool        the store's pool (its chunks sized for the same budget), or null
     * @throws IllegalArgumentException if the pool's chunks are of another size
     */
    public MemTable(long budgetBytes, ChunkPool pool) {
        this.arena = new Arena(budgetBytes, pool);
    }

    /**
     * Takes a reference for a reader, unless the last one is gone already.
     *
     * @return true if taken (give it back with {@link #release()}); false if the MemTable was released for good
     */
    public boolean tryRetain() {
        for (int n = refs.get(); n > 0; n = refs.get()) {
            if (refs.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Gives back a reference (the owner's, or one {@link #tryRetain()} took). The last one recycles the chunks.
     *
     * @throws IllegalStateException if no reference is left to give back
     */
    public void release() {
        int n = refs.decrementAndGet();
        if (n == 0) {
            arena.recycle();
        } else if (n < 0) {
            throw new IllegalStateException("the MemTable was released more often than it was retained");
        }
    }

    private void checkLive() {
        if (refs.get() <= 0) {
            throw new IllegalStateException("the MemTable was released; its chunks may hold other records now");
        }
    }

    /**
     * Adds one entry, copying its key and value. REQUIRES: not frozen; the entry's (key, sequence) is new.
     *
     * @param e the entry
     * @throws IllegalStateException if frozen
     * @throws IllegalArgumentException if an entry with the same key and sequence exists
     */
    public void add(Entry e) {
        add(e.key(), e.sequence(), e.tombstone(), e.value());
    }

    /**
     * Adds one entry, copying its key and value (the caller may reuse the arrays once this returns).
     * REQUIRES: not frozen; the (key, sequence) is new.
     *
     * @param key       the key
     * @param sequence  the write's sequence number, {@code >= 0}
     * @param tombstone true for a delete
     * @param value     the value; empty for a tombstone
     * @throws IllegalStateException if frozen
     * @throws IllegalArgumentException if an entry with the same key and sequence exists, the sequence is
     *                                  negative, or a tombstone has a value
     */
    public void add(byte[] key, long sequence, boolean tombstone, byte[] value) {
        if (frozen) {
            throw new IllegalStateException("the MemTable is frozen; writes go to its successor");
        }
        checkLive();
        if (sequence < 0 || tombstone && value.length != 0) {
            throw new IllegalArgumentException(sequence < 0 ? "sequence must be >= 0, was " + sequence
                    : "a tombstone has no value");
        }
        Slot s = arena.allocate(Slot.recordBytes(key.length, value.length));
        Slot.write(s.array, s.offset, key, sequence, tombstone, value);
        if (!entries.add(s)) {
            throw new IllegalArgumentException("the MemTable already holds " + s.entry());
        }
        size.incrementAndGet();
        dataBytes.addAndGet((long) key.length + value.length);
        minSequence.accumulateAndGet(sequence, Math::min);
        maxSequence.accumulateAndGet(sequence, Math::max);
        if (tombstone) {
            tombstones.incrementAndGet();
        }
    }

    /**
     * Bytes an entry of these lengths is charged, not counting the unused end of a chunk it may leave.
     *
     * @param keyLength   the key's length
     * @param valueLength the value's length (0 for a tombstone)
     * @return its record's bytes and {@link #INDEX_NODE_BYTES}
     */
    public static long charge(int keyLength, int valueLength) {
        return Slot.recordBytes(keyLength, valueLength) + INDEX_NODE_BYTES;
    }

    /**
     * Bytes one entry is charged, as {@link #charge(int, int)}.
     *
     * @param e the entry
     * @return its charge
     */
    public static long charge(Entry e) {
        return charge(e.key().length, e.value().length);
    }

    /**
     * The newest version of {@code key} with sequence at most {@code snapshot}, or null.
     *
     * @param key      the key
     * @param snapshot the largest sequence number to see
     * @return the entry, its key and value copied out, or null
     */
    public Entry get(byte[] key, long snapshot) {
        checkLive();
        Slot s = entries.ceiling(Slot.probe(key, snapshot));
        return s != null && s.hasKey(key) ? s.entry() : null;
    }

    /**
     * Entries from the first at or after ({@code key}, {@code sequence}), in order, each copied out; weakly
     * consistent.
     *
     * @param key      the first key
     * @param sequence the largest sequence number of {@code key} to start at
     * @return the entries
     */
    public Iterator<Entry> iterator(byte[] key, long sequence) {
        checkLive();
        return copies(entries.tailSet(Slot.probe(key, sequence), true).iterator());
    }

    /** {@return all entries in order, each copied out; weakly consistent while writes continue, exact once frozen} */
    public Iterator<Entry> iterator() {
        checkLive();
        return copies(entries.iterator());
    }

    /**
     * A cursor on the entries from the first at or after ({@code key}, {@code sequence}), reading each key and value
     * where it lies in the arena (nothing is copied); weakly consistent. The bytes it hands out do not change while
     * the caller holds a reference on the MemTable (see {@link #tryRetain()}).
     *
     * @param key      the first key
     * @param sequence the largest sequence number of {@code key} to start at
     * @return the cursor
     */
    public EntryCursor cursor(byte[] key, long sequence) {
        checkLive();
        return new SlotCursor(entries.tailSet(Slot.probe(key, sequence), true).iterator());
    }

    /**
     * A cursor on the entries with keys in {@code [from, to)}, in place as {@link #cursor(byte[], long)}; exact once
     * frozen. A merge split by key reads one range each.
     *
     * @param from the first key (null: from the first entry)
     * @param to   the end, excluded (null: to the last entry)
     * @return the cursor
     */
    public EntryCursor cursor(byte[] from, byte[] to) {
        checkLive();
        NavigableSet<Slot> range = entries;
        if (from != null) {
            range = range.tailSet(Slot.probe(from, Long.MAX_VALUE), true);
        }
        if (to != null) {
            range = range.headSet(Slot.probe(to, Long.MAX_VALUE), false);
        }
        return new SlotCursor(range.iterator());
    }

    /** {@return a cursor on all entries, in place as {@link #cursor(byte[], long)}; exact once frozen} */
    public EntryCursor cursor() {
        checkLive();
        return new SlotCursor(entries.iterator());
    }

    /** {@return bytes charged so far: records, index nodes, and the unused ends of chunks no longer filled} */
    public long bytes() {
        return arena.chargedBytes() + (long) INDEX_NODE_BYTES * size.get();
    }

    /** {@return heap bytes held: every chunk in full (the one being filled too), records' own arrays, index nodes} */
    public long allocatedBytes() {
        return arena.allocatedBytes() + (long) INDEX_NODE_BYTES * size.get();
    }

    /** {@return the bytes of the keys and values held} */
    public long dataBytes() {
        return dataBytes.get();
    }

    /** {@return the number of entries} */
    public int size() {
        return size.get();
    }

    /** {@return the number of tombstones} */
    public long tombstones() {
        return tombstones.get();
    }

    /** {@return the smallest sequence number held ({@code Long.MAX_VALUE} when empty)} */
    public long minSequence() {
        return minSequence.get();
    }

    /** {@return the largest sequence number held ({@code Long.MIN_VALUE} when empty)} */
    public long maxSequence() {
        return maxSequence.get();
    }

    /**
     * The first entry in order. REQUIRES: not empty.
     *
     * @return the entry, copied out
     * @throws NoSuchElementException if empty
     */
    public Entry first() {
        checkLive();
        return entries.first().entry();
    }

    /**
     * The last entry in order. REQUIRES: not empty.
     *
     * @return the entry, copied out
     * @throws NoSuchElementException if empty
     */
    public Entry last() {
        checkLive();
        return entries.last().entry();
    }

    /** {@return whether the MemTable holds no entry} */
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Makes the MemTable immutable; later {@link #add} calls fail. */
    public void freeze() {
        frozen = true;
    }

    /** {@return whether {@link #freeze()} was called} */
    public boolean frozen() {
        return frozen;
    }

    private static Iterator<Entry> copies(Iterator<Slot> slots) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return slots.hasNext();
            }

            @Override
            public Entry next() {
                return slots.next().entry();
            }
        };
    }

    /** A cursor handing out the arena's arrays, one slot at a time. */
    private static final class SlotCursor implements EntryCursor {
        private final Iterator<Slot> slots;
        private Slot current;

        SlotCursor(Iterator<Slot> slots) {
            this.slots = slots;
        }

        @Override
        public boolean advance() {
            current = slots.hasNext() ? slots.next() : null;
            return current != null;
        }

        @Override
        public byte[] keyArray() {
            return current.array;
        }

        @Override
        public int keyOffset() {
            return current.keyOffset();
        }

        @Override
        public int keyLength() {
            return current.keyLength();
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
            return current.array;
        }

        @Override
        public int valueOffset() {
            return current.valueOffset();
        }

        @Override
        public int valueLength() {
            return current.valueLength();
        }

        @Override
        public Entry entry() {
            return current.entry();
        }
    }
}
