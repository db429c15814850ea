package io.lsmpolicies.ycsb.common;

import java.util.concurrent.atomic.AtomicLong;
import site.ycsb.Status;

/**
 * Reports failed operations on stderr without flooding it: the first {@link #VERBOSE} failures of the process
 * with their cause, then every {@link #EVERY}-th as a count. YCSB counts the returned statuses itself
 * ({@code [READ], Return=ERROR, n}). Thread-safe. Public so that a peer system's binding ({@code ycsb-rocksdb})
 * reports its failures the same way.
 */
public final class OpErrors {
    static final int VERBOSE = 10;
    static final long EVERY = 10_000;
    private static final System.Logger LOG = System.getLogger("io.lsmpolicies.ycsb");
    private static final AtomicLong FAILURES = new AtomicLong();

    private OpErrors() {
    }

    /**
     * Logs the failure of {@code op} on {@code key} (the first ones in full, then a count).
     *
     * @param op    the YCSB operation, e.g. {@code read}
     * @param key   the YCSB key
     * @param cause what failed
     * @return {@link Status#ERROR}
     */
    public static Status error(String op, String key, Throwable cause) {
        long n = FAILURES.incrementAndGet();
        if (n <= VERBOSE) {
            LOG.log(System.Logger.Level.WARNING, op + " " + key + " failed: " + cause, cause);
        } else if (n % EVERY == 0) {
            LOG.log(System.Logger.Level.WARNING, n + " operations failed so far; the latest: " + op + " " + key
                    + ": " + cause);
        }
        return Status.ERROR;
    }
}
