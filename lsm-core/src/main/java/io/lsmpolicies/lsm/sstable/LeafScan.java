package io.lsmpolicies.lsm.sstable;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The cursor of {@link SSTableReader#scanInPlace}: leaves read a read-ahead chunk at a time in one call (positional
 * reads, so two cursors over one table may run on two threads), each page checked as it is opened and its entries
 * decoded where they lie, the keys in {@code [from, to)} only. Not thread-safe.
 */
final class LeafScan implements EntryCursor {
    private final SSTableReader table;
    private final int readAheadPages;
    private byte[] chunk;
    private ByteBuffer chunkBuffer;
    private long chunkStart;
    private int chunkPages;
    /** The next leaf to open. */
    private long leaf;
    /** The open leaf, its entries left, where the next one starts ({@code pos[0]}) and where its entries end. */
    private long pageNo = -1;
    private int remaining;
    private final int[] pos = new int[1];
    private int end;
    private int keyAt;
    private int keyLen;
    private int valueLen;
    private long sequence;
    private boolean tombstone;

    /** Entries before this key are skipped (null: none); cleared at the first entry at or after it. */
    private byte[] from;
    /** The scan ends at the first entry at or after this key (null: at the table's end). */
    private final byte[] to;

    LeafScan(SSTableReader table, int readAheadPages, long firstLeaf, byte[] from, byte[] to) {
        this.table = table;
        this.readAheadPages = readAheadPages;
        this.leaf = firstLeaf;
        this.from = from;
        this.to = to;
    }

    @Override
    public boolean advance() throws IOException {
        while (nextEntry()) {
            if (from != null) {
                if (Arrays.compareUnsigned(chunk, keyAt, keyAt + keyLen, from, 0, from.length) < 0) {
                    continue;
                }
                from = null;
            }
            if (to != null && Arrays.compareUnsigned(chunk, keyAt, keyAt + keyLen, to, 0, to.length) >= 0) {
                close();
                return false;
            }
            return true;
        }
        return false;
    }

    private boolean nextEntry() throws IOException {
        while (remaining == 0) {
            if (leaf >= table.leafCount()) {
                chunk = null;
                chunkBuffer = null;
                return false;
            }
            open(leaf++);
        }
        try { // the checks of Page.parse, entry by entry
            if (pos[0] >= end) {
                throw new IllegalArgumentException("varint runs past the end of the page");
            }
            tombstone = (chunk[pos[0]++] & 1) != 0;
            long k = Page.varLong(chunkBuffer, pos, end);
            long v = Page.varLong(chunkBuffer, pos, end);
            sequence = Page.varLong(chunkBuffer, pos, end);
            if (k < 0 || v < 0 || k > end - pos[0] || v > end - pos[0] - k) {
                throw new IllegalArgumentException("length " + (k + v) + " runs past the end of the page");
            }
            keyAt = pos[0];
            keyLen = (int) k;
            valueLen = (int) v;
            pos[0] += keyLen + valueLen;
            remaining--;
            return true;
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(table.path(), table.offsets().offset(pageNo), Code.BAD_LENGTH, "leaf entry: "
                    + e.getMessage());
        }
    }

    /** Opens leaf {@code n}: reads the chunk holding it if needed, checks its checksum, type and count. */
    private void open(long n) throws IOException {
        if (chunk == null || n >= chunkStart + chunkPages) {
            chunkStart = n;
            chunkPages = (int) Math.min(readAheadPages, table.leafCount() - n);
            if (chunk == null) {
                chunk = new byte[readAheadPages * table.pageSize()];
                chunkBuffer = ByteBuffer.wrap(chunk);
            }
            table.readLeaves(chunk, n, chunkPages);
        }
        PageOffsets offsets = table.offsets();
        int at = (int) (offsets.offset(n) - offsets.offset(chunkStart));
        int length = offsets.length(n);
        table.verifyChecksum(n, chunk, at, length);
        pageNo = n;
        remaining = Page.checkedCount(table.path(), n, offsets.offset(n), SSTableFormat.LEAF, chunkBuffer, at, length);
        pos[0] = at + SSTableFormat.PAGE_HEADER_BYTES;
        end = at + length - SSTableFormat.PAGE_CRC_BYTES;
    }

    @Override
    public byte[] keyArray() {
        return chunk;
    }

    @Override
    public int keyOffset() {
        return keyAt;
    }

    @Override
    public int keyLength() {
        return keyLen;
    }

    @Override
    public long sequence() {
        return sequence;
    }

    @Override
    public boolean tombstone() {
        return tombstone;
    }

    @Override
    public byte[] valueArray() {
        return chunk;
    }

    @Override
    public int valueOffset() {
        return keyAt + keyLen;
    }

    @Override
    public int valueLength() {
        return valueLen;
    }

    @Override
    public void close() {
        chunk = null;
        chunkBuffer = null;
        remaining = 0;
        leaf = table.leafCount();
    }
}
