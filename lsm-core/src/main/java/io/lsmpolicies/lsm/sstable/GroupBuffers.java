package io.lsmpolicies.lsm.sstable;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * The buffers {@link SSTableWriter}s fill with groups of pages, kept between tables: a store writes a table for every
 * flush and merge, and two fresh buffers of {@value SSTableWriter#WRITE_BUFFER_BYTES} bytes for each would be garbage
 * the collector must find room for again and again (on a small heap, arrays that large are allocated outside the
 * young generation). At most {@value #KEPT} are kept, enough for the flush, a merge and its key ranges writing at once;
 * a writer takes two, and gives them back when it is closed. Buffers are handed out as they were left: a writer
 * writes every byte it uses. Thread-safe.
 */
final class GroupBuffers {
    /** Buffers kept for reuse at most (their bytes stay on the heap). */
    static final int KEPT = 8;
    private static final ArrayBlockingQueue<byte[]> FREE = new ArrayBlockingQueue<>(KEPT);

    private GroupBuffers() {
    }

    /** {@return a buffer of {@code bytes} bytes: a kept one if it is of the usual size and one is free, else new} */
    static byte[] take(int bytes) {
        if (bytes == SSTableWriter.WRITE_BUFFER_BYTES) {
            byte[] kept = FREE.poll();
            if (kept != null) {
                return kept;
            }
        }
        return new byte[bytes];
    }

    /** {@return how many buffers are kept now} */
    static int kept() {
        return FREE.size();
    }

    /** Keeps {@code buffer} for a later writer if it is of the usual size and fewer than {@value #KEPT} are kept. */
    static void give(byte[] buffer) {
        if (buffer != null && buffer.length == SSTableWriter.WRITE_BUFFER_BYTES) {
            FREE.offer(buffer);
        }
    }
}
