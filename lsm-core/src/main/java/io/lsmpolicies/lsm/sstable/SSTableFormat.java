package io.lsmpolicies.lsm.sstable;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The SSTable file format, version 1: a bulk-loaded B+-tree of fixed-size pages. Big-endian.
 *
 * <pre>
 * file    := leaf-page* internal-page* blob-page* trailer
 * page    := type u8 | count u32 | body | crc u32        -- exactly pageSize bytes; crc = CRC32C of the
 *                                                          page number (u64) followed by bytes [0, pageSize-4)
 * leaf    := type 1, count entries:  flags u8 (bit 0: tombstone) | keyLen varint | valueLen varint
 *                                    | sequence varlong | key | value
 * internal:= type 2, count children: keyLen varint | sequence varlong | child page varlong | key
 *            (the child's first internal key; children in order)
 * blob    := type 3, count = bytes used | bytes           -- Bloom filter, then metadata, each spanning
 *                                                          consecutive pages
 * trailer := magic u64 ("LSMSST\n\x1a") | version u32 | pageSize u32 | root u64 | height u32
 *            | leafPages u64 | bloomStart u64 | bloomBytes u32 | metaStart u64 | metaBytes u32 | crc u32
 *                                                       -- 64 bytes at the very end; crc = CRC32C of the 60 before
 * </pre>
 *
 * Leaves are pages 0 .. leafPages-1 in key order, so a scan walks them sequentially. Mixing the page number
 * into each page's checksum detects a page written or read at the wrong offset, not only flipped bits.
 */
final class SSTableFormat {
    static final long MAGIC = 0x4C534D5353540A1AL; // "LSMSST\n\x1a"
    static final int VERSION = 1;
    static final int TRAILER_BYTES = 64;
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

    /** CRC of page {@code pageNo} held in {@code page} (position 0, pageSize bytes). */
    static int pageCrc(long pageNo, byte[] page) {
        return pageCrc(pageNo, page, 0, page.length);
    }

    /** CRC of page {@code pageNo} held in {@code bytes[at, at + pageSize)}. */
    static int pageCrc(long pageNo, byte[] bytes, int at, int pageSize) {
        CRC32C c = pageCrcStart(pageNo);
        c.update(bytes, at, pageSize - PAGE_CRC_BYTES);
        return (int) c.getValue();
    }

    /** CRC of page {@code pageNo} held in {@code page} from its position 0 (moves its position and limit). */
    static int pageCrc(long pageNo, ByteBuffer page) {
        CRC32C c = pageCrcStart(pageNo);
        c.update(page.position(0).limit(page.capacity() - PAGE_CRC_BYTES));
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
        throw new IllegalArgumentException("varint longer than 10 bytes");
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
