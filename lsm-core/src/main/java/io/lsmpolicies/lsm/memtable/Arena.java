package io.lsmpolicies.lsm.memtable;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a MemTable's records lie: large heap arrays (chunks) filled one record after another, so that a put copies
 * its key and value into a chunk instead of keeping two arrays of its own on the heap. A chunk is sized to one G1
 * heap region less room for the array header when the MemTable budget allows: such an array is a humongous object,
 * allocated straight into a region of its own outside the young generation, so the collector neither copies nor
 * promotes it while the MemTable fills, and it reclaims the region at the first young collection after the last
 * reference to it is gone (eager reclaim of humongous regions). A record larger than a quarter of a chunk gets an
 * array of its own, so that no more than a quarter of a chunk is left unused at its end.
 *
 * <p>Without a {@link ChunkPool} nothing is reused or freed explicitly: a chunk lives as long as a {@link Slot}
 * pointing into it is reachable. With one, chunks come from the pool when it has some, and {@link #recycle()}
 * gives them back: the MemTable calls it once its last reader let go ({@link MemTable#release()}). Records in
 * arrays of their own are never pooled. Thread-safe; allocation takes a lock.
 */
final class Arena {
    /** Bytes left out of a chunk of a region's size, so the array with its header fits one region. */
    static final int HEADER_ALLOWANCE = 64;
    /** The smallest chunk, for the smallest MemTable budgets. */
    static final int MIN_CHUNK_BYTES = 4096;
    /** The collector's region size (G1), or 1 MiB where it has none or it cannot be read. */
    static final int REGION_BYTES = regionBytes();

    private final int chunkBytes;
    private final ChunkPool pool; // null: chunks are left to the collector
    private final List<byte[]> chunks = new ArrayList<>(); // every chunk in use, guarded by this
    private byte[] chunk; // the chunk being filled, guarded by this
    private int used; // bytes used in chunk, guarded by this
    private volatile long charged; // records, and the unused ends of chunks no longer filled; written under this
    private volatile long allocated; // chunks and records' own arrays; written under this

    /**
     * An arena for a MemTable of about {@code budgetBytes}.
     *
     * @param budgetBytes the MemTable budget, which sizes the chunks
     * @param pool        where chunks come from and go back to, or null
     * @throws IllegalArgumentException if the pool's chunks are of another size
     */
    Arena(long budgetBytes, ChunkPool pool) {
        this.chunkBytes = chunkBytes(budgetBytes);
        this.pool = pool;
        if (pool != null && pool.chunkBytes() != chunkBytes) {
            throw new IllegalArgumentException("a pool of " + pool.chunkBytes() + "-byte chunks for a MemTable of "
                    + budgetBytes + " bytes, whose chunks take " + chunkBytes);
        }
    }

    /**
     * The chunk size for a budget: a region less {@link #HEADER_ALLOWANCE} when the budget holds at least that
     * (a humongous object under G1); otherwise at most half a region less the allowance (an ordinary object, for
     * small MemTables), and at least {@link #MIN_CHUNK_BYTES}.
     */
    static int chunkBytes(long budgetBytes) {
        int large = REGION_BYTES - HEADER_ALLOWANCE;
        if (budgetBytes >= large) {
            return large;
        }
        return (int) Math.max(MIN_CHUNK_BYTES, Math.min(budgetBytes, REGION_BYTES / 2 - HEADER_ALLOWANCE));
    }

    /** {@return the size of this arena's chunks} */
    int chunkBytes() {
        return chunkBytes;
    }

    /**
     * Reserves {@code bytes} for one record. The caller writes the record in the returned slot's range before it
     * publishes the slot.
     *
     * @throws IllegalArgumentException if a record of that size cannot be held in one array
     */
    synchronized Slot allocate(long bytes) {
        if (bytes > Integer.MAX_VALUE - HEADER_ALLOWANCE) {
            throw new IllegalArgumentException("a record of " + bytes + " bytes (key, value and a " + Slot.HEADER
                    + "-byte header) does not fit one array");
        }
        int n = (int) bytes;
        if (n > chunkBytes / 4) {
            allocated += n;
            charged += n;
            return new Slot(new byte[n], 0);
        }
        if (chunk == null || chunkBytes - used < n) {
            if (chunk != null) {
                charged += chunkBytes - used;
            }
            byte[] kept = pool == null ? null : pool.take();
            chunk = kept != null ? kept : new byte[chunkBytes];
            chunks.add(chunk);
            used = 0;
            allocated += chunkBytes;
        }
        Slot s = new Slot(chunk, used);
        used += n;
        charged += n;
        return s;
    }

    /**
     * Gives every chunk to the pool, if any. REQUIRES: no reader will read a record of this arena again, and no
     * record is allocated after.
     */
    synchronized void recycle() {
        if (pool != null) {
            chunks.forEach(pool::give);
        }
        chunks.clear();
        chunk = null;
        used = 0;
    }

    /** {@return bytes the records take, with the unused ends of the chunks no longer filled} */
    long chargedBytes() {
        return charged;
    }

    /** {@return bytes of every array allocated: chunks in full, and records' own arrays} */
    long allocatedBytes() {
        return allocated;
    }

    private static int regionBytes() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (vm != null && Boolean.parseBoolean(vm.getVMOption("UseG1GC").getValue())) {
                long region = Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
                if (region >= 1 << 20 && region <= 1 << 30 && Long.bitCount(region) == 1) {
                    return (int) region;
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // not HotSpot, or jdk.management not in the module graph: the smallest G1 region is the safe guess
        }
        return 1 << 20;
    }
}
