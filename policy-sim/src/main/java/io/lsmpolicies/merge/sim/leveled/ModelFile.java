package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.SSTableInfo;

/**
 * One SSTable of the key-level model: distinct integer keys, ascending, each with the sequence number of the
 * version it holds and whether that version is a tombstone. Every entry has the same size, so the file's bytes
 * are {@code entries x entryBytes}. Immutable: its arrays are never modified (a flushed file shares them with
 * its {@link FlushSequence}).
 *
 * <p>Sequence numbers are in {@code [1, MAX_SEQUENCE]}. Keys appear to policies as 4-byte big-endian
 * {@link Key}s, whose unsigned byte order is the integer order for keys {@code >= 0} ({@link #key(int)}).
 */
public final class ModelFile {
    /** Largest sequence number a file may hold (sequence numbers are operation numbers: int range). */
    public static final long MAX_SEQUENCE = Integer.MAX_VALUE;

    private final long id;
    private final int[] keys;
    private final long[] sequences;
    private final boolean[] tombstones;
    private final SSTableInfo info;
    private final long fingerprint;

    /**
     * REQUIRES: {@code keys} non-empty, strictly ascending, {@code >= 0}; the three arrays of equal length.
     *
     * @param minFlush first flush index whose data the file holds ({@code >= 1})
     * @param maxFlush last flush index whose data the file holds
     * @param created  the logical time the file was written (the model's clock: operations ingested so far)
     */
    ModelFile(long id, int[] keys, long[] sequences, boolean[] tombstones, long minFlush, long maxFlush,
            long created, long entryBytes) {
        if (keys.length == 0 || keys.length != sequences.length || keys.length != tombstones.length) {
            throw new IllegalArgumentException("file " + id + ": needs as many sequences and tombstone flags as keys"
                    + " and at least one key");
        }
        long minSeq = Long.MAX_VALUE;
        long maxSeq = Long.MIN_VALUE;
        long tombstoneCount = 0;
        long oldestTombstone = SSTableInfo.NO_TOMBSTONE;
        long hash = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] < 0 || (i > 0 && keys[i] <= keys[i - 1])) {
                throw new IllegalArgumentException("file " + id + ": keys must be >= 0 and strictly ascending, "
                        + "found " + keys[i] + " at " + i);
            }
            if (sequences[i] < 1 || sequences[i] > MAX_SEQUENCE) {
                throw new IllegalArgumentException("file " + id + ": sequence " + sequences[i] + " outside [1, "
                        + MAX_SEQUENCE + "]");
            }
            minSeq = Math.min(minSeq, sequences[i]);
            maxSeq = Math.max(maxSeq, sequences[i]);
            if (tombstones[i]) {
                tombstoneCount++;
                oldestTombstone = Math.min(oldestTombstone, sequences[i]);
            }
            hash = mix(hash ^ (((long) keys[i] << 32) ^ sequences[i] ^ (tombstones[i] ? 1L << 63 : 0)));
        }
        this.id = id;
        this.keys = keys;
        this.sequences = sequences;
        this.tombstones = tombstones;
        this.fingerprint = hash;
        this.info = SSTableInfo.builder(id).bytes(keys.length * entryBytes).entries(keys.length)
                .tombstones(tombstoneCount).keys(key(keys[0]), key(keys[keys.length - 1]))
                .sequences(minSeq, maxSeq).flushes(minFlush, maxFlush).createdMillis(created)
                .lastAccessMillis(created).oldestTombstoneMillis(oldestTombstone).build();
    }

    /**
     * {@return the policy-visible key of {@code k}: {@link #keyBytes}} REQUIRES {@code k >= 0}.
     *
     * @param k a key, {@code >= 0}
     */
    public static Key key(int k) {
        return Key.of(keyBytes(k));
    }

    /** The bytes of key {@code k}: 4, big-endian, so unsigned byte order is integer order for k >= 0. */
    static byte[] keyBytes(int k) {
        return new byte[] {(byte) (k >>> 24), (byte) (k >>> 16), (byte) (k >>> 8), (byte) k};
    }

    /**
     * {@return the integer of a 4-byte key made by {@link #key(int)}}
     *
     * @param key a key made by {@link #key(int)}
     */
    public static int intOf(Key key) {
        byte[] b = key.toByteArray();
        if (b.length != 4) {
            throw new IllegalArgumentException("not a model key (4 bytes): " + key);
        }
        return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }

    /** {@return the file's id, its SSTable id} */
    public long id() {
        return id;
    }

    /** {@return what policies see: bytes = entries x entry size, real key range, sequences, flushes, times} */
    public SSTableInfo info() {
        return info;
    }

    /** {@return number of entries} */
    public int size() {
        return keys.length;
    }

    /**
     * {@return the key of entry {@code i}, ascending}
     *
     * @param i an entry's index
     */
    public int keyAt(int i) {
        return keys[i];
    }

    /**
     * {@return the sequence number of entry {@code i}}
     *
     * @param i an entry's index
     */
    public long sequenceAt(int i) {
        return sequences[i];
    }

    /**
     * {@return whether entry {@code i} is a tombstone}
     *
     * @param i an entry's index
     */
    public boolean tombstoneAt(int i) {
        return tombstones[i];
    }

    /** {@return the smallest key} */
    public int minKey() {
        return keys[0];
    }

    /** {@return the largest key} */
    public int maxKey() {
        return keys[keys.length - 1];
    }

    /**
     * {@return whether the key ranges {@code [minKey, maxKey]} of the two files intersect}
     *
     * @param other another file
     */
    public boolean overlaps(ModelFile other) {
        return overlaps(other.minKey(), other.maxKey());
    }

    /**
     * {@return whether {@code [min, max]} intersects this file's key range}
     *
     * @param min the smallest key of the range
     * @param max the largest key of the range
     */
    public boolean overlaps(int min, int max) {
        return minKey() <= max && min <= maxKey();
    }

    /** A hash of the content (keys, sequences, tombstones), not of the id: equal content, equal fingerprint. */
    long fingerprint() {
        return fingerprint;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public String toString() {
        return "#" + id + "[" + minKey() + ".." + maxKey() + "]x" + keys.length;
    }
}
