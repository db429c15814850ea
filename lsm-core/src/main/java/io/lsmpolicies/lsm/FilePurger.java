package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.io.FileLayer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * Deletes the files of replaced tables on a thread of its own, as RocksDB purges obsolete files in the
 * background: unlinking a large file takes the file system a while (freeing its extents), and the last reference
 * to a replaced table is often dropped by a merge installing its result under the store's mutex, or by a read.
 * Neither should wait for the file system. A deletion that fails fails the store, as before (the file is then an
 * orphan the next open removes); {@link #awaitIdle} waits until every queued file is gone, and after
 * {@link #close} files are deleted by the caller's thread.
 */
final class FilePurger {
    private final FileLayer files;
    private final RunState run;
    private final ExecutorService thread = DaemonThreads.pool("lsm-purge", 1);
    private final Object lock = new Object();
    private int pending;

    FilePurger(FileLayer files, RunState run) {
        this.files = files;
        this.run = run;
    }

    /** Deletes {@code path} (no longer in any version, its reader closed) in the background. */
    void delete(Path path) throws IOException {
        synchronized (lock) {
            pending++;
        }
        try {
            thread.execute(() -> purge(path));
        } catch (RejectedExecutionException e) { // closed: delete here
            synchronized (lock) {
                pending--;
            }
            files.deleteIfExists(path);
        }
    }

    private void purge(Path path) {
        try {
            files.deleteIfExists(path);
        } catch (IOException | RuntimeException e) {
            run.fail(e);
        } finally {
            synchronized (lock) {
                if (--pending == 0) {
                    lock.notifyAll();
                }
            }
        }
    }

    /** Waits until every file queued so far is deleted (or its deletion failed the store). */
    void awaitIdle() {
        synchronized (lock) {
            boolean interrupted = false;
            while (pending > 0) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Deletes what is queued and stops the thread. */
    void close() {
        DaemonThreads.shutdown(thread);
    }
}
