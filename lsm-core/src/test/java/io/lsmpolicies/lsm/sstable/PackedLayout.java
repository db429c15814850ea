package io.lsmpolicies.lsm.sstable;

import java.nio.ByteBuffer;

/**
 * Where the pages of a packed SSTable (version 2 to 4) lie, read from the file's bytes as the format lays them out (the
 * trailer's page count and offsets position, then the offsets block's page lengths), independently of the reader: for
 * tests that damage a chosen page, the offsets block or the trailer.
 */
public final class PackedLayout {
    /** The trailer's size at the end of the file. */
    public static final int TRAILER = 64;

    private PackedLayout() {
    }

    /** {@return the format version in the trailer of {@code file}} */
    public static int version(byte[] file) {
        return ByteBuffer.wrap(file).getInt(file.length - TRAILER + 8);
    }

    /** {@return the number of pages of the packed table {@code file}} */
    public static int pages(byte[] file) {
        return ByteBuffer.wrap(file).getInt(file.length - TRAILER + 44);
    }

    /** {@return where the pages of the packed table {@code file} end and its offsets block begins} */
    public static long offsetsAt(byte[] file) {
        return ByteBuffer.wrap(file).getLong(file.length - TRAILER + 48);
    }

    /** {@return where each page of the packed table {@code file} starts, and last where the pages end} */
    public static long[] pageStarts(byte[] file) {
        int pages = pages(file);
        int at = (int) offsetsAt(file);
        long[] starts = new long[pages + 1];
        for (int n = 0; n < pages; n++) {
            starts[n + 1] = starts[n] + ByteBuffer.wrap(file).getInt(at + 4 * n);
        }
        return starts;
    }

    /** {@return the bytes of the internal pages of the packed table {@code file}, from its last leaf to its filter} */
    public static long internalBytes(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        long[] starts = pageStarts(file);
        return starts[b.getInt(file.length - TRAILER + 28)] - starts[b.getInt(file.length - TRAILER + 24)];
    }

    /** Writes {@code version} into the trailer of {@code file} and reseals it. */
    public static void relabel(byte[] file, int version) {
        ByteBuffer.wrap(file).putInt(file.length - TRAILER + 8, version);
        reseal(file);
    }

    /**
     * Rewrites the offsets block's checksum in the trailer and the trailer's own checksum of {@code file}, as a
     * writer would have, so that a forged change passes the checksums and only the structural checks remain.
     */
    public static void reseal(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        int trailer = file.length - TRAILER;
        int at = (int) offsetsAt(file);
        b.putInt(trailer + 60 - 4, SSTableFormat.crc(file, at, trailer - at));
        b.putInt(trailer + 60, SSTableFormat.crc(file, trailer, 60));
    }
}
