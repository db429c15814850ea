package io.lsmpolicies.lsm;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The store's background pools: daemon threads named for their job, so a thread dump says what each does. */
final class DaemonThreads {
    private DaemonThreads() {
    }

    /** A pool of {@code threads} daemon threads named {@code name-1}, {@code name-2}, ... */
    static ExecutorService pool(String name, int threads) {
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return Executors.newFixedThreadPool(threads, factory);
    }

    /** Lets the queued tasks run, starts no new one, and waits up to a minute for them. */
    static void shutdown(ExecutorService pool) {
        pool.shutdown();
        try {
            pool.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
