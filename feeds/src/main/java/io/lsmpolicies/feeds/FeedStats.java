package io.lsmpolicies.feeds;

import java.util.List;
import java.util.Map;

/**
 * A snapshot of a feed's statistics: totals over every connection it ever had, and the open connections.
 *
 * @param name             the feed
 * @param state            its lifecycle state
 * @param records          records applied, over all connections
 * @param duplicates       insert-if-absent records found present
 * @param bytes            bytes received
 * @param errors           bad records by kind (kinds never seen are absent); unmodifiable
 * @param recordsPerSecond records divided by the seconds since start (until stop)
 * @param maxQueued        the most records any one connection ever had waiting
 * @param connections      total connections accepted
 * @param open             the open connections' statistics, oldest first; unmodifiable
 * @param recentErrors     the latest bad records (at most 16), oldest first, each with its offset and excerpt
 * @param refusedConnections connections closed at once because {@link FeedConfig#maxConnections()} were open
 */
public record FeedStats(String name, Feed.State state, long records, long duplicates, long bytes,
        Map<ErrorKind, Long> errors, double recordsPerSecond, int maxQueued, long connections,
        List<ConnectionStats> open, List<BadRecord> recentErrors, long refusedConnections) {
    /**
     * Copies the error counts and the lists.
     *
     * @param name             the feed
     * @param state            its lifecycle state
     * @param records          records applied, over all connections
     * @param duplicates       insert-if-absent records found present
     * @param bytes            bytes received
     * @param errors           bad records by kind (kinds never seen are absent); unmodifiable
     * @param recordsPerSecond records divided by the seconds since start (until stop)
     * @param maxQueued        the most records any one connection ever had waiting
     * @param connections      total connections accepted
     * @param open             the open connections' statistics, oldest first; unmodifiable
     * @param recentErrors     the latest bad records (at most 16), oldest first, each with its offset and excerpt
     * @param refusedConnections connections closed at once because {@link FeedConfig#maxConnections()} were open
     */
    public FeedStats {
        errors = Map.copyOf(errors);
        open = List.copyOf(open);
        recentErrors = List.copyOf(recentErrors);
    }

    /** {@return bad records of every kind} */
    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * {@return the bad records of {@code kind}}
     *
     * @param kind why records were bad
     */
    public long errors(ErrorKind kind) {
        return errors.getOrDefault(kind, 0L);
    }
}
