package io.lsmpolicies.feeds.server;

import java.time.Duration;

/**
 * When the node retries opening a partition that failed ({@code [nc]} {@code partition.reopen.delay} and
 * {@code partition.reopen.max-delay}): first after {@code delay}, then after twice the previous wait, up to
 * {@code maxDelay}, until it opens. A request ({@code POST /datasets/{name}/partitions/{i}/reopen}) may reopen it
 * at any time.
 *
 * @param delay    the first wait, or null: no automatic retries (only the request reopens)
 * @param maxDelay the longest wait, at least {@code delay}
 */
public record ReopenPolicy(Duration delay, Duration maxDelay) {
    /** Every 1 s at first, then at most every 30 s. */
    public static final ReopenPolicy DEFAULT = new ReopenPolicy(Duration.ofSeconds(1), Duration.ofSeconds(30));

    /** @throws IllegalArgumentException if {@code maxDelay} is shorter than {@code delay} */
    public ReopenPolicy {
        if (delay != null && (delay.isNegative() || delay.isZero() || maxDelay.compareTo(delay) < 0)) {
            throw new IllegalArgumentException("partition.reopen.max-delay (" + maxDelay.toMillis()
                    + " ms) must be at least partition.reopen.delay (" + delay.toMillis() + " ms)");
        }
    }

    /** Whether the node retries by itself. */
    public boolean automatic() {
        return delay != null;
    }

    /** The wait before retry {@code attempt} (0 first): {@code delay * 2^attempt}, at most {@code maxDelay}. */
    public Duration wait(int attempt) {
        Duration d = delay;
        for (int i = 0; i < attempt && d.compareTo(maxDelay) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(maxDelay) > 0 ? maxDelay : d;
    }
}
