package io.lsmpolicies.lsm.sstable;

import java.io.IOException;
import java.util.ArrayDeque;

/**
 * The read-ahead of a {@link TableCursor} that has read {@value #AFTER_LEAVES} leaves one after another: the
 * leaves that follow are read several in one positional read, twice as many bytes each time (from two pages up to
 * {@value #MAX_BYTES} bytes), checked and parsed from that buffer, and not put in the block cache. A range scan that
 * goes on past its first leaves thus costs a system call per few leaves instead of one per leaf, and a short scan,
 * or a get, still reads one page through the cache. RocksDB's iterators read ahead the same way once they see two
 * sequential block reads. The buffer, {@value #MAX_BYTES} bytes, comes from a few kept per thread and goes back there
 * when the cursor ends ({@link #release}), so a workload of many scans does not allocate one or more buffers per
 * scan and table (YCSB workload E allocated 19 % of its bytes here, every scan's cursors their own buffers, the young
 * collections they caused the scans' 99th percentile). Not thread-safe (one cursor's).
 */
final class LeafReadAhead {
    /** Leaves a cursor reads in order, one at a time through the cache, before it reads ahead. */
    static final int AFTER_LEAVES = 2;
    /** The most bytes read at once, and the size of a kept buffer. */
    static final int MAX_BYTES = 128 * 1024;
    /** Buffers kept per thread: enough for the cursors of one scan over as many tables. */
    static final int KEPT_PER_THREAD = 16;
    /** The buffers kept for the next cursors of each thread (the thread that releases one keeps it). */
    private static final ThreadLocal<ArrayDeque<byte[]>> KEPT = ThreadLocal.withInitial(ArrayDeque::new);

    private final SSTableReader table;
    private byte[] buffer;
    private long first;
    private int count;
    private int readBytes;

    LeafReadAhead(SSTableReader table) {
        this.table = table;
        this.readBytes = Math.min(MAX_BYTES, 2 * table.pageSize());
    }

    /**
     * Leaf {@code leaf}, from the buffer, read with the leaves after it if the buffer does not hold it; the page's
     * memory is the buffer's (no reference to release), valid until the next call.
     *
     * @throws CorruptionException if the leaf is damaged
     */
    Page leaf(long leaf) throws IOException {
        PageOffsets offsets = table.offsets();
        if (buffer == null || leaf < first || leaf >= first + count) {
            int n = 0;
            long start = offsets.offset(leaf);
            while (leaf + n < table.leafCount() && (n == 0 || offsets.offset(leaf + n + 1) - start
                    <= readBytes)) {
                n++;
            }
            int bytes = (int) (offsets.offset(leaf + n) - start);
            if (buffer == null) {
                buffer = KEPT.get().poll();
            }
            if (buffer == null || buffer.length < bytes) { // none kept, or a leaf larger than MAX_BYTES
                buffer = new byte[Math.max(bytes, MAX_BYTES)];
            }
            table.readLeaves(buffer, leaf, n);
            first = leaf;
            count = n;
            readBytes = Math.min(MAX_BYTES, 2 * readBytes);
        }
        int at = (int) (offsets.offset(leaf) - offsets.offset(first));
        int length = offsets.length(leaf);
        table.verifyChecksum(leaf, buffer, at, length);
        return Page.parse(table.path(), leaf, offsets.offset(leaf), buffer, at, length);
    }

    /** {@return how many buffers this thread keeps now} */
    static int keptBuffers() {
        return KEPT.get().size();
    }

    /**
     * Gives the buffer back to this thread's kept ones (if it is of the kept size and there is room). REQUIRES: no
     * page {@link #leaf} returned is used any more.
     */
    void release() {
        if (buffer != null && buffer.length == MAX_BYTES) {
            ArrayDeque<byte[]> kept = KEPT.get();
            if (kept.size() < KEPT_PER_THREAD) {
                kept.push(buffer);
            }
        }
        buffer = null;
        count = 0;
    }
}
