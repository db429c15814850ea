package io.lsmpolicies.lsm.sstable;

import java.nio.ByteBuffer;

/**
 * The memory one table's pinned internal pages ({@link IndexPage}) take: direct (off-heap) buffers, so that a read
 * process's index, which grows by the pages its reads first touch, is not copied out of the young generation by
 * the garbage collector as it grows (at 5 million records a random read phase pins some 60 MB within seconds, and
 * copying it on the heap paused young collections for 10 to 22 ms). Pages are cut one after another from chunks
 * taken as needed, the first {@value #FIRST_CHUNK_BYTES} bytes and each next one twice the last up to
 * {@value #MAX_CHUNK_BYTES} (a larger page takes a chunk of its own size), so a table whose reads touch a few pages
 * holds a few kilobytes. Pages are never freed one by one: the chunks go with the table's readers, when the
 * garbage collector finds them unreachable. Where direct memory runs out ({@code -XX:MaxDirectMemorySize}) chunks
 * are taken on the heap instead. Thread-safe.
 */
final class IndexMemory {
    static final int FIRST_CHUNK_BYTES = 16 * 1024;
    static final int MAX_CHUNK_BYTES = 1024 * 1024;

    private ByteBuffer chunk;
    private int used;

    /** {@return a buffer of exactly {@code bytes} bytes (position 0), for one page} */
    synchronized ByteBuffer allocate(int bytes) {
        if (chunk == null || chunk.capacity() - used < bytes) {
            int next = chunk == null ? FIRST_CHUNK_BYTES : Math.min(MAX_CHUNK_BYTES, 2 * chunk.capacity());
            int size = Math.max(next, bytes);
            try {
                chunk = ByteBuffer.allocateDirect(size);
            } catch (OutOfMemoryError e) { // -XX:MaxDirectMemorySize reached
                chunk = ByteBuffer.allocate(size);
            }
            used = 0;
        }
        ByteBuffer b = chunk.slice(used, bytes);
        used += bytes;
        return b;
    }
}
