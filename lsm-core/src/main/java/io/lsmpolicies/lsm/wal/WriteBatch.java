package io.lsmpolicies.lsm.wal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Puts and deletes that {@code LsmStore.write} applies atomically and in order: all or none survive a crash, and
 * a reader sees all or none of them. The store gives the operations consecutive sequence numbers when it applies
 * the batch and logs it as one write-ahead-log record; the batch itself is not changed, and may be written again.
 * Not thread-safe: build it on one thread.
 */
public final class WriteBatch {
    private final List<Op> ops = new ArrayList<>(4);
    private final List<Op> view = Collections.unmodifiableList(ops);
    private long bytes;

    /**
     * One operation.
     *
     * @param key   the key
     * @param value the value; null for a delete
     */
    public record Op(byte[] key, byte[] value) {
        /** {@return whether this operation deletes its key} */
        public boolean isDelete() {
            return value == null;
        }
    }

    /**
     * Adds a put. The arrays are not copied: do not change them afterwards. Returns this batch.
     *
     * @param key   the key
     * @param value the value
     * @return this batch
     */
    public WriteBatch put(byte[] key, byte[] value) {
        ops.add(new Op(java.util.Objects.requireNonNull(key, "key"), java.util.Objects.requireNonNull(value, "value")));
        bytes += key.length + value.length;
        return this;
    }

    /**
     * Adds a delete of {@code key} (not copied). Returns this batch.
     *
     * @param key the key
     * @return this batch
     */
    public WriteBatch delete(byte[] key) {
        ops.add(new Op(java.util.Objects.requireNonNull(key, "key"), null));
        bytes += key.length;
        return this;
    }

    /** {@return the operations in the order they were added (a read-only view)} */
    public List<Op> ops() {
        return view;
    }

    /** {@return the number of operations} */
    public int count() {
        return ops.size();
    }

    /** {@return key and value bytes in the batch (the user bytes of write amplification)} */
    public long userBytes() {
        return bytes;
    }
}
