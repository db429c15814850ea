package io.lsmpolicies.lsm.sstable;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Forces files to the device on daemon threads ({@code lsm-sync}) while their writers go on, so that a large file
 * reaches the device as it is written and the force that ends it waits only for the rest; without it the page
 * cache holds the whole file until that force. A file's writer starts at most one at a time and collects its
 * outcome with {@link #await}; a failed force is the writer's failure, as a failed write is.
 */
public final class BackgroundSync {
    private static final ExecutorService THREADS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lsm-sync");
        t.setDaemon(true);
        return t;
    });

    private BackgroundSync() {
    }

    /**
     * Starts forcing the bytes written to {@code channel} so far (its data, not its metadata).
     *
     * @param channel a file being written
     * @return the force, for {@link #await} or {@link Future#isDone()}
     */
    public static Future<?> start(FileChannel channel) {
        return start(() -> channel.force(false));
    }

    /** A force of a file's data to the device. */
    @FunctionalInterface
    public interface Force {
        /**
         * Forces the bytes written so far.
         *
         * @throws IOException if the force failed
         */
        void force() throws IOException;
    }

    /**
     * Starts {@code force} (of a file being written) on a daemon thread.
     *
     * @param force the force
     * @return it, for {@link #await} or {@link Future#isDone()}
     */
    public static Future<?> start(Force force) {
        return THREADS.submit(() -> {
            force.force();
            return null;
        });
    }

    /**
     * Waits for {@code task}, a background write or force of a file (null: nothing started), and throws its failure:
     * an {@link IOException}, {@link RuntimeException} or {@link Error} as it is, anything else wrapped. Interrupted,
     * it cancels the task if it has not started and throws an {@link InterruptedIOException}.
     *
     * @param task what {@link #start} returned, or another background task of the file, or null
     * @param what the file, for the messages
     * @throws IOException the task's failure
     */
    public static void await(Future<?> task, String what) throws IOException {
        if (task == null) {
            return;
        }
        try {
            task.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException("writing or forcing " + what + " failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            task.cancel(false);
            throw new InterruptedIOException("interrupted while writing or forcing " + what);
        }
    }
}
