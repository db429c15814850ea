package io.lsmpolicies.lsm.log;

import io.lsmpolicies.lsm.Bytes;
import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One write-ahead-log record: a write batch's operations with the sequence number of the first, the others
 * numbered consecutively after it. The store numbers a batch when it applies it; the caller's
 * {@link WriteBatch} is not changed.
 *
 * <p>Encoding (version 1): the byte 1 | baseSequence u64 | count u32 | per operation: type u8 (1 put, 2 delete)
 * | keyLen u32 | key | for puts valueLen u32 | value.
 *
 * @param baseSequence the sequence number of the first operation, {@code >= 0}
 * @param ops          the operations in order (not copied)
 */
public record WalRecord(long baseSequence, List<WriteBatch.Op> ops) implements LogPayload {
    static final byte VERSION = 1;
    private static final byte PUT = 1;
    private static final byte DELETE = 2;

    public WalRecord {
        if (baseSequence < 0) {
            throw new IllegalArgumentException("sequence must be >= 0, was " + baseSequence);
        }
        ops = List.copyOf(ops);
    }

    /** {@code batch}'s operations numbered from {@code baseSequence}. */
    public static WalRecord of(long baseSequence, WriteBatch batch) {
        return new WalRecord(baseSequence, batch.ops());
    }

    /** The number of operations. */
    public int count() {
        return ops.size();
    }

    /**
     * Operation {@code i} as an entry with its sequence number.
     *
     * @param i the operation's index in [0, {@link #count()})
     * @return the entry
     */
    public Entry entry(int i) {
        WriteBatch.Op op = ops.get(i);
        return op.isDelete() ? Entry.delete(op.key(), baseSequence + i) : Entry.put(op.key(), baseSequence + i, op.value());
    }

    /** The operations as entries with their sequence numbers. */
    public List<Entry> entries() {
        List<Entry> out = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            out.add(entry(i));
        }
        return out;
    }

    /** The record's bytes, as the WAL stores them. */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(encodedSize());
        encodeTo(b);
        return b.array();
    }

    /** {@inheritDoc} */
    @Override
    public int encodedSize() {
        long size = 1 + 8 + 4;
        for (int i = 0; i < ops.size(); i++) {
            WriteBatch.Op op = ops.get(i);
            size += 1 + 4 + op.key().length + (op.isDelete() ? 0 : 4 + op.value().length);
        }
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("write batch of " + size + " encoded bytes exceeds the largest "
                    + "record, " + Integer.MAX_VALUE + " bytes");
        }
        return (int) size;
    }

    /** {@inheritDoc} */
    @Override
    public void encodeTo(ByteBuffer b) {
        b.put(VERSION).putLong(baseSequence).putInt(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            WriteBatch.Op op = ops.get(i);
            b.put(op.isDelete() ? DELETE : PUT).putInt(op.key().length).put(op.key());
            if (!op.isDelete()) {
                b.putInt(op.value().length).put(op.value());
            }
        }
    }

    /**
     * Reads {@link #encode()}'s output.
     *
     * @throws IllegalArgumentException saying what is malformed (the WAL reader adds file and offset)
     */
    public static WalRecord decode(byte[] record) {
        ByteBuffer b = ByteBuffer.wrap(record);
        try {
            byte version = b.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown write-batch version " + version);
            }
            long base = b.getLong();
            int count = b.getInt();
            if (base < 0 || count < 0 || count > record.length) {
                throw new IllegalArgumentException("write batch with sequence " + base + " and " + count
                        + " operations is impossible");
            }
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < count; i++) {
                byte type = b.get();
                byte[] key = Bytes.lengthPrefixed(b, "key of operation " + i);
                if (type == PUT) {
                    batch.put(key, Bytes.lengthPrefixed(b, "value of operation " + i));
                } else if (type == DELETE) {
                    batch.delete(key);
                } else {
                    throw new IllegalArgumentException("operation " + i + " has unknown type " + type);
                }
            }
            if (b.hasRemaining()) {
                throw new IllegalArgumentException(b.remaining() + " bytes after the last operation");
            }
            return of(base, batch);
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("write batch is cut short", e);
        }
    }
}
