package io.lsmpolicies.lsm.sstable;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * An SSTable's trailer, its last {@value SSTableFormat#TRAILER_BYTES} bytes: where the tree, the Bloom filter, the
 * metadata and (versions 2 to 4) the page offsets are. Layouts: {@link SSTableFormat} (versions 2 to 4 share theirs).
 * Writers encode version 4 only; {@link #decode} reads all four, a version-1 trailer as the fixed-size pages it
 * describes (its pages counted from the file size, its "offsets" where its pages end).
 *
 * @param version    the format version: {@link SSTableFormat#VERSION}, {@link SSTableFormat#VERSION_BLOCKED_FILTER},
 *                   {@link SSTableFormat#VERSION_PACKED_PAGES} or {@link SSTableFormat#VERSION_FIXED_PAGES}
 * @param pageSize   the page size: every page is at most this long (exactly, in version 1)
 * @param height     levels of the tree (1: the root is a leaf)
 * @param root       the root page
 * @param leafPages  leaves, pages {@code 0 .. leafPages - 1}
 * @param bloomStart the first page of the Bloom filter
 * @param bloomBytes the Bloom filter's bytes
 * @param metaStart  the first page of the metadata
 * @param metaBytes  the metadata's bytes
 * @param pages      the pages in the file
 * @param offsetsAt  where the pages end: the offsets block's position (versions 2 to 4), the trailer's (version 1)
 * @param offsetsCrc CRC32C of the offsets block (versions 2 to 4; 0 in version 1, which has none)
 */
record SSTableTrailer(int version, int pageSize, int height, long root, long leafPages, long bloomStart, int bloomBytes,
        long metaStart, int metaBytes, long pages, long offsetsAt, int offsetsCrc) {

    /**
     * The most pages a table may have: each takes 4 bytes of the offsets block, which is read in one array.
     */
    static final long MAX_PAGES = (Integer.MAX_VALUE - 8) / 4;

    /** Bytes of the offsets block: 4 per page in versions 2 to 4, none in version 1. */
    long offsetsBytes() {
        return version == SSTableFormat.VERSION_FIXED_PAGES ? 0 : 4 * pages;
    }

    /** The version-4 encoding (version 2's layout), {@value SSTableFormat#TRAILER_BYTES} bytes, its checksum last. */
    byte[] encode() {
        if (version != SSTableFormat.VERSION) {
            throw new IllegalStateException("only version " + SSTableFormat.VERSION + " is written, not " + version);
        }
        ByteBuffer t = ByteBuffer.allocate(SSTableFormat.TRAILER_BYTES);
        t.putLong(SSTableFormat.MAGIC).putInt(version).putInt(pageSize).putInt(height).putInt(u32(root))
                .putInt(u32(leafPages)).putInt(u32(bloomStart)).putInt(bloomBytes).putInt(u32(metaStart))
                .putInt(metaBytes).putInt(u32(pages)).putLong(offsetsAt).putInt(offsetsCrc);
        t.putInt(SSTableFormat.crc(t.array(), 0, SSTableFormat.TRAILER_BYTES - 4));
        return t.array();
    }

    private static int u32(long pageNo) {
        if (pageNo < 0 || pageNo > MAX_PAGES) {
            throw new IllegalStateException("page number " + pageNo + " is past the format's " + MAX_PAGES);
        }
        return (int) pageNo;
    }

    /**
     * Decodes and checks the trailer {@code t} ({@value SSTableFormat#TRAILER_BYTES} bytes) of {@code path}, read at
     * offset {@code at} (the file's size less the trailer's).
     *
     * @throws CorruptionException naming the trailer's offset: {@code BAD_MAGIC} if it is not an SSTable's,
     *                             {@code CHECKSUM_MISMATCH} if damaged, {@code UNSUPPORTED_VERSION} for a version
     *                             this build does not read, {@code BAD_LENGTH} if it describes an impossible layout
     */
    static SSTableTrailer decode(Path path, ByteBuffer t, long at) throws CorruptionException {
        if (t.getLong(0) != SSTableFormat.MAGIC) {
            throw new CorruptionException(path, at, Code.BAD_MAGIC, "not an SSTable (trailer magic missing)");
        }
        if (t.getInt(SSTableFormat.TRAILER_BYTES - 4) != SSTableFormat.crc(t.array(), 0,
                SSTableFormat.TRAILER_BYTES - 4)) {
            throw new CorruptionException(path, at, Code.CHECKSUM_MISMATCH, "SSTable trailer checksum mismatch");
        }
        int version = t.getInt(8);
        SSTableTrailer trailer;
        if (version >= SSTableFormat.VERSION_PACKED_PAGES && version <= SSTableFormat.VERSION) {
            t.position(12);
            int pageSize = t.getInt();
            int height = t.getInt();
            long root = t.getInt();
            long leafPages = t.getInt();
            long bloomStart = t.getInt();
            int bloomBytes = t.getInt();
            long metaStart = t.getInt();
            int metaBytes = t.getInt();
            long pages = t.getInt();
            long offsetsAt = t.getLong();
            int offsetsCrc = t.getInt();
            trailer = new SSTableTrailer(version, pageSize, height, root, leafPages, bloomStart, bloomBytes, metaStart,
                    metaBytes, pages, offsetsAt, offsetsCrc);
        } else if (version == SSTableFormat.VERSION_FIXED_PAGES) {
            t.position(12);
            int pageSize = t.getInt();
            long root = t.getLong();
            int height = t.getInt();
            long leafPages = t.getLong();
            long bloomStart = t.getLong();
            int bloomBytes = t.getInt();
            long metaStart = t.getLong();
            int metaBytes = t.getInt();
            long pages = pageSize > 0 ? at / pageSize : 0;
            trailer = new SSTableTrailer(version, pageSize, height, root, leafPages, bloomStart, bloomBytes, metaStart,
                    metaBytes, pages, at, 0);
            if (pageSize > 0 && at % pageSize != 0) {
                throw new CorruptionException(path, at, Code.BAD_LENGTH, "SSTable of version 1 (fixed pages of "
                        + pageSize + " bytes) whose pages end at offset " + at + ", not at a page boundary");
            }
        } else {
            throw new CorruptionException(path, at + 8, Code.UNSUPPORTED_VERSION, "SSTable format version " + version
                    + "; this build reads versions " + SSTableFormat.VERSION_FIXED_PAGES + " to "
                    + SSTableFormat.VERSION + ": open the store with the release that wrote this table, or a later "
                    + "one");
        }
        trailer.check(path, at);
        return trailer;
    }

    /** Checks that the layout is possible, the trailer lying at {@code at}. */
    private void check(Path path, long at) throws CorruptionException {
        if (pageSize < SSTableFormat.MIN_PAGE_SIZE || pageSize > SSTableFormat.MAX_PAGE_SIZE
                || Integer.bitCount(pageSize) != 1 || height < 1 || pages > MAX_PAGES || leafPages < 1 || root < 0
                || root >= pages || leafPages > pages || bloomStart < leafPages || metaStart < bloomStart
                || metaStart >= pages || bloomBytes < 0 || metaBytes < 0 || bloomStart - leafPages > Integer.MAX_VALUE
                || offsetsAt < 0 || offsetsAt + offsetsBytes() != at) {
            throw new CorruptionException(path, at, Code.BAD_LENGTH, "SSTable trailer describes an impossible layout"
                    + " (version " + version + ", page size " + pageSize + ", " + pages + " pages ending at offset "
                    + offsetsAt + ", " + offsetsBytes() + " bytes of page offsets before the trailer at " + at
                    + ", root " + root + ", height " + height + ")");
        }
    }
}
