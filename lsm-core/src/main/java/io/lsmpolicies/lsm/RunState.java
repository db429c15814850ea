package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.events.StoreEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether the store takes writes, and if not why: open read-only, closed, or stopped by its first background
 * failure (a failed write-ahead-log write or sync, a failed flush or merge). After a failure reads go on, every
 * write fails with the first failure as its cause, and only a reopen takes writes again.
 */
final class RunState {
    private final Path dir;
    private final boolean readOnly;
    private final StoreMutex mutex;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean closed;

    private final StoreEvents events;

    RunState(Path dir, boolean readOnly, StoreMutex mutex, StoreEvents events) {
        this.dir = dir;
        this.readOnly = readOnly;
        this.mutex = mutex;
        this.events = events;
    }

    /** Opened by {@link LsmStore#openReadOnly}: nothing is ever written, deleted or flushed. */
    boolean readOnly() {
        return readOnly;
    }

    boolean closed() {
        return closed;
    }

    void markClosed() {
        closed = true;
    }

    /** Records {@code e} if it is the first failure, and wakes every waiter (who then sees the store failed). */
    void fail(Throwable e) {
        if (failure.compareAndSet(null, e)) {
            events.emit(new StoreEvent.Failure(StoreEvents.now(), e.toString()));
        }
        mutex.signalAllLocking();
    }

    boolean failed() {
        return failure.get() != null;
    }

    Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** @throws IllegalStateException if the store is closed */
    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the store in " + dir + " is closed");
        }
    }

    /**
     * @throws IllegalStateException if the store is closed or read-only
     * @throws IOException           if a failure stopped it
     */
    void checkWritable() throws IOException {
        checkOpen();
        if (readOnly) {
            throw new IllegalStateException("the store in " + dir + " is open read-only");
        }
        rethrowFailure();
    }

    /** @throws IOException with the first failure as its cause, if one stopped the store */
    void rethrowFailure() throws IOException {
        Throwable e = failure.get();
        if (e != null) {
            throw new IOException("the store in " + dir + " stopped taking writes after a failure ("
                    + e.getMessage() + "); reopen it to recover", e);
        }
    }
}
