package io.lsmpolicies.ycsb.hyracks;

import java.util.function.Consumer;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.dataflow.common.comm.io.ArrayTupleReference;
import org.apache.hyracks.dataflow.common.data.accessors.ITupleReference;
import org.apache.hyracks.storage.am.btree.impls.RangePredicate;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndexAccessor;
import org.apache.hyracks.storage.common.IIndexCursor;
import org.apache.hyracks.storage.common.MultiComparator;
import org.apache.hyracks.util.encoding.VarLenIntEncoderDecoder;

/**
 * One client thread's access to a {@link HyracksTree}: a Hyracks index accessor, a search cursor and the tuple
 * buffers they use, none of which Hyracks allows to be shared between threads. Every record is the tuple
 * (key, value), each field a Hyracks {@code ByteArrayPointable} (variable-length length, then the bytes).
 * Not thread-safe; {@link #close} it when done.
 */
final class TreeSession implements AutoCloseable {
    private final ILSMIndexAccessor accessor;
    private final IIndexCursor cursor;
    private final MultiComparator comparator = MultiComparator.create(HyracksTree.KEY_COMPARATORS);
    private final ArrayTupleReference keyTuple = new ArrayTupleReference();
    private final ArrayTupleReference recordTuple = new ArrayTupleReference();
    private final int[] keyEnd = new int[1];
    private final int[] recordEnds = new int[2];

    TreeSession(ILSMIndexAccessor accessor) {
        this.accessor = accessor;
        try {
            this.cursor = accessor.createSearchCursor(false);
        } catch (HyracksDataException e) {
            throw new IllegalStateException("Hyracks could not create a search cursor: " + e.getMessage(), e);
        }
    }

    /** Writes {@code value} under {@code key}, replacing what the key held (Hyracks' upsert, as AsterixDB's feed). */
    void upsert(byte[] key, byte[] value) throws HyracksDataException {
        accessor.upsert(record(key, value));
    }

    /**
     * Deletes {@code key}: Hyracks writes an antimatter tuple (the key only) that hides older versions and is
     * dropped by a merge that includes the oldest component. Also for an absent key.
     */
    void delete(byte[] key) throws HyracksDataException {
        accessor.delete(record(key, new byte[0]));
    }

    /** The value of {@code key}, or null: a point search (Bloom filters, newest component first). */
    byte[] get(byte[] key) throws HyracksDataException {
        ITupleReference k = key(key);
        accessor.search(cursor, new RangePredicate(k, k, true, true, comparator, comparator));
        try {
            if (cursor.hasNext()) {
                cursor.next();
                return field(cursor.getTuple(), 1);
            }
            return null;
        } finally {
            cursor.close();
        }
    }

    /** Up to {@code limit} values of the keys from {@code from} (inclusive) on, in key order. */
    void scan(byte[] from, int limit, Consumer<byte[]> values) throws HyracksDataException {
        if (limit <= 0) {
            return;
        }
        accessor.search(cursor, new RangePredicate(key(from), null, true, true, comparator, null));
        try {
            for (int n = 0; n < limit && cursor.hasNext(); n++) {
                cursor.next();
                values.accept(field(cursor.getTuple(), 1));
            }
        } finally {
            cursor.close();
        }
    }

    @Override
    public void close() throws HyracksDataException {
        try {
            cursor.destroy();
        } finally {
            accessor.destroy();
        }
    }

    private ITupleReference key(byte[] key) {
        byte[] data = new byte[VarLenIntEncoderDecoder.getBytesRequired(key.length) + key.length];
        keyEnd[0] = put(key, data, 0);
        keyTuple.reset(keyEnd, data);
        return keyTuple;
    }

    private ITupleReference record(byte[] key, byte[] value) {
        byte[] data = new byte[VarLenIntEncoderDecoder.getBytesRequired(key.length) + key.length
                + VarLenIntEncoderDecoder.getBytesRequired(value.length) + value.length];
        recordEnds[0] = put(key, data, 0);
        recordEnds[1] = put(value, data, recordEnds[0]);
        recordTuple.reset(recordEnds, data);
        return recordTuple;
    }

    /** Writes {@code bytes} as a ByteArrayPointable at {@code offset}; returns the end. */
    private static int put(byte[] bytes, byte[] data, int offset) {
        int start = offset + VarLenIntEncoderDecoder.encode(bytes.length, data, offset);
        System.arraycopy(bytes, 0, data, start, bytes.length);
        return start + bytes.length;
    }

    /** The content of field {@code i} (a ByteArrayPointable) of {@code tuple}, copied. */
    static byte[] field(ITupleReference tuple, int i) {
        byte[] data = tuple.getFieldData(i);
        int start = tuple.getFieldStart(i);
        int length = VarLenIntEncoderDecoder.decode(data, start);
        int from = start + VarLenIntEncoderDecoder.getBytesRequired(length);
        byte[] out = new byte[length];
        System.arraycopy(data, from, out, 0, length);
        return out;
    }
}
