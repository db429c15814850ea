package io.lsmpolicies.lsm.sstable;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The SSTable file format: a bulk-loaded B+-tree of pages. Big-endian. Writers write version 4; readers read
 * versions 1 to 4.
 *
 * <pre>
 * file    := leaf-page* internal-page* blob-page* offsets trailer     -- pages numbered 0, 1, ... in file order
 * page    := type u8 | count u32 | body | crc u32        -- at most pageSize bytes; crc = CRC32C of the page number
 *                                                          (u64) followed by every byte of the page before the crc
 * leaf    := type 1, count entries:  flags u8 (bit 0: tombstone) | keyLen varint | valueLen varint
 *                                    | sequence varlong | key | value
 * internal:= type 2, count children: keyLen varint | sequence varlong | child page varlong | key
 *            (children in order; the key and sequence are the child's separator, see the versions)
 * blob    := type 3, count = bytes used | bytes           -- Bloom filter, then metadata, each spanning
 *                                                          consecutive pages
 *
 * version 4 ("short separators"): version 3's layout, with separators that need not be keys of the table. A
 * child's separator sorts after every entry of the children before it and at or before the child's first entry (in
 * internal order: key ascending, then sequence descending). A leaf's separator is the shortest prefix of its first
 * key that sorts after the key before it, with sequence number 0, or, where no prefix shorter than that key does
 * (the same key continues across the two leaves, or the key before is the first key less its last byte), the first
 * key and its sequence number; the first leaf's is its first key. An internal page's separator is its first
 * child's. A lookup descends to the last child whose separator is at or before its target, as in every version.
 *
 * version 3 ("blocked filter"): version 2's layout, its Bloom filter of the blocked layout (the filter encoding's
 * version 2, {@link BloomFilter}); versions 1 and 2 hold filters of the first layout (the encoding's version 1).
 * In versions 1 to 3 a child's separator is its first entry's key and sequence number.
 *
 * version 2 ("packed pages"): a page is exactly as long as its header, body and crc; pages follow one another
 * with no gap from offset 0, so page n starts where page n-1 ends.
 * offsets := length u32 * pages                           -- each page's length in bytes, in page order, in
 *                                                          [PAGE_HEADER_BYTES + PAGE_CRC_BYTES, pageSize]
 * trailer := magic u64 ("LSMSST\n\x1a") | version u32 (2 to 4) | pageSize u32 | height u32 | root u32 | leafPages u32
 *            | bloomStart u32 | bloomBytes u32 | metaStart u32 | metaBytes u32 | pages u32 | offsetsAt u64
 *            | offsetsCrc u32 | crc u32                   -- 64 bytes at the very end; offsetsAt = the sum of the
 *                                                          lengths (where the pages end and the offsets begin),
 *                                                          offsetsCrc = CRC32C of the offsets block, crc = CRC32C of
 *                                                          the 60 bytes before it
 *
 * version 1 ("fixed pages"): every page is exactly pageSize bytes (zero padding between its body and its crc),
 * page n at offset n * pageSize; there is no offsets block.
 * trailer := magic u64 | version u32 (1) | pageSize u32 | root u64 | height u32 | leafPages u64 | bloomStart u64
 *            | bloomBytes u32 | metaStart u64 | metaBytes u32 | crc u32   -- 64 bytes at the very end
 * </pre>
 *
 * Leaves are pages 0 .. leafPages-1 in key order, so a scan walks them sequentially. Mixing the page number
 * into each page's checksum detects a page written or read at the wrong offset, not only flipped bits. The
 * trailer's layout after its version field depends on the version ({@link SSTableTrailer}); where each page lies
 * is {@link PageOffsets}'.
 */
final class SSTableFormat {
    static final long MAGIC = 0x4C534D5353540A1AL; // "LSMSST\n\x1a"
    /** The version writers write: packed pages, an offsets block, a blocked Bloom filter and short separators. */
    static final int VERSION = 4;
    /** Version 4's layout with separators that are the children's first keys, still read. */
    static final int VERSION_BLOCKED_FILTER = 3;
    /** Packed pages with a Bloom filter of the first layout, still read. */
    static final int VERSION_PACKED_PAGES = 2;
    /** The version of fixed-size pages, still read. */
    static final int VERSION_FIXED_PAGES = 1;
    static final int TRAILER_BYTES = 64;

    /** {@return whether a table of format {@code version} writes each child's first key as its separator} */
    static boolean separatorsAreFirstKeys(int version) {
        return version < VERSION;
    }

    /** {@return the version of the Bloom filter encoding a table of format {@code version} holds} */
    static byte bloomVersion(int version) {
        return version >= VERSION_BLOCKED_FILTER ? BloomFilter.VERSION_BLOCKED : BloomFilter.VERSION_WHOLE;
    }
    static final int PAGE_HEADER_BYTES = 5;
    static final int PAGE_CRC_BYTES = 4;
    static final byte LEAF = 1;
    static final byte INTERNAL = 2;
    static final byte BLOB = 3;
    /** Default page size: 4 KiB, the usual file-system block and SSD page size. */
    static final int DEFAULT_PAGE_SIZE = 4096;
    static final int MIN_PAGE_SIZE = 512;
    static final int MAX_PAGE_SIZE = 1 << 20;

    private SSTableFormat() {
    }

    /** Bytes of a page beyond its body: its header and its checksum (the shortest possible page). */
    static final int PAGE_FRAME_BYTES = PAGE_HEADER_BYTES + PAGE_CRC_BYTES;

    /** CRC of page {@code pageNo} held in all of {@code page}. */
    static int pageCrc(long pageNo, byte[] page) {
        return pageCrc(pageNo, page, 0, page.length);
    }

    /** CRC of page {@code pageNo}, {@code length} bytes held in {@code bytes[at, at + length)}. */
    static int pageCrc(long pageNo, byte[] bytes, int at, int length) {
        CRC32C c = pageCrcStart(pageNo);
        c.update(bytes, at, length - PAGE_CRC_BYTES);
        return (int) c.getValue();
    }

    /**
     * CRC of page {@code pageNo}, {@code length} bytes held in {@code page} from its position 0 (moves its position
     * and limit).
     */
    static int pageCrc(long pageNo, ByteBuffer page, int length) {
        CRC32C c = pageCrcStart(pageNo);
        c.update(page.position(0).limit(length - PAGE_CRC_BYTES));
        return (int) c.getValue();
    }

    /** A page's CRC starts with its page number (big-endian), so a page written at the wrong place fails. */
    private static CRC32C pageCrcStart(long pageNo) {
        CRC32C c = new CRC32C();
        for (int shift = 56; shift >= 0; shift -= 8) {
            c.update((int) (pageNo >>> shift));
        }
        return c;
    }

    static int crc(byte[] bytes, int offset, int length) {
        CRC32C c = new CRC32C();
        c.update(bytes, offset, length);
        return (int) c.getValue();
    }

    /** The most bytes a varlong takes (a 64-bit value, 7 bits a byte). */
    static final int MAX_VARLONG_BYTES = 10;

    static void putVarLong(ByteBuffer b, long v) {
        while ((v & ~0x7FL) != 0) {
            b.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        b.put((byte) v);
    }

    static int varLongSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** Reads a varlong; throws IllegalArgumentException if it runs past the buffer or past 10 bytes. */
    static long getVarLong(ByteBuffer b) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (!b.hasRemaining()) {
                throw new IllegalArgumentException("varint runs past the end of the page");
            }
            byte x = b.get();
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                return v;
            }
        }
        throw new IllegalArgumentException("varint longer than " + MAX_VARLONG_BYTES + " bytes");
    }

    /** Bytes one leaf entry of a {@code keyLen}-byte key and {@code valueLen}-byte value takes. */
    static int leafEntrySize(int keyLen, int valueLen, long sequence) {
        return 1 + varLongSize(keyLen) + varLongSize(valueLen) + varLongSize(sequence) + keyLen + valueLen;
    }

    /** Largest entry (in {@link #leafEntrySize} bytes) a page of {@code pageSize} holds. */
    static int maxEntryBytes(int pageSize) {
        return pageSize - PAGE_HEADER_BYTES - PAGE_CRC_BYTES;
    }
}
