package io.lsmpolicies.feeds;

import java.util.Map;

/**
 * A snapshot of one connection's statistics.
 *
 * @param id                the connection's number within its feed, from 1
 * @param remote            the client's address
 * @param open              whether the connection still reads or applies records
 * @param records           records applied (with insert-if-absent: also those found present, see
 *                          {@code duplicates})
 * @param duplicates        insert-if-absent records whose key was present (not written)
 * @param bytes             bytes received
 * @param errors            bad records by kind (kinds never seen are absent); unmodifiable
 * @param recordsPerSecond  records divided by the seconds since the connection opened (until it closed)
 * @param queued            parsed records waiting to be applied now
 * @param maxQueued         the most records that ever waited at once
 */
public record ConnectionStats(long id, String remote, boolean open, long records, long duplicates, long bytes,
        Map<ErrorKind, Long> errors, double recordsPerSecond, int queued, int maxQueued) {
    /**
     * Copies the error counts.
     *
     * @param id                the connection's number within its feed, from 1
     * @param remote            the client's address
     * @param open              whether the connection still reads or applies records
     * @param records           records applied (with insert-if-absent: also those found present, see
     *                          {@code duplicates})
     * @param duplicates        insert-if-absent records whose key was present (not written)
     * @param bytes             bytes received
     * @param errors            bad records by kind (kinds never seen are absent); unmodifiable
     * @param recordsPerSecond  records divided by the seconds since the connection opened (until it closed)
     * @param queued            parsed records waiting to be applied now
     * @param maxQueued         the most records that ever waited at once
     */
    public ConnectionStats {
        errors = Map.copyOf(errors);
    }

    /** {@return bad records of every kind} */
    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }
}
