package io.lsmpolicies.lsm.sstable;

import java.util.Arrays;
import java.util.Comparator;

/**
 * One version of a key: a put (with a value) or a tombstone. Internal order: key ascending as unsigned
 * bytes, then sequence number descending (newest version first).
 *
 * @param key       the key
 * @param sequence  the write's sequence number, {@code >= 0}
 * @param tombstone true for a delete
 * @param value     the value; empty for a tombstone
 */
public record Entry(byte[] key, long sequence, boolean tombstone, byte[] value) {

    /** The internal order: key ascending (unsigned), sequence descending. */
    public static final Comparator<Entry> ORDER = (a, b) -> compare(a.key, a.sequence, b.key, b.sequence);

    /**
     * Checks the entry.
     *
     * @param key       the key
     * @param sequence  the write's sequence number, {@code >= 0}
     * @param tombstone true for a delete
     * @param value     the value; empty for a tombstone
     * @throws IllegalArgumentException if the key or value is missing, the sequence negative, or a tombstone has
     *                                  a value
     */
    public Entry {
        if (key == null || value == null) {
            throw new IllegalArgumentException("key and value are required (use an empty value for a tombstone)");
        }
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must be >= 0, was " + sequence);
        }
        if (tombstone && value.length != 0) {
            throw new IllegalArgumentException("a tombstone has no value");
        }
    }

    /**
     * A put.
     *
     * @param key      the key
     * @param sequence the write's sequence number
     * @param value    the value
     * @return the entry
     */
    public static Entry put(byte[] key, long sequence, byte[] value) {
        return new Entry(key, sequence, false, value);
    }

    /**
     * A delete.
     *
     * @param key      the key
     * @param sequence the write's sequence number
     * @return the entry, a tombstone with an empty value
     */
    public static Entry delete(byte[] key, long sequence) {
        return new Entry(key, sequence, true, new byte[0]);
    }

    /**
     * Compares internal keys (key ascending, sequence descending).
     *
     * @param k1 the first key
     * @param s1 its sequence number
     * @param k2 the second key
     * @param s2 its sequence number
     * @return negative, zero or positive as the first comes before, with or after the second
     */
    public static int compare(byte[] k1, long s1, byte[] k2, long s2) {
        int c = Arrays.compareUnsigned(k1, k2);
        return c != 0 ? c : Long.compare(s2, s1);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Entry e && sequence == e.sequence && tombstone == e.tombstone
                && Arrays.equals(key, e.key) && Arrays.equals(value, e.value);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Long.hashCode(sequence);
    }

    @Override
    public String toString() {
        return new String(key, java.nio.charset.StandardCharsets.ISO_8859_1) + "@" + sequence
                + (tombstone ? " (delete)" : " (" + value.length + " bytes)");
    }
}
