package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.lsm.sstable.SSTableMetadata;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * One live SSTable as the manifest records it: where it sits (file number, level) and the metadata that merge
 * policies decide on, so that opening a store needs no SSTable reads to rebuild the policy's view. Immutable:
 * the key arrays are copied in and out. Keys compare as unsigned bytes, lexicographically (the engine's order).
 *
 * <p>A table's position inside level 0 is not a field: it is implied by the order of the
 * {@link ComponentSet}'s level-0 list (newest first).
 *
 * @param fileNumber            the SSTable's file number, {@code > 0}, unique among live files
 * @param level                 its level, {@code 0 <= level <= }{@link #MAX_LEVEL}
 * @param fileBytes             its size on disk, {@code >= 0}
 * @param entries               entries including tombstones, {@code >= 0}
 * @param tombstones            tombstones, {@code 0 <= tombstones <= entries}
 * @param minKey                smallest key, {@code minKey <= maxKey}
 * @param maxKey                largest key
 * @param minSequence           smallest sequence number, {@code <= maxSequence}
 * @param maxSequence           largest sequence number
 * @param minFlushIndex         first flush whose data it holds, {@code >= 1}
 * @param maxFlushIndex         last flush whose data it holds, {@code >= minFlushIndex}
 * @param createdMillis         creation time, milliseconds since the epoch
 * @param oldestTombstoneMillis write time of its oldest tombstone, {@link Long#MAX_VALUE} if none
 * @param dataBytes             key and value bytes of its entries, {@code >= 0}: the size merge policies decide
 *                              on (see {@link SSTableMetadata#dataBytes()})
 */
public record TableRecord(long fileNumber, int level, long fileBytes, long entries, long tombstones, byte[] minKey,
        byte[] maxKey, long minSequence, long maxSequence, long minFlushIndex, long maxFlushIndex,
        long createdMillis, long oldestTombstoneMillis, long dataBytes) {

    /**
     * The deepest level a table may name. A bound keeps a damaged level number (under a valid checksum) from
     * making a component set allocate millions of empty levels.
     */
    public static final int MAX_LEVEL = 63;

    /** @throws IllegalArgumentException naming the file number, the rule and the value if a field is out of range */
    public TableRecord {
        check(fileNumber > 0, "fileNumber must be > 0", fileNumber, fileNumber);
        check(level >= 0 && level <= MAX_LEVEL, "level must be in [0, " + MAX_LEVEL + "]", fileNumber, level);
        check(fileBytes >= 0, "fileBytes must be >= 0", fileNumber, fileBytes);
        check(entries >= 0, "entries must be >= 0", fileNumber, entries);
        check(tombstones >= 0 && tombstones <= entries, "tombstones must be in [0, entries]", fileNumber,
                tombstones);
        if (minKey == null || maxKey == null) {
            throw new IllegalArgumentException("table " + fileNumber + ": minKey and maxKey are required");
        }
        if (Arrays.compareUnsigned(minKey, maxKey) > 0) {
            throw new IllegalArgumentException("table " + fileNumber + ": minKey " + hex(minKey)
                    + " is greater than maxKey " + hex(maxKey));
        }
        check(minSequence <= maxSequence, "minSequence must be <= maxSequence", fileNumber, minSequence);
        check(minFlushIndex >= 1, "minFlushIndex must be >= 1", fileNumber, minFlushIndex);
        check(minFlushIndex <= maxFlushIndex, "minFlushIndex must be <= maxFlushIndex", fileNumber, minFlushIndex);
        check(dataBytes >= 0, "dataBytes must be >= 0", fileNumber, dataBytes);
        minKey = minKey.clone();
        maxKey = maxKey.clone();
    }

    /** The record of SSTable {@code fileNumber} at {@code level}, taking every other field from {@code metadata}. */
    public static TableRecord of(long fileNumber, int level, long fileBytes, SSTableMetadata metadata) {
        return new TableRecord(fileNumber, level, fileBytes, metadata.entries(), metadata.tombstones(),
                metadata.minKey(), metadata.maxKey(), metadata.minSequence(), metadata.maxSequence(),
                metadata.minFlushIndex(), metadata.maxFlushIndex(), metadata.createdMillis(),
                metadata.oldestTombstoneMillis(), metadata.dataBytes());
    }

    /** The same table at another level (a trivial move), every other field unchanged. */
    public TableRecord atLevel(int newLevel) {
        return new TableRecord(fileNumber, newLevel, fileBytes, entries, tombstones, minKey, maxKey, minSequence,
                maxSequence, minFlushIndex, maxFlushIndex, createdMillis, oldestTombstoneMillis, dataBytes);
    }

    /** A copy of the smallest key. */
    @Override
    public byte[] minKey() {
        return minKey.clone();
    }

    /** A copy of the largest key. */
    @Override
    public byte[] maxKey() {
        return maxKey.clone();
    }

    /** Compares the smallest keys as unsigned bytes, without copying them. */
    int compareMinKey(TableRecord other) {
        return Arrays.compareUnsigned(minKey, other.minKey);
    }

    /** The smallest key itself, not a copy. REQUIRES: the caller does not modify it (encoders only). */
    byte[] minKeyUnsafe() {
        return minKey;
    }

    /** The largest key itself, not a copy. REQUIRES: the caller does not modify it (encoders only). */
    byte[] maxKeyUnsafe() {
        return maxKey;
    }

    private static void check(boolean ok, String rule, long fileNumber, long value) {
        if (!ok) {
            throw new IllegalArgumentException("table " + fileNumber + ": " + rule + " (was " + value + ")");
        }
    }

    private static String hex(byte[] key) {
        return "0x" + HexFormat.of().formatHex(key);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableRecord t && fileNumber == t.fileNumber && level == t.level
                && fileBytes == t.fileBytes && entries == t.entries && tombstones == t.tombstones
                && Arrays.equals(minKey, t.minKey) && Arrays.equals(maxKey, t.maxKey)
                && minSequence == t.minSequence && maxSequence == t.maxSequence
                && minFlushIndex == t.minFlushIndex && maxFlushIndex == t.maxFlushIndex
                && createdMillis == t.createdMillis && oldestTombstoneMillis == t.oldestTombstoneMillis
                && dataBytes == t.dataBytes;
    }

    @Override
    public int hashCode() {
        int h = Long.hashCode(fileNumber);
        h = 31 * h + level;
        h = 31 * h + Long.hashCode(fileBytes);
        h = 31 * h + Long.hashCode(entries);
        h = 31 * h + Long.hashCode(tombstones);
        h = 31 * h + Arrays.hashCode(minKey);
        h = 31 * h + Arrays.hashCode(maxKey);
        h = 31 * h + Long.hashCode(minSequence);
        h = 31 * h + Long.hashCode(maxSequence);
        h = 31 * h + Long.hashCode(minFlushIndex);
        h = 31 * h + Long.hashCode(maxFlushIndex);
        h = 31 * h + Long.hashCode(createdMillis);
        h = 31 * h + Long.hashCode(oldestTombstoneMillis);
        return 31 * h + Long.hashCode(dataBytes);
    }

    @Override
    public String toString() {
        return "TableRecord[file=" + fileNumber + ", level=" + level + ", bytes=" + fileBytes + ", entries="
                + entries + ", tombstones=" + tombstones + ", keys=" + hex(minKey) + ".." + hex(maxKey)
                + ", sequences=" + minSequence + ".." + maxSequence + ", flushes=" + minFlushIndex + ".."
                + maxFlushIndex + ", created=" + createdMillis + ", oldestTombstone=" + oldestTombstoneMillis
                + ", dataBytes=" + dataBytes + "]";
    }
}
