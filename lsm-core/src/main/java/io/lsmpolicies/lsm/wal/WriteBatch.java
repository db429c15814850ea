package io.lsmpolicies.lsm.wal;

import io.lsmpolicies.lsm.Bytes;
import io.lsmpolicies.lsm.sstable.Entry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Puts and deletes applied atomically, in order, with consecutive sequence numbers from
 * {@link #baseSequence()}. One batch is one WAL record.
 *
 * <p>Encoding (version 1): the byte 1 | baseSequence u64 | count u32 | per operation: type u8 (1 put, 2 delete)
 * | keyLen u32 | key | for puts valueLen u32 | value.
 */
public final class WriteBatch {
    static final byte VERSION = 1;
    private static final byte PUT = 1;
    private static final byte DELETE = 2;

    private final List<Op> ops = new ArrayList<>();
    private long baseSequence = -1;
    private long bytes;

    /** One operation; {@code value} is null for a delete. */
    public record Op(byte[] key, byte[] value) {
        public boolean isDelete() {
            return value == null;
        }
    }

    /** Adds a put. The arrays are not copied: do not change them afterwards. */
    public WriteBatch put(byte[] key, byte[] value) {
        ops.add(new Op(java.util.Objects.requireNonNull(key, "key"), java.util.Objects.requireNonNull(value, "value")));
        bytes += key.length + value.length;
        return this;
    }

    /** Adds a delete. */
    public WriteBatch delete(byte[] key) {
        ops.add(new Op(java.util.Objects.requireNonNull(key, "key"), null));
        bytes += key.length;
        return this;
    }

    public List<Op> ops() {
        return Collections.unmodifiableList(ops);
    }

    public int count() {
        return ops.size();
    }

    /** Key and value bytes in the batch (the user bytes of write amplification). */
    public long userBytes() {
        return bytes;
    }

    /** The sequence number of the first operation, or -1 before the store assigns it. */
    public long baseSequence() {
        return baseSequence;
    }

    /** Assigns sequence numbers baseSequence .. baseSequence + count - 1. */
    public void assignSequence(long base) {
        if (base < 0) {
            throw new IllegalArgumentException("sequence must be >= 0, was " + base);
        }
        this.baseSequence = base;
    }

    /** The batch's entries with their sequence numbers. REQUIRES: a sequence was assigned. */
    public List<Entry> entries() {
        if (baseSequence < 0) {
            throw new IllegalStateException("no sequence number assigned to the batch");
        }
        List<Entry> out = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            out.add(op.isDelete() ? Entry.delete(op.key(), baseSequence + i)
                    : Entry.put(op.key(), baseSequence + i, op.value()));
        }
        return out;
    }

    /** The WAL record. REQUIRES: a sequence was assigned. */
    public byte[] encode() {
        if (baseSequence < 0) {
            throw new IllegalStateException("no sequence number assigned to the batch");
        }
        int size = 1 + 8 + 4;
        for (Op op : ops) {
            size += 1 + 4 + op.key().length + (op.isDelete() ? 0 : 4 + op.value().length);
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put(VERSION).putLong(baseSequence).putInt(ops.size());
        for (Op op : ops) {
            b.put(op.isDelete() ? DELETE : PUT).putInt(op.key().length).put(op.key());
            if (!op.isDelete()) {
                b.putInt(op.value().length).put(op.value());
            }
        }
        return b.array();
    }

    /**
     * Reads {@link #encode()}'s output.
     *
     * @throws IllegalArgumentException saying what is malformed (the WAL reader adds file and offset)
     */
    public static WriteBatch decode(byte[] record) {
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
            batch.assignSequence(base);
            return batch;
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("write batch is cut short", e);
        }
    }
}
