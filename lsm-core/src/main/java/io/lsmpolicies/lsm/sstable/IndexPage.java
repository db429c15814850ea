package io.lsmpolicies.lsm.sstable;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * An internal page as its table pins it: the page's bytes, whose checksum the caller verified, followed by a
 * directory of its entries, all in one buffer of the table's {@link IndexMemory} (off the Java heap), so that a
 * read process's pinned index is neither copied nor scanned by the garbage collector. A lookup binary-searches
 * the directory, each entry of which is the 8 key bytes after the prefix every key of the page shares (as
 * {@link Page} keeps them) and the entry's offset ({@value #DIRECTORY_ENTRY_BYTES} bytes), reads a whole key from
 * the page only where those 8 bytes tie, and decodes the child's page number of the one entry it descends to.
 * Parsing checks every entry's lengths, so later accesses need no checks of their own (the reader checks the child
 * it descends to). The buffer never changes after parsing: safe to share between threads and between the readers
 * of one table.
 */
final class IndexPage {
    /** Per entry: the 8 key bytes after the shared prefix, the entry's offset. */
    static final int DIRECTORY_ENTRY_BYTES = 12;
    /** Bytes charged per page beyond its buffer (the page's and the buffer's objects). */
    private static final int OVERHEAD_BYTES = 96;

    /** The page's bytes, then the directory at {@link #directory}. */
    private final ByteBuffer memory;
    private final int directory;
    private final int count;
    /** Where the page's entries end (its checksum's first byte). */
    private final int limit;
    /** Length of the prefix every key of the page shares. */
    private final int prefixLen;
    /** The shared prefix's first byte in {@link #memory} (the first key's). */
    private final int prefixAt;

    private IndexPage(ByteBuffer memory, int directory, int count, int limit, int prefixAt, int prefixLen) {
        this.memory = memory;
        this.directory = directory;
        this.count = count;
        this.limit = limit;
        this.prefixAt = prefixAt;
        this.prefixLen = prefixLen;
    }

    /**
     * Parses {@code bytes}, all of internal page {@code pageNo} of {@code path} (at {@code offset} in it), whose
     * checksum the caller verified, into a buffer of {@code memory}.
     *
     * @throws CorruptionException if it is not an internal page or an entry runs past the page
     */
    static IndexPage parse(Path path, long pageNo, long offset, byte[] bytes, IndexMemory memory)
            throws CorruptionException {
        ByteBuffer page = ByteBuffer.wrap(bytes);
        int count = Page.checkedCount(path, pageNo, offset, SSTableFormat.INTERNAL, page, 0, bytes.length);
        int end = bytes.length - SSTableFormat.PAGE_CRC_BYTES;
        // first pass: check every entry, and find the first and last keys (their shared prefix)
        int[] at = {SSTableFormat.PAGE_HEADER_BYTES};
        int firstAt = 0;
        int firstLen = 0;
        int lastAt = 0;
        int lastLen = 0;
        try {
            for (int i = 0; i < count; i++) {
                long keyLen = Page.varLong(page, at, end);
                Page.varLong(page, at, end); // sequence
                Page.varLong(page, at, end); // child, checked by the descent that follows it
                if (keyLen < 0 || keyLen > end - at[0]) {
                    throw new IllegalArgumentException("length " + keyLen + " runs past the end of the page");
                }
                if (i == 0) {
                    firstAt = at[0];
                    firstLen = (int) keyLen;
                }
                lastAt = at[0];
                lastLen = (int) keyLen;
                at[0] += (int) keyLen;
            }
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(path, offset, Code.BAD_LENGTH, "internal entry: " + e.getMessage());
        }
        int shared = Math.min(firstLen, lastLen);
        int m = Page.mismatch(page, firstAt, lastAt, shared);
        int prefixLen = m < 0 ? shared : m;
        // second pass: the directory, after the page's bytes
        ByteBuffer out = memory.allocate(bytes.length + DIRECTORY_ENTRY_BYTES * count);
        out.put(0, bytes);
        int directory = bytes.length;
        at[0] = SSTableFormat.PAGE_HEADER_BYTES;
        for (int i = 0; i < count; i++) {
            int entryAt = at[0];
            int keyLen = (int) Page.varLong(page, at, end);
            Page.varLong(page, at, end);
            Page.varLong(page, at, end);
            int d = directory + DIRECTORY_ENTRY_BYTES * i;
            out.putLong(d, Page.next8(page, at[0], keyLen, prefixLen));
            out.putInt(d + 8, entryAt);
            at[0] += keyLen;
        }
        return new IndexPage(out, directory, count, end, firstAt, prefixLen);
    }

    int count() {
        return count;
    }

    /** Bytes this page costs in memory: its buffer and its objects. */
    long weight() {
        return memory.capacity() + OVERHEAD_BYTES;
    }

    /** The child page entry {@code i} points to. */
    long child(int i) {
        int[] at = {memory.getInt(directory + DIRECTORY_ENTRY_BYTES * i + 8)};
        Page.varLong(memory, at, limit); // key length
        Page.varLong(memory, at, limit); // sequence
        return Page.varLong(memory, at, limit);
    }

    /** The last entry at or before ({@code key}, {@code sequence}), or 0 if every entry is after it. */
    int floor(byte[] key, long sequence) {
        int i = lowerBound(key, sequence);
        return i < count && compare(i, key, sequence) == 0 ? i : Math.max(0, i - 1);
    }

    /** The first entry at or after ({@code key}, {@code sequence}), or {@link #count()} if none. */
    private int lowerBound(byte[] key, long sequence) {
        int lo = 0;
        int hi = count;
        if (hi == 0) {
            return 0;
        }
        int c = Page.compareKey(memory, prefixAt, prefixLen, key, 0, Math.min(prefixLen, key.length));
        if (c != 0 || key.length < prefixLen) { // the target is outside the shared prefix: before or after all
            return c < 0 ? hi : 0;
        }
        long target = Page.next8(key, prefixLen);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int d = Long.compareUnsigned(memory.getLong(directory + DIRECTORY_ENTRY_BYTES * mid), target);
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

    /** Compares entry {@code i}'s key and sequence with ({@code key}, {@code sequence}), as {@link Entry#compare}. */
    private int compare(int i, byte[] key, long sequence) {
        int[] at = {memory.getInt(directory + DIRECTORY_ENTRY_BYTES * i + 8)};
        int keyLen = (int) Page.varLong(memory, at, limit);
        long entrySequence = Page.varLong(memory, at, limit);
        Page.varLong(memory, at, limit); // child
        int c = Page.compareKey(memory, at[0], keyLen, key, 0, key.length);
        return c != 0 ? c : Long.compare(sequence, entrySequence);
    }
}
