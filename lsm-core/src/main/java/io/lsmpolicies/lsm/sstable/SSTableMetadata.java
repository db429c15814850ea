package io.lsmpolicies.lsm.sstable;

import io.lsmpolicies.lsm.Bytes;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What an SSTable records about itself, in its metadata block. Encoding (version 2): the byte 2, then the
 * fields in declaration order, keys as u32 length plus bytes, numbers as u64. (Version 1, without
 * {@code dataBytes}, was never released.)
 *
 * @param entries               entries, tombstones included
 * @param tombstones            tombstones
 * @param minKey                smallest key
 * @param maxKey                largest key
 * @param minSequence           smallest sequence number
 * @param maxSequence           largest sequence number
 * @param minFlushIndex         first flush whose data the SSTable holds
 * @param maxFlushIndex         last flush whose data the SSTable holds
 * @param createdMillis         creation time
 * @param oldestTombstoneMillis write time of the oldest tombstone, {@code Long.MAX_VALUE} if none
 * @param dataBytes             key and value bytes of all entries: the table's logical size, which adds up
 *                              exactly when tables of distinct keys are merged (file sizes do not: each file
 *                              has its own index, filter, metadata and partly filled last page)
 */
public record SSTableMetadata(long entries, long tombstones, byte[] minKey, byte[] maxKey, long minSequence,
        long maxSequence, long minFlushIndex, long maxFlushIndex, long createdMillis, long oldestTombstoneMillis,
        long dataBytes) {

    static final byte VERSION = 2;

    /** Bytes of the encoding of metadata whose keys are {@code minKeyLen} and {@code maxKeyLen} bytes long. */
    static int encodedBytes(int minKeyLen, int maxKeyLen) {
        return 1 + 9 * 8 + 8 + minKeyLen + maxKeyLen;
    }

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(encodedBytes(minKey.length, maxKey.length));
        b.put(VERSION).putLong(entries).putLong(tombstones).putInt(minKey.length).put(minKey).putInt(maxKey.length)
                .put(maxKey).putLong(minSequence).putLong(maxSequence).putLong(minFlushIndex).putLong(maxFlushIndex)
                .putLong(createdMillis).putLong(oldestTombstoneMillis).putLong(dataBytes);
        return Arrays.copyOf(b.array(), b.position());
    }

    /** @throws IllegalArgumentException saying what is malformed */
    static SSTableMetadata decode(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            byte version = b.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown metadata version " + version);
            }
            long entries = b.getLong();
            long tombstones = b.getLong();
            byte[] minKey = Bytes.lengthPrefixed(b, "metadata minKey");
            byte[] maxKey = Bytes.lengthPrefixed(b, "metadata maxKey");
            SSTableMetadata m = new SSTableMetadata(entries, tombstones, minKey, maxKey, b.getLong(), b.getLong(),
                    b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong());
            if (b.hasRemaining()) {
                throw new IllegalArgumentException(b.remaining() + " unexpected bytes after the metadata");
            }
            if (entries < 1 || tombstones < 0 || tombstones > entries || m.minSequence > m.maxSequence || m.dataBytes < 0
                    || Arrays.compareUnsigned(minKey, maxKey) > 0) {
                throw new IllegalArgumentException("inconsistent metadata " + m);
            }
            return m;
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("metadata block is cut short", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SSTableMetadata m && entries == m.entries && tombstones == m.tombstones
                && Arrays.equals(minKey, m.minKey) && Arrays.equals(maxKey, m.maxKey)
                && minSequence == m.minSequence && maxSequence == m.maxSequence && minFlushIndex == m.minFlushIndex
                && maxFlushIndex == m.maxFlushIndex && createdMillis == m.createdMillis
                && oldestTombstoneMillis == m.oldestTombstoneMillis && dataBytes == m.dataBytes;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(entries) * 31 + Arrays.hashCode(minKey);
    }

    @Override
    public String toString() {
        return "SSTableMetadata[entries=" + entries + ", tombstones=" + tombstones + ", sequences=" + minSequence
                + ".." + maxSequence + ", flushes=" + minFlushIndex + ".." + maxFlushIndex + ", dataBytes=" + dataBytes + "]";
    }
}
