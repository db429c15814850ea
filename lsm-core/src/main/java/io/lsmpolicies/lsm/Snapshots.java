package io.lsmpolicies.lsm;

import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The live {@link Snapshot}s' sequence numbers, with a count each: what flushes and merges must keep (every
 * version a live snapshot reads). Thread-safe.
 */
final class Snapshots {
    private final TreeMap<Long, Integer> live = new TreeMap<>();

    /**
     * A snapshot at the sequence number {@code visible} gives, registered until it is closed. The number is read
     * under the registry's lock, so no flush or merge that has not seen the snapshot can drop a version it needs.
     */
    synchronized Snapshot take(LongSupplier visible) {
        long sequence = visible.getAsLong();
        live.merge(sequence, 1, Integer::sum);
        return new Snapshot(sequence, this);
    }

    synchronized void release(long sequence) {
        live.computeIfPresent(sequence, (k, n) -> n == 1 ? null : n - 1);
    }

    /** The sequence numbers of the live snapshots, ascending. */
    synchronized long[] sequences() {
        return live.keySet().stream().mapToLong(Long::longValue).toArray();
    }
}
