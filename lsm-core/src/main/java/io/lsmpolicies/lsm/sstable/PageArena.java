package io.lsmpolicies.lsm.sstable;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The block cache's memory: direct (off-heap) buffers, so cached pages are neither scanned nor copied by the
 * garbage collector, and a page is read from the file straight into the memory it is cached in.
 *
 * <p>The memory is taken in blocks of {@link #BLOCK_BYTES} (or the whole capacity, if smaller) as it is first
 * needed, never beyond the capacity. A block serves one page size (pages are powers of two), cut into slots of
 * that size; a block whose slots are all free may be given to another page size. {@link #allocate} returns
 * {@code null} when no slot is free: the caller then reads the page into its own buffer and does not cache it.
 * Thread-safe (one lock; it is taken once per page read from the file and once per page freed).
 */
final class PageArena {
    /** Bytes of memory taken at a time: the largest page size. */
    static final int BLOCK_BYTES = SSTableFormat.MAX_PAGE_SIZE;

    private final int blockBytes;
    private final int maxBlocks;
    private final List<Block> blocks = new ArrayList<>();
    /** Free slots by page size: those of 2^n bytes at index n (page sizes are powers of two). */
    @SuppressWarnings("unchecked")
    private final ArrayDeque<Slot>[] free = new ArrayDeque[Integer.SIZE];

    /** A region of the arena holding one page while the page is in use or cached. */
    static final class Slot {
        private final Block block;
        private final ByteBuffer buffer;

        private Slot(Block block, ByteBuffer buffer) {
            this.block = block;
            this.buffer = buffer;
        }

        /**
         * The slot's memory, as long as the page size it serves; a page shorter than that (every page of a table of
         * packed pages but the fullest) uses its start. Position and limit are the owner's to set.
         */
        ByteBuffer buffer() {
            return buffer;
        }
    }

    private static final class Block {
        private final ByteBuffer memory;
        private int slotBytes;
        private int used;

        private Block(ByteBuffer memory) {
            this.memory = memory;
        }
    }

    /** An arena of at most {@code capacityBytes} (more than 0). */
    PageArena(long capacityBytes) {
        if (capacityBytes >= BLOCK_BYTES) {
            blockBytes = BLOCK_BYTES;
            maxBlocks = (int) Math.min(Integer.MAX_VALUE, capacityBytes / BLOCK_BYTES);
        } else {
            blockBytes = (int) capacityBytes;
            maxBlocks = 1;
        }
    }

    /** A free slot of {@code pageSize} bytes (a power of two), or {@code null} if none can be had. */
    synchronized Slot allocate(int pageSize) {
        ArrayDeque<Slot> slots = freeOf(pageSize);
        if (slots.isEmpty() && !carve(pageSize, slots)) {
            return null;
        }
        Slot s = slots.pop();
        s.block.used++;
        return s;
    }

    /** Returns {@code slot} (whose page nobody uses any more) to the arena. */
    synchronized void free(Slot slot) {
        slot.block.used--;
        freeOf(slot.block.slotBytes).push(slot);
    }

    /** The free slots of {@code pageSize} bytes (a power of two). */
    private ArrayDeque<Slot> freeOf(int pageSize) {
        int n = Integer.numberOfTrailingZeros(pageSize);
        ArrayDeque<Slot> slots = free[n];
        if (slots == null) {
            slots = new ArrayDeque<>();
            free[n] = slots;
        }
        return slots;
    }

    /** Cuts a new block, or an unused one of another page size, into slots of {@code pageSize}. */
    private boolean carve(int pageSize, ArrayDeque<Slot> into) {
        if (pageSize > blockBytes) {
            return false;
        }
        Block block = null;
        if (blocks.size() < maxBlocks) {
            try {
                block = new Block(ByteBuffer.allocateDirect(blockBytes));
            } catch (OutOfMemoryError e) { // -XX:MaxDirectMemorySize reached: serve pages uncached
                return false;
            }
            blocks.add(block);
        } else {
            for (Block b : blocks) {
                if (b.used == 0 && b.slotBytes != pageSize) {
                    block = b;
                    freeOf(b.slotBytes).removeIf(s -> s.block == b);
                    break;
                }
            }
            if (block == null) {
                return false;
            }
        }
        block.slotBytes = pageSize;
        for (int at = 0; at + pageSize <= blockBytes; at += pageSize) {
            into.push(new Slot(block, block.memory.slice(at, pageSize)));
        }
        return true;
    }

    /**
     * The block, serving another page size than {@code pageSize}, with the fewest slots in use (so the fewest
     * pages to evict before it can serve {@code pageSize}), or {@code null} if every block serves that size or
     * the arena can still take a new block.
     */
    synchronized Object victimFor(int pageSize) {
        if (pageSize > blockBytes || blocks.size() < maxBlocks) {
            return null;
        }
        Block best = null;
        for (Block b : blocks) {
            if (b.slotBytes != pageSize && (best == null || b.used < best.used)) {
                best = b;
            }
        }
        return best;
    }

    /** Whether {@code slot} lies in {@code block} (from {@link #victimFor}). */
    static boolean inBlock(Slot slot, Object block) {
        return slot.block == block;
    }

    /** Bytes the arena can take at most: whole blocks, so up to a block less than the capacity it was given. */
    long capacityBytes() {
        return (long) maxBlocks * blockBytes;
    }

    /** Bytes of memory taken so far (blocks allocated; they are kept until the cache is collected). */
    synchronized long reservedBytes() {
        return (long) blocks.size() * blockBytes;
    }
}
