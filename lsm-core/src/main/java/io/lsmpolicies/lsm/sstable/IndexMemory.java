package io.lsmpolicies.lsm.sstable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory one table's pinned internal pages ({@link IndexPage}) take: chunks of an arena of direct (off-heap)
 * memory, so that a read process's index, which grows by the pages its reads first touch, is not copied out of the
 * young generation by the garbage collector as it grows (at 5 million records a random read phase pins some 50 MB
 * within seconds, and copying it on the heap paused young collections for 10 to 22 ms). Pages are cut one after
 * another from chunks of {@link #chunkBytes(int)} bytes (32 KiB for 4 KiB pages); a page longer than a chunk (an
 * internal page of many tiny keys, whose directory outgrows it) takes memory of its own on the heap.
 *
 * <p>The chunks go back to the arena when the last reader of the table is closed ({@link #release()}), to be cut
 * again for the tables read next: the arena keeps the most the open tables have pinned at once, and a store that
 * merges while it serves reads does not leave its dropped tables' indexes to the garbage collector (direct memory
 * held by unreachable buffers is freed only when a collection of the old generation finds them, which a store
 * under a steady load may not run for a long time). The readers sharing a table's index take a reference each
 * ({@link #retain()}). Thread-safe.
 */
final class IndexMemory {
    /** The smallest chunk: eight 4 KiB pages with their directories. */
    static final int MIN_CHUNK_BYTES = 32 * 1024;

    private final PageArena arena;
    private final int chunkBytes;
    private final List<PageArena.Slot> slots = new ArrayList<>();
    private ByteBuffer chunk;
    private int used;
    private int refs = 1;

    /** The memory of a table of {@code pageSize}-byte pages, its chunks from {@code arena}; one reference. */
    IndexMemory(PageArena arena, int pageSize) {
        this.arena = arena;
        this.chunkBytes = chunkBytes(pageSize);
    }

    /** {@return the chunk size for pages of {@code pageSize} bytes: 4 pages' worth, 32 KiB to 1 MiB} */
    static int chunkBytes(int pageSize) {
        long fourPages = 4L * pageSize;
        return (int) Math.min(PageArena.BLOCK_BYTES, Math.max(MIN_CHUNK_BYTES, fourPages));
    }

    /**
     * {@return a buffer of exactly {@code bytes} bytes (position 0), for one page}
     *
     * @throws IllegalStateException if the memory was released (the table's readers are all closed)
     */
    synchronized ByteBuffer allocate(int bytes) {
        if (refs == 0) {
            throw new IllegalStateException("the index memory of a closed table");
        }
        if (bytes > chunkBytes) {
            return ByteBuffer.allocate(bytes);
        }
        if (chunk == null || chunk.capacity() - used < bytes) {
            PageArena.Slot slot = arena.allocate(chunkBytes);
            if (slot == null) { // no direct memory left (-XX:MaxDirectMemorySize): on the heap
                chunk = ByteBuffer.allocate(chunkBytes);
            } else {
                slots.add(slot);
                chunk = slot.buffer();
            }
            used = 0;
        }
        ByteBuffer b = chunk.slice(used, bytes);
        used += bytes;
        return b;
    }

    /**
     * Takes a reference for another reader of the table.
     *
     * @throws IllegalStateException if the memory was already released
     */
    synchronized void retain() {
        if (refs == 0) {
            throw new IllegalStateException("the index memory of a closed table");
        }
        refs++;
    }

    /** Gives back a reference; the last gives the chunks back to the arena (the pages in them are not used after). */
    synchronized void release() {
        if (refs == 0) {
            throw new IllegalStateException("index memory released more often than retained");
        }
        if (--refs == 0) {
            for (PageArena.Slot s : slots) {
                arena.free(s);
            }
            slots.clear();
            chunk = null;
        }
    }

    /** {@return the chunks taken from the arena and held now} */
    synchronized int chunks() {
        return slots.size();
    }
}
