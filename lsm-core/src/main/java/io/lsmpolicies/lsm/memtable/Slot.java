package io.lsmpolicies.lsm.memtable;

import io.lsmpolicies.lsm.sstable.Entry;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Comparator;

/**
 * A MemTable's index node: where one entry lies in an {@link Arena} chunk. The record there is
 * {@code sequence u64 | keyLength u32 | valueLength i32 (-1 for a tombstone) | key | value}; it is written once,
 * before the slot is published in the index, and never changed, so a reader holding a slot reads it without a lock
 * for as long as it holds it (the slot keeps its chunk reachable).
 */
final class Slot {
    /** Bytes of a record's header: sequence, key length, value length. */
    static final int HEADER = 16;

    /** The internal order of the records slots point at: key ascending (unsigned), sequence descending. */
    static final Comparator<Slot> ORDER = Slot::compare;

    private static final byte[] NO_VALUE = new byte[0];
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    /** The chunk holding the record. */
    final byte[] array;
    /** Where the record starts in {@link #array}. */
    final int offset;

    Slot(byte[] array, int offset) {
        this.array = array;
        this.offset = offset;
    }

    /** Bytes a record of these lengths takes. */
    static long recordBytes(int keyLength, int valueLength) {
        return (long) HEADER + keyLength + valueLength;
    }

    /**
     * Writes a record at {@code offset} of {@code array}, which has {@link #recordBytes} free bytes there.
     *
     * @param value the value (empty for a tombstone)
     */
    static void write(byte[] array, int offset, byte[] key, long sequence, boolean tombstone, byte[] value) {
        LONG.set(array, offset, sequence);
        INT.set(array, offset + 8, key.length);
        INT.set(array, offset + 12, tombstone ? -1 : value.length);
        System.arraycopy(key, 0, array, offset + HEADER, key.length);
        System.arraycopy(value, 0, array, offset + HEADER + key.length, value.length);
    }

    /** A slot in an array of its own, to search the index for ({@code key}, {@code sequence}). */
    static Slot probe(byte[] key, long sequence) {
        byte[] a = new byte[HEADER + key.length];
        write(a, 0, key, sequence, false, NO_VALUE);
        return new Slot(a, 0);
    }

    long sequence() {
        return (long) LONG.get(array, offset);
    }

    int keyOffset() {
        return offset + HEADER;
    }

    int keyLength() {
        return (int) INT.get(array, offset + 8);
    }

    boolean tombstone() {
        return (int) INT.get(array, offset + 12) < 0;
    }

    int valueOffset() {
        return offset + HEADER + keyLength();
    }

    int valueLength() {
        return Math.max(0, (int) INT.get(array, offset + 12));
    }

    /** Whether this record's key is {@code key}. */
    boolean hasKey(byte[] key) {
        int k = keyOffset();
        return Arrays.equals(array, k, k + keyLength(), key, 0, key.length);
    }

    /** The record as an entry, its key and value copied out of the chunk. */
    Entry entry() {
        int k = keyOffset();
        int v = k + keyLength();
        byte[] key = Arrays.copyOfRange(array, k, v);
        return tombstone() ? Entry.delete(key, sequence())
                : Entry.put(key, sequence(), Arrays.copyOfRange(array, v, v + valueLength()));
    }

    private static int compare(Slot a, Slot b) {
        int ka = a.keyOffset();
        int kb = b.keyOffset();
        int c = Arrays.compareUnsigned(a.array, ka, ka + a.keyLength(), b.array, kb, kb + b.keyLength());
        return c != 0 ? c : Long.compare(b.sequence(), a.sequence());
    }
}
