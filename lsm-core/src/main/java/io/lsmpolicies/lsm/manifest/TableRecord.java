package io.lsmpolicies.lsm.manifest;

import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

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
 *                              on (recorded in the table's own metadata too)
 * @param parents               empty for a real SSTable. For a virtual SSTable (delayed compaction: Pan et al.,
 *                              JCST 2017): the records of the real SSTables it was derived from, which stay on
 *                              disk while it lives; it has no file ({@code fileBytes} 0), sits in a level
 *                              {@code >= 1}, and its other fields summarise its parents (see {@link #virtual})
 */
public record TableRecord(long fileNumber, int level, long fileBytes, long entries, long tombstones, byte[] minKey,
        byte[] maxKey, long minSequence, long maxSequence, long minFlushIndex, long maxFlushIndex,
        long createdMillis, long oldestTombstoneMillis, long dataBytes, List<TableRecord> parents) {

    /**
     * The deepest level a table may name. A bound keeps a damaged level number (under a valid checksum) from
     * making a component set allocate millions of empty levels.
     */
    public static final int MAX_LEVEL = 63;

    /**
     * Copies the keys and the parents, and checks the record.
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
     *                              on (recorded in the table's own metadata too)
     * @param parents               empty for a real SSTable. For a virtual SSTable (delayed compaction: Pan et al.,
     *                              JCST 2017): the records of the real SSTables it was derived from, which stay on
     *                              disk while it lives; it has no file ({@code fileBytes} 0), sits in a level
     *                              {@code >= 1}, and its other fields summarise its parents (see {@link #virtual})
     * @throws IllegalArgumentException naming the file number, the rule and the value if a field is out of range
     */
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
        parents = List.copyOf(parents);
        if (!parents.isEmpty()) {
            check(level >= 1, "a virtual table's level must be >= 1", fileNumber, level);
            check(fileBytes == 0, "a virtual table has no file: fileBytes must be 0", fileNumber, fileBytes);
            Set<Long> seen = new HashSet<>();
            for (TableRecord p : parents) {
                check(p.parents.isEmpty(), "a virtual table's parents must be real tables", fileNumber,
                        p.fileNumber);
                check(seen.add(p.fileNumber) && p.fileNumber != fileNumber, "parents must be distinct others",
                        fileNumber, p.fileNumber);
                if (Arrays.compareUnsigned(p.minKey, minKey) < 0 || Arrays.compareUnsigned(p.maxKey, maxKey) > 0) {
                    throw new IllegalArgumentException("table " + fileNumber + ": parent " + p.fileNumber
                            + "'s keys " + hex(p.minKey) + ".." + hex(p.maxKey) + " fall outside "
                            + hex(minKey) + ".." + hex(maxKey));
                }
            }
        }
        minKey = minKey.clone();
        maxKey = maxKey.clone();
    }

    /**
     * A real table's record (no parents).
     *
     * @param fileNumber            the SSTable's file number, {@code > 0}
     * @param level                 its level
     * @param fileBytes             its size on disk in bytes
     * @param entries               entries including tombstones
     * @param tombstones            tombstones
     * @param minKey                smallest key
     * @param maxKey                largest key
     * @param minSequence           smallest sequence number
     * @param maxSequence           largest sequence number
     * @param minFlushIndex         first flush whose data it holds
     * @param maxFlushIndex         last flush whose data it holds
     * @param createdMillis         creation time, milliseconds since the epoch
     * @param oldestTombstoneMillis write time of its oldest tombstone
     * @param dataBytes             key and value bytes of its entries
     */
    public TableRecord(long fileNumber, int level, long fileBytes, long entries, long tombstones, byte[] minKey,
            byte[] maxKey, long minSequence, long maxSequence, long minFlushIndex, long maxFlushIndex,
            long createdMillis, long oldestTombstoneMillis, long dataBytes) {
        this(fileNumber, level, fileBytes, entries, tombstones, minKey, maxKey, minSequence, maxSequence,
                minFlushIndex, maxFlushIndex, createdMillis, oldestTombstoneMillis, dataBytes, List.of());
    }

    /**
     * A virtual table at {@code level} derived from {@code parents} (real, at least one): its keys, sequences
     * and flush indexes span theirs, its entries, tombstones and data bytes add theirs up (an upper bound: a
     * merge would drop superseded versions), its oldest tombstone is theirs, and it has no file.
     *
     * @param fileNumber    the SSTable's file number, {@code > 0}
     * @param level         its level
     * @param createdMillis creation time, milliseconds since the epoch
     * @param parents       the real tables it is derived from
     * @return the virtual table's record
     */
    public static TableRecord virtual(long fileNumber, int level, long createdMillis, List<TableRecord> parents) {
        if (parents.isEmpty()) {
            throw new IllegalArgumentException("virtual table " + fileNumber + " needs at least one parent");
        }
        TableRecord first = parents.get(0);
        byte[] min = first.minKey;
        byte[] max = first.maxKey;
        long entries = 0;
        long tombstones = 0;
        long dataBytes = 0;
        long minSeq = Long.MAX_VALUE;
        long maxSeq = Long.MIN_VALUE;
        long minFlush = Long.MAX_VALUE;
        long maxFlush = Long.MIN_VALUE;
        long oldestTombstone = Long.MAX_VALUE;
        for (TableRecord p : parents) {
            min = Arrays.compareUnsigned(p.minKey, min) < 0 ? p.minKey : min;
            max = Arrays.compareUnsigned(p.maxKey, max) > 0 ? p.maxKey : max;
            entries += p.entries;
            tombstones += p.tombstones;
            dataBytes += p.dataBytes;
            minSeq = Math.min(minSeq, p.minSequence);
            maxSeq = Math.max(maxSeq, p.maxSequence);
            minFlush = Math.min(minFlush, p.minFlushIndex);
            maxFlush = Math.max(maxFlush, p.maxFlushIndex);
            oldestTombstone = Math.min(oldestTombstone, p.oldestTombstoneMillis);
        }
        return new TableRecord(fileNumber, level, 0, entries, tombstones, min, max, minSeq, maxSeq, minFlush,
                maxFlush, createdMillis, oldestTombstone, dataBytes, parents);
    }

    /** {@return whether this is a virtual table (it has parents)} */
    public boolean isVirtual() {
        return !parents.isEmpty();
    }

    /** {@return the real tables a merge of this one reads: its parents if virtual, else itself} */
    public List<TableRecord> realTables() {
        return parents.isEmpty() ? List.of(this) : parents;
    }

    /**
     * {@return the same table at another level (a trivial move), every other field unchanged}
     *
     * @param newLevel the new level
     */
    public TableRecord atLevel(int newLevel) {
        return new TableRecord(fileNumber, newLevel, fileBytes, entries, tombstones, minKey, maxKey, minSequence,
                maxSequence, minFlushIndex, maxFlushIndex, createdMillis, oldestTombstoneMillis, dataBytes, parents);
    }

    /** {@return a copy of the smallest key} */
    @Override
    public byte[] minKey() {
        return minKey.clone();
    }

    /** {@return a copy of the largest key} */
    @Override
    public byte[] maxKey() {
        return maxKey.clone();
    }

    /**
     * Whether this table and {@code other} are two key ranges of one component: both real tables of level 0 that
     * hold the same flushes and disjoint keys, as the files of one merge split by key do (a flush's or another
     * merge's table never shares its flushes with a second table).
     *
     * @param other another table
     * @return whether the two are one component
     */
    public boolean sharesComponentWith(TableRecord other) {
        return level == 0 && other.level == 0 && !isVirtual() && !other.isVirtual()
                && minFlushIndex == other.minFlushIndex && maxFlushIndex == other.maxFlushIndex
                && (Arrays.compareUnsigned(maxKey, other.minKey) < 0 || Arrays.compareUnsigned(other.maxKey, minKey) < 0);
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
                && dataBytes == t.dataBytes && parents.equals(t.parents);
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
        h = 31 * h + parents.hashCode();
        return 31 * h + Long.hashCode(dataBytes);
    }

    @Override
    public String toString() {
        return "TableRecord[file=" + fileNumber + ", level=" + level + ", bytes=" + fileBytes + ", entries="
                + entries + ", tombstones=" + tombstones + ", keys=" + hex(minKey) + ".." + hex(maxKey)
                + ", sequences=" + minSequence + ".." + maxSequence + ", flushes=" + minFlushIndex + ".."
                + maxFlushIndex + ", created=" + createdMillis + ", oldestTombstone=" + oldestTombstoneMillis
                + ", dataBytes=" + dataBytes
                + (parents.isEmpty() ? "" : ", parents=" + parents.stream().map(TableRecord::fileNumber).toList())
                + "]";
    }
}
