package io.lsmpolicies.feeds;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/** The live, thread-safe counters behind {@link FeedStats} and {@link ConnectionStats}. */
final class Counters {
    final AtomicLong records = new AtomicLong();
    final AtomicLong duplicates = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    final AtomicLong refusedConnections = new AtomicLong();
    final AtomicInteger maxQueued = new AtomicInteger();
    private final AtomicLongArray errors = new AtomicLongArray(ErrorKind.values().length);
    final long startNanos = System.nanoTime();
    volatile long endNanos;

    /** How many of the latest bad records are kept for {@link FeedStats#recentErrors()}. */
    static final int RECENT = 16;
    private final java.util.ArrayDeque<BadRecord> recent = new java.util.ArrayDeque<>(RECENT);

    void error(ErrorKind kind) {
        errors.incrementAndGet(kind.ordinal());
    }

    void error(BadRecord bad) {
        error(bad.kind());
        synchronized (recent) {
            if (recent.size() == RECENT) {
                recent.removeFirst();
            }
            recent.addLast(bad);
        }
    }

    java.util.List<BadRecord> recent() {
        synchronized (recent) {
            return java.util.List.copyOf(recent);
        }
    }

    void queued(int n) {
        maxQueued.accumulateAndGet(n, Math::max);
    }

    Map<ErrorKind, Long> errors() {
        Map<ErrorKind, Long> m = new EnumMap<>(ErrorKind.class);
        for (ErrorKind k : ErrorKind.values()) {
            long n = errors.get(k.ordinal());
            if (n > 0) {
                m.put(k, n);
            }
        }
        return m;
    }

    double perSecond() {
        return perSecondSince(startNanos);
    }

    double perSecondSince(long since) {
        long end = endNanos != 0 ? endNanos : System.nanoTime();
        double seconds = Math.max(1e-9, (end - since) / 1e9);
        return records.get() / seconds;
    }
}
