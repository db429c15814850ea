package io.lsmpolicies.feeds.server;

import io.lsmpolicies.feeds.Partition;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reopens the node's partitions that are not {@link Partition.State#OPEN} (failed to open at start, or their store
 * stopped taking writes), with the back-off of a {@link ReopenPolicy}: a partition is first retried
 * {@code delay} after the reopener noticed it, then after twice the previous wait, up to {@code maxDelay}. One
 * daemon thread looks at every partition each {@code min(delay, 1 s)}.
 */
final class PartitionReopener implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PartitionReopener.class.getName());
    /** How long a reopen waits for the operations still using a failed store (see {@link Partition#reopen}). */
    static final Duration OLD_STORE_WAIT = Duration.ofSeconds(10);

    /** A partition's failed attempts so far and when the next is due ({@link System#nanoTime()}). */
    private record Attempts(int failed, long dueNanos) {
    }

    private final List<Partition> partitions;
    private final ReopenPolicy policy;
    private final ScheduledExecutorService thread;
    private final Map<Partition, Attempts> attempts = new HashMap<>(); // the reopener thread only
    private volatile boolean stopping;

    private PartitionReopener(List<Partition> partitions, ReopenPolicy policy) {
        this.partitions = List.copyOf(partitions);
        this.policy = policy;
        this.thread = Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("partition-reopener",
                true));
    }

    /** Starts watching {@code partitions}; {@code policy} must be automatic. */
    static PartitionReopener start(List<Partition> partitions, ReopenPolicy policy) {
        PartitionReopener r = new PartitionReopener(partitions, policy);
        long tick = Math.min(policy.delay().toMillis(), 1000);
        r.thread.scheduleWithFixedDelay(r::tick, 0, tick, TimeUnit.MILLISECONDS);
        return r;
    }

    private void tick() {
        long now = System.nanoTime();
        for (Partition p : partitions) {
            if (stopping) {
                return;
            }
            if (p.status().state() == Partition.State.OPEN) {
                attempts.remove(p);
                continue;
            }
            Attempts a = attempts.get(p);
            if (a == null) {
                attempts.put(p, new Attempts(0, now + policy.wait(0).toNanos()));
                continue;
            }
            if (now - a.dueNanos() < 0) {
                continue;
            }
            try {
                p.reopen(OLD_STORE_WAIT);
                attempts.remove(p);
            } catch (IOException | RuntimeException e) {
                Duration next = policy.wait(a.failed() + 1);
                attempts.put(p, new Attempts(a.failed() + 1, System.nanoTime() + next.toNanos()));
                LOG.log(System.Logger.Level.WARNING, "{0} could not be reopened (attempt {1}; next in {2} ms): {3}",
                        p.name(), a.failed() + 1, next.toMillis(), Partition.causes(e));
            }
        }
    }

    /**
     * Stops retrying; waits for an attempt under way to end (never interrupted: an interrupt would close the file
     * channels of the store being opened).
     */
    @Override
    public void close() {
        stopping = true;
        thread.shutdown();
        try {
            thread.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
