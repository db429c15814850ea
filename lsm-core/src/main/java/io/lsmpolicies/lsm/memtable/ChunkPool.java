package io.lsmpolicies.lsm.memtable;

import java.util.ArrayDeque;

/**
 * Arena chunks a store's MemTables pass on to one another: a MemTable whose last reader let go returns its chunks
 * ({@link MemTable#release()}), and the next MemTables fill them again, so that a steady load allocates no chunk
 * at all and the heap the MemTables take stays what the budget says. Holds at most {@link #capacity()} chunks;
 * chunks beyond that are left to the collector. Thread-safe.
 */
public final class ChunkPool {
    private final int chunkBytes;
    private final int capacity;
    private final ArrayDeque<byte[]> free = new ArrayDeque<>(); // guarded by this

    /**
     * A pool for MemTables of {@code budgetBytes}, enough for {@code memtables} of them at once.
     *
     * @param budgetBytes the MemTable budget, which sizes the chunks ({@link Arena#chunkBytes(long)})
     * @param memtables   how many MemTables' chunks to keep
     */
    public ChunkPool(long budgetBytes, int memtables) {
        this.chunkBytes = Arena.chunkBytes(budgetBytes);
        this.capacity = (int) Math.min(Integer.MAX_VALUE / 2,
                memtables * ((budgetBytes + chunkBytes - 1) / chunkBytes + 1));
    }

    /** {@return the size of the chunks} */
    public int chunkBytes() {
        return chunkBytes;
    }

    /** {@return the most chunks kept} */
    public int capacity() {
        return capacity;
    }

    /** {@return the chunks kept now} */
    public synchronized int size() {
        return free.size();
    }

    /** A kept chunk (its old contents still in it), or null if none is left. */
    synchronized byte[] take() {
        return free.pollLast();
    }

    /** Keeps {@code chunk} for a later MemTable. REQUIRES: nothing refers to it any more. */
    synchronized void give(byte[] chunk) {
        if (chunk.length == chunkBytes && free.size() < capacity) {
            free.addLast(chunk);
        }
    }
}
