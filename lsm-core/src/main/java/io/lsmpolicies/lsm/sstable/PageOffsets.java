package io.lsmpolicies.lsm.sstable;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Where each page of an SSTable lies: page {@code n} is {@link #length}{@code (n)} bytes at {@link #offset}{@code (n)}.
 * In versions 2 to 4 the pages are packed one after another, each as long as it is, and their lengths are read from
 * the offsets block at open (and held here, 8 bytes per page); in version 1 every page is {@code pageSize} bytes at
 * {@code n * pageSize}. Immutable.
 */
final class PageOffsets {
    private final int pageSize;
    private final long pages;
    /** Version 2: where page n starts, for n in [0, pages], the last where the pages end; {@code null}: version 1. */
    private final long[] starts;

    private PageOffsets(int pageSize, long pages, long[] starts) {
        this.pageSize = pageSize;
        this.pages = pages;
        this.starts = starts;
    }

    /** The offsets of the trailer's pages: from its offsets block {@code block} (versions 2, 3), else fixed (1). */
    static PageOffsets of(Path path, SSTableTrailer trailer, byte[] block) throws CorruptionException {
        if (trailer.version() == SSTableFormat.VERSION_FIXED_PAGES) {
            return new PageOffsets(trailer.pageSize(), trailer.pages(), null);
        }
        if (SSTableFormat.crc(block, 0, block.length) != trailer.offsetsCrc()) {
            throw new CorruptionException(path, trailer.offsetsAt(), Code.CHECKSUM_MISMATCH,
                    "page offsets block checksum mismatch");
        }
        int pages = (int) trailer.pages();
        long[] starts = new long[pages + 1];
        ByteBuffer b = ByteBuffer.wrap(block);
        for (int n = 0; n < pages; n++) {
            int length = b.getInt(4 * n);
            if (length < SSTableFormat.PAGE_FRAME_BYTES || length > trailer.pageSize()) {
                throw new CorruptionException(path, trailer.offsetsAt() + 4L * n, Code.BAD_LENGTH, "page " + n
                        + " is " + Integer.toUnsignedString(length) + " bytes long; pages of this table are "
                        + SSTableFormat.PAGE_FRAME_BYTES + " to " + trailer.pageSize() + " bytes");
            }
            starts[n + 1] = starts[n] + length;
        }
        if (starts[pages] != trailer.offsetsAt()) {
            throw new CorruptionException(path, trailer.offsetsAt(), Code.BAD_LENGTH, "the " + pages + " pages' "
                    + "lengths add up to " + starts[pages] + " bytes, but the trailer puts their end at offset "
                    + trailer.offsetsAt());
        }
        return new PageOffsets(trailer.pageSize(), pages, starts);
    }

    /** {@return the pages} */
    long pages() {
        return pages;
    }

    /** Where page {@code n} starts, for {@code n} in [0, {@link #pages()}] ({@code pages()}: where the pages end). */
    long offset(long n) {
        if (n < 0 || n > pages) {
            throw new IndexOutOfBoundsException("page " + n + " of " + pages);
        }
        return starts == null ? n * pageSize : starts[(int) n];
    }

    /** The length of page {@code n}, in [0, {@link #pages()}). */
    int length(long n) {
        return (int) (offset(n + 1) - offset(n));
    }

    /** Whether {@code n} is a page of the table. */
    boolean exists(long n) {
        return n >= 0 && n < pages;
    }

    /** {@return the heap bytes this takes} */
    long memoryBytes() {
        return starts == null ? 0 : 16 + 8L * starts.length;
    }
}
