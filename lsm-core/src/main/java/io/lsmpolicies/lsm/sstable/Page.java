package io.lsmpolicies.lsm.sstable;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * A leaf page whose checksum has been verified, parsed once into an entry index so that a lookup
 * binary-searches the entries and compares keys in place, without decoding or copying the entries it passes.
 * Parsing checks that every entry's lengths stay inside the page, so later accesses need no bounds checks of
 * their own. The page's bytes are read with absolute accesses only, and never change while the page is in use:
 * a page is safe to share through the block cache and between threads.
 *
 * <p>The keys of one page, being sorted and close together, share a prefix (the common prefix of its first and
 * last key). The index keeps, per entry, the 8 key bytes that follow that prefix as one unsigned number (zero
 * padded): a search compares the target's prefix once, then mostly these numbers, and reads a whole key only
 * where they tie. Numbers that differ order the keys as their bytes do. Internal pages, pinned by their table off the
 * Java heap, are {@link IndexPage}s, searched the same way.
 *
 * <p>A page held in the block cache's memory ({@link PageArena}) is reference counted, since that memory is
 * reused once the page is evicted: whoever uses such a page holds a reference, taken with {@link #retain()}
 * (the cache's lookup takes it) and given back with {@link #release()} once the entries it needs are copied
 * out; the memory returns to the arena when the last reference is released. A page in memory of its own
 * (a read-ahead chunk, a page not cached) is not counted: retain and release do nothing.
 */
final class Page {
    /** Per entry: the entry's first byte, its key's first byte, its key's length. */
    private static final int SLOTS = 3;
    /** Bytes charged per page beyond its contents (object headers, the index array's header). */
    private static final int OVERHEAD_BYTES = 64;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle REFS;

    static {
        try {
            REFS = MethodHandles.lookup().findVarHandle(Page.class, "refs", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The page's bytes (big-endian), read with absolute accesses only. */
    private final ByteBuffer bytes;
    /** Where the page's entries end (its checksum's first byte) in {@link #bytes}. */
    private final int limit;
    /** Bytes of memory the page takes: its slot's size if it is in one, else its length. */
    private final int memoryBytes;
    private final int[] index;
    /** Length of the prefix every key of the page shares (stored at the first key). */
    private final int prefixLen;
    /** Per entry: the 8 key bytes after the shared prefix, big-endian, zero padded. */
    private final long[] next8;
    /** The arena slot holding {@link #bytes}, or {@code null} if the page's memory is not the cache's. */
    private final PageArena.Slot slot;
    private final PageArena arena;
    /** References to a page in a slot; its slot is freed when they fall to 0. */
    @SuppressWarnings("unused") // through REFS
    private volatile int refs;

    private Page(ByteBuffer bytes, int at, int length, int[] index, PageArena arena, PageArena.Slot slot) {
        this.bytes = bytes;
        this.limit = at + length - SSTableFormat.PAGE_CRC_BYTES;
        this.memoryBytes = slot == null ? length : slot.buffer().capacity();
        this.index = index;
        this.arena = arena;
        this.slot = slot;
        this.refs = 1;
        int n = index.length / SLOTS;
        if (n == 0) {
            prefixLen = 0;
        } else {
            int first = index[1];
            int last = index[SLOTS * (n - 1) + 1];
            int firstLen = index[2];
            int lastLen = index[SLOTS * (n - 1) + 2];
            int m = mismatch(bytes, first, last, Math.min(firstLen, lastLen));
            prefixLen = m < 0 ? Math.min(firstLen, lastLen) : m;
        }
        next8 = new long[n];
        for (int i = 0; i < n; i++) {
            next8[i] = next8(bytes, index[SLOTS * i + 1], index[SLOTS * i + 2], prefixLen);
        }
    }

    /** The first index below {@code length} where the bytes at {@code a} and {@code b} differ, or -1. */
    static int mismatch(ByteBuffer buf, int a, int b, int length) {
        for (int j = 0; j < length; j++) {
            if (buf.get(a + j) != buf.get(b + j)) {
                return j;
            }
        }
        return -1;
    }

    /** The 8 bytes of the key at {@code keyAt} (of {@code keyLen} bytes) from {@code from} on, zero padded. */
    static long next8(ByteBuffer b, int keyAt, int keyLen, int from) {
        if (from + 8 <= keyLen) {
            return b.getLong(keyAt + from);
        }
        long v = 0;
        for (int j = 0; j < 8; j++) {
            v = v << 8 | (from + j < keyLen ? b.get(keyAt + from + j) & 0xFF : 0);
        }
        return v;
    }

    /** As {@link #next8(ByteBuffer, int, int, int)} for a key in an array. */
    static long next8(byte[] key, int from) {
        if (from + 8 <= key.length) {
            return (long) LONGS.get(key, from);
        }
        long v = 0;
        for (int j = 0; j < 8; j++) {
            v = v << 8 | (from + j < key.length ? key[from + j] & 0xFF : 0);
        }
        return v;
    }

    /**
     * Parses {@code bytes}, all of leaf page {@code pageNo} of {@code path} (at {@code offset} in it), whose checksum
     * the caller verified.
     *
     * @throws CorruptionException if it is not a leaf or an entry runs past the page
     */
    static Page parse(Path path, long pageNo, long offset, byte[] bytes) throws CorruptionException {
        return parse(path, pageNo, offset, ByteBuffer.wrap(bytes), 0, bytes.length, null, null);
    }

    /**
     * As {@link #parse(Path, long, long, byte[])}, for the leaf held in {@code bytes[at, at + length)} (a read-ahead
     * buffer of several leaves).
     */
    static Page parse(Path path, long pageNo, long offset, byte[] bytes, int at, int length)
            throws CorruptionException {
        return parse(path, pageNo, offset, ByteBuffer.wrap(bytes), at, length, null, null);
    }

    /**
     * As {@link #parse(Path, long, long, byte[])}, for the leaf of {@code length} bytes read into the start of
     * {@code slot} of {@code arena} (a slot of the page size: a shorter page leaves the rest of it unused, and
     * whatever that rest holds is never read): the page holds one reference, and frees the slot when its last
     * reference is released. The caller frees the slot itself if parsing fails.
     */
    static Page parse(Path path, long pageNo, long offset, PageArena arena, PageArena.Slot slot, int length)
            throws CorruptionException {
        return parse(path, pageNo, offset, slot.buffer(), 0, length, arena, slot);
    }

    /**
     * The entry count of page {@code pageNo} (at {@code offset} in {@code path}) held in
     * {@code bytes[at, at + length)}, after checking that its type is {@code type} and that the count is possible.
     *
     * @throws CorruptionException naming the page if not
     */
    static int checkedCount(Path path, long pageNo, long offset, byte type, ByteBuffer bytes, int at, int length)
            throws CorruptionException {
        if (bytes.get(at) != type) {
            throw new CorruptionException(path, offset, Code.BAD_LENGTH, "page " + pageNo + " has type "
                    + bytes.get(at) + ", expected " + type);
        }
        int count = bytes.getInt(at + 1);
        if (count < 0 || count > length / 3) {
            throw new CorruptionException(path, offset, Code.BAD_LENGTH, "page " + pageNo + " claims "
                    + count + " entries");
        }
        return count;
    }

    private static Page parse(Path path, long pageNo, long offset, ByteBuffer bytes, int at, int length,
                              PageArena arena, PageArena.Slot slot) throws CorruptionException {
        int count = checkedCount(path, pageNo, offset, SSTableFormat.LEAF, bytes, at, length);
        int end = at + length - SSTableFormat.PAGE_CRC_BYTES;
        int[] index = new int[count * SLOTS];
        int[] pos = {at + SSTableFormat.PAGE_HEADER_BYTES};
        try {
            for (int i = 0; i < count; i++) {
                index[SLOTS * i] = pos[0];
                pos[0]++; // flags
                long keyLen = varLong(bytes, pos, end);
                long valueLen = varLong(bytes, pos, end);
                varLong(bytes, pos, end); // sequence
                if (keyLen < 0 || valueLen < 0 || keyLen > end - pos[0] || valueLen > end - pos[0] - keyLen) {
                    throw new IllegalArgumentException("length " + (keyLen + valueLen) + " runs past the end of the"
                            + " page");
                }
                index[SLOTS * i + 1] = pos[0];
                index[SLOTS * i + 2] = (int) keyLen;
                pos[0] += (int) (keyLen + valueLen);
            }
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(path, offset, Code.BAD_LENGTH, "leaf entry: " + e.getMessage());
        }
        return new Page(bytes, at, length, index, arena, slot);
    }

    /**
     * Takes a reference to this page, unless its memory has already been given back (its last reference was
     * released): then it must not be used, and the caller reads the page again.
     */
    boolean retain() {
        if (slot == null) {
            return true;
        }
        int r;
        do {
            r = refs;
            if (r <= 0) {
                return false;
            }
        } while (!REFS.compareAndSet(this, r, r + 1));
        return true;
    }

    /** Gives back a reference taken by {@link #retain()} or by reading the page; the page is not used after. */
    void release() {
        if (slot == null) {
            return;
        }
        int r = (int) REFS.getAndAdd(this, -1) - 1;
        if (r == 0) {
            arena.free(slot);
        } else if (r < 0) {
            throw new IllegalStateException("page released more often than retained");
        }
    }

    /** The arena slot holding this page, or {@code null} if its memory is not the block cache's. */
    PageArena.Slot slot() {
        return slot;
    }

    /** Bytes of memory the page takes: the size of its arena slot (the page size), or its length if in none. */
    int memoryBytes() {
        return memoryBytes;
    }

    int count() {
        return index.length / SLOTS;
    }

    /** Bytes this page costs in memory, for the block cache's bound and the pinned-index account. */
    long weight() {
        return memoryBytes + 4L * index.length + 8L * next8.length + OVERHEAD_BYTES;
    }

    /** Compares entry {@code i}'s internal key with ({@code key}, {@code sequence}), as {@link Entry#compare}. */
    int compare(int i, byte[] key, long sequence) {
        int c = compareKey(index[SLOTS * i + 1], index[SLOTS * i + 2], key, 0, key.length);
        return c != 0 ? c : Long.compare(sequence, sequence(i));
    }

    /** Whether entry {@code i}'s key is {@code key}. */
    boolean keyEquals(int i, byte[] key) {
        int keyLen = index[SLOTS * i + 2];
        return keyLen == key.length && compareKey(index[SLOTS * i + 1], keyLen, key, 0, key.length) == 0;
    }

    private int compareKey(int at, int length, byte[] key, int from, int to) {
        return compareKey(bytes, at, length, key, from, to);
    }

    /**
     * Compares {@code bytes}' [{@code at}, {@code at + length}) with {@code key[from, to)} as unsigned byte strings,
     * 8 bytes at a time.
     */
    static int compareKey(ByteBuffer bytes, int at, int length, byte[] key, int from, int to) {
        int n = Math.min(length, to - from);
        int j = 0;
        for (; j + 8 <= n; j += 8) {
            long a = bytes.getLong(at + j);
            long b = (long) LONGS.get(key, from + j);
            if (a != b) {
                return Long.compareUnsigned(a, b);
            }
        }
        for (; j < n; j++) {
            int d = (bytes.get(at + j) & 0xFF) - (key[from + j] & 0xFF);
            if (d != 0) {
                return d;
            }
        }
        return Integer.compare(length, to - from);
    }

    /** The first entry at or after ({@code key}, {@code sequence}), or {@link #count()} if none. */
    int lowerBound(byte[] key, long sequence) {
        int lo = 0;
        int hi = count();
        if (hi == 0) {
            return 0;
        }
        int first = index[1];
        int c = compareKey(first, prefixLen, key, 0, Math.min(prefixLen, key.length));
        if (c != 0 || key.length < prefixLen) { // the target is outside the shared prefix: before or after all
            return c < 0 ? hi : 0;
        }
        long target = next8(key, prefixLen);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int d = Long.compareUnsigned(next8[mid], target);
            if (d == 0) {
                d = compare(mid, key, sequence);
            }
            if (d < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The last entry at or before ({@code key}, {@code sequence}), or 0 if every entry is after it. */
    int floor(byte[] key, long sequence) {
        int i = lowerBound(key, sequence);
        return i < count() && compare(i, key, sequence) == 0 ? i : Math.max(0, i - 1);
    }

    /** Entry {@code i}, key and value copied out. */
    Entry entry(int i) {
        int start = index[SLOTS * i];
        int keyAt = index[SLOTS * i + 1];
        int keyLen = index[SLOTS * i + 2];
        int[] at = {start + 1};
        varLong(bytes, at, limit);
        int valueLen = (int) varLong(bytes, at, limit);
        long sequence = varLong(bytes, at, limit);
        boolean tombstone = (bytes.get(start) & 1) != 0;
        byte[] key = new byte[keyLen];
        bytes.get(keyAt, key);
        byte[] value = new byte[valueLen];
        bytes.get(keyAt + keyLen, value);
        return new Entry(key, sequence, tombstone, value);
    }

    private long sequence(int i) {
        int[] at = {index[SLOTS * i] + 1}; // past the flags
        varLong(bytes, at, limit);
        varLong(bytes, at, limit);
        return varLong(bytes, at, limit);
    }

    /** Reads the varlong at {@code at[0]}, before {@code end}, and moves {@code at[0]} past it. */
    static long varLong(ByteBuffer b, int[] at, int end) {
        long v = 0;
        int p = at[0];
        for (int shift = 0; shift < 64; shift += 7) {
            if (p >= end) {
                throw new IllegalArgumentException("varint runs past the end of the page");
            }
            byte x = b.get(p++);
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                at[0] = p;
                return v;
            }
        }
        throw new IllegalArgumentException("varint longer than " + SSTableFormat.MAX_VARLONG_BYTES + " bytes");
    }
}
