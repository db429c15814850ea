package io.lsmpolicies.lsm.sstable;

import java.io.IOException;

/**
 * The read-ahead of a {@link TableCursor} that has read {@value #AFTER_LEAVES} leaves one after another: the
 * leaves that follow are read several in one positional read, twice as many bytes each time (from two pages up to
 * {@value #MAX_BYTES} bytes), checked and parsed from that buffer, and not put in the block cache. A range scan that
 * goes on past its first leaves thus costs a system call per few leaves instead of one per leaf, and a short scan,
 * or a get, still reads one page through the cache. RocksDB's iterators read ahead the same way once they see two
 * sequential block reads. Not thread-safe (one cursor's).
 */
final class LeafReadAhead {
    /** Leaves a cursor reads in order, one at a time through the cache, before it reads ahead. */
    static final int AFTER_LEAVES = 2;
    /** The most bytes read at once. */
    static final int MAX_BYTES = 128 * 1024;

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
            if (buffer == null || buffer.length < bytes) {
                buffer = new byte[Math.max(bytes, Math.min(MAX_BYTES, 2 * readBytes))];
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
}
