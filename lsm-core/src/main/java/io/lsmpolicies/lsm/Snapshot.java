package io.lsmpolicies.lsm;

/**
 * A consistent point-in-time view of the store: reads through it see every write acknowledged before it was
 * taken and none after, however many flushes and merges run meanwhile (merges keep the versions a live
 * snapshot needs). Close it to let merges drop those versions. Thread-safe.
 */
public final class Snapshot implements AutoCloseable {
    private final long sequence;
    private final Snapshots registry;
    private boolean closed;

    Snapshot(long sequence, Snapshots registry) {
        this.sequence = sequence;
        this.registry = registry;
    }

    /** {@return the sequence number of the last write the snapshot sees} */
    public long sequence() {
        return sequence;
    }

    /** Releases the snapshot; later reads through it fail. Idempotent. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            registry.release(sequence);
        }
    }

    /** @throws IllegalStateException if closed */
    synchronized long checkedSequence() {
        if (closed) {
            throw new IllegalStateException("snapshot at sequence " + sequence + " is closed");
        }
        return sequence;
    }
}
