package io.lsmpolicies.feeds;

import io.lsmpolicies.lsm.LsmStore;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One partition of a dataset and its store, which a node may replace while the server runs. The partition is in
 * one of three {@link State}s: {@code OPEN}; {@code READ_ONLY}, when it takes no writes but answers reads (its
 * store stopped taking writes after a failure: a failed WAL write or sync, a failed background flush or merge; or
 * its store could not be opened for writing, on a full device say, and was opened read-only, as
 * {@link LsmStore#openReadOnly} does, changing nothing on disk); {@code DOWN}, when it has no store (neither open
 * worked: damaged or missing files, a failing device; or it is being reopened).
 *
 * <p>Every operation takes a {@link Lease} on the current store ({@link #acquire}) and closes it when done; a
 * partition that cannot serve the operation throws {@link PartitionUnavailableException} instead, at once (no
 * operation waits for a reopen). {@link #reopen} swaps the store: it makes the partition {@code DOWN} (new
 * operations fail cleanly), waits until the last lease of the old store is closed, closes that store (which
 * releases its directory lock), and opens a new one, whose recovery replays the WAL, so every acknowledged write
 * is back. An operation never sees a store closed under it.
 *
 * <p>A partition made with {@link #of} (embedded use) has no opener and cannot be reopened. Thread-safe.
 */
public final class Partition implements Closeable {
    private static final System.Logger LOG = System.getLogger(Partition.class.getName());

    /** How long {@link #close()} waits for the operations still using the store. */
    private static final Duration CLOSE_WAIT = Duration.ofMinutes(1);

    /** What the partition can serve. */
    public enum State {
        /** Reads and writes. */
        OPEN,
        /** Reads only: the store stopped taking writes, or only a read-only open worked. */
        READ_ONLY,
        /** Nothing: no store is open (being reopened, or no open worked). */
        DOWN
    }

    /**
     * The partition's state and, unless it is {@code OPEN}, the failure that made it so (the store's error and its
     * causes).
     */
    public record Status(State state, String error) {
    }

    /** Opens the partition's store again, with the options and file layer it was first opened with. */
    @FunctionalInterface
    public interface Opener {
        /**
         * Opens the store.
         *
         * @return the open store
         * @throws IOException if it cannot be opened
         */
        LsmStore open() throws IOException;
    }

    /**
     * One store, shared by the leases on it. Once the partition let go of it and the last lease is closed it is
     * drained, and the thread that let go of it (a reopen or the partition's close, never a lease's thread, which may
     * be an event loop) closes the store.
     */
    private static final class Holder {
        final LsmStore store; // null: DOWN
        /** Whether the store was opened for writing (a failure is then the store's own: it stopped taking writes). */
        final boolean writable;
        final AtomicReference<Throwable> failure;
        /** 1 for the partition's own reference, plus one per open lease; 0 once released for good. */
        final AtomicInteger refs = new AtomicInteger(1);
        final CompletableFuture<Void> drained = new CompletableFuture<>();

        Holder(LsmStore store, Throwable failure) {
            this.store = store;
            this.writable = store != null && failure == null;
            this.failure = new AtomicReference<>(failure);
            if (store == null) {
                refs.set(0);
                drained.complete(null);
            }
        }

        boolean retain() {
            for (;;) {
                int r = refs.get();
                if (r <= 0) {
                    return false;
                }
                if (refs.compareAndSet(r, r + 1)) {
                    return true;
                }
            }
        }

        void release() {
            if (refs.decrementAndGet() == 0) {
                drained.complete(null);
            }
        }
    }

    /** A use of the partition's current store. Close it when the operation is done (once; further calls no-op). */
    public final class Lease implements AutoCloseable {
        private final Holder holder;
        private boolean released;

        private Lease(Holder holder) {
            this.holder = holder;
        }

        /** {@return the store this lease uses} */
        public LsmStore store() {
            return holder.store;
        }

        /**
         * Reports that an operation through this lease failed with {@code e}. If the store has stopped taking
         * writes ({@link LsmStore#writeFailure()}), the partition becomes {@code READ_ONLY} until it is reopened.
         *
         * @param e what the operation failed with
         * @return whether the partition is no longer writable because of the store's failure
         */
        public boolean failed(Throwable e) {
            return markFailed(holder);
        }

        @Override
        public synchronized void close() {
            if (!released) {
                released = true;
                holder.release();
            }
        }
    }

    private final String dataset;
    private final int index;
    private final int count;
    private final Path directory;
    private final Opener opener;
    private final Opener readOnly;
    private final String recovery;
    private final AtomicReference<Holder> current;
    /** A store let go of by a reopen whose last lease was not closed in time; the next reopen waits for it. */
    private Holder retiring; // guarded by this
    private boolean closed; // guarded by this

    private Partition(String dataset, int index, int count, Path directory, Holder first, Opener opener,
            Opener readOnly, String recovery) {
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("partition " + index + " of " + count);
        }
        this.dataset = Objects.requireNonNull(dataset, "dataset");
        this.index = index;
        this.count = count;
        this.directory = Objects.requireNonNull(directory, "directory");
        this.opener = opener;
        this.readOnly = readOnly;
        this.recovery = recovery;
        this.current = new AtomicReference<>(first);
    }

    /**
     * {@return partition {@code index} of {@code count} of {@code dataset}: an open store that is never reopened}
     *
     * @param dataset the dataset's name
     * @param index   the partition's number, from 0
     * @param count   the dataset's number of partitions
     * @param store   the open store
     */
    public static Partition of(String dataset, int index, int count, LsmStore store) {
        return new Partition(dataset, index, count, store.directory(), new Holder(store, null), null, null,
                "reopen the store");
    }

    /**
     * A partition that {@code opener} reopens (see {@link #reopen}), falling back to {@code readOnly} when it cannot.
     * If the first open failed with {@code failure}, {@code store} is the read-only store opened instead, or null.
     *
     * @param dataset   the dataset's name
     * @param index     the partition's number, from 0
     * @param count     the dataset's number of partitions
     * @param directory the store's directory
     * @param store     its store: open for writing if {@code failure} is null, else read-only or null
     * @param failure   why the first open for writing failed, or null if it worked
     * @param opener    opens the store for writing
     * @param readOnly  opens the store read-only, when {@code opener} fails
     * @param recovery  how the partition comes back, for messages (e.g. "the node retries by itself")
     * @return the partition
     * @throws IllegalArgumentException if there is neither a store nor a failure
     */
    public static Partition reopenable(String dataset, int index, int count, Path directory, LsmStore store,
            Throwable failure, Opener opener, Opener readOnly, String recovery) {
        if (store == null && failure == null) {
            throw new IllegalArgumentException("give a store or the failure that kept it from opening");
        }
        return new Partition(dataset, index, count, directory, new Holder(store, failure),
                Objects.requireNonNull(opener, "opener"), Objects.requireNonNull(readOnly, "readOnly"), recovery);
    }

    /**
     * Opens a store with {@code opener}; if that fails, a read-only one with {@code readOnly}. Returns the store
     * (null if neither opened) and the failure of the first open (null if it worked).
     *
     * @param opener   opens the store for writing
     * @param readOnly opens the store read-only
     * @return the store, or null, and the failure of the first open, or null
     */
    public static Opened open(Opener opener, Opener readOnly) {
        try {
            return new Opened(opener.open(), null);
        } catch (IOException | RuntimeException e) {
            Throwable failure = e instanceof UncheckedIOException u && u.getCause() != null ? u.getCause() : e;
            try {
                return new Opened(readOnly.open(), failure);
            } catch (IOException | RuntimeException r) {
                failure.addSuppressed(r);
                return new Opened(null, failure);
            }
        }
    }

    /** What {@link #open} got: a store or null, and the failure of the writable open or null. */
    public record Opened(LsmStore store, Throwable failure) {
    }

    /** {@return the dataset's name} */
    public String dataset() {
        return dataset;
    }

    /** {@return the partition's number, from 0} */
    public int index() {
        return index;
    }

    /** {@return how many partitions the dataset has} */
    public int count() {
        return count;
    }

    /** {@return the store's directory} */
    public Path directory() {
        return directory;
    }

    /** {@return whether {@link #reopen} can reopen it (it has an opener)} */
    public boolean reopenable() {
        return opener != null;
    }

    /**
     * A lease on the current store, for a read ({@code write} false) or a write.
     *
     * @param write whether the operation writes
     * @return the lease; close it when the operation is done
     * @throws PartitionUnavailableException if the partition is {@code DOWN}, or {@code READ_ONLY} and
     *                                       {@code write} is true; naming the partition and the cause
     */
    public Lease acquire(boolean write) throws PartitionUnavailableException {
        for (;;) {
            Holder h = current.get();
            if (h.store == null) {
                throw unavailable(h.failure.get(), "is unavailable until its store is reopened");
            }
            if (write) {
                checkStore(h);
                Throwable f = h.failure.get();
                if (f != null && h.writable) {
                    throw new PartitionUnavailableException(dataset, index, writeFailure(f), true, f);
                }
                if (f != null) {
                    throw unavailable(f, "takes no writes until its store is reopened (it was opened read-only)");
                }
            }
            if (h.retain()) {
                return new Lease(h);
            }
            // let go of by a reopen between the read and the retain: look again
        }
    }

    /**
     * The current store, without a lease: for callers that know the partition is not being reopened (embedded use,
     * tests). Prefer {@link #acquire}.
     *
     * @return the store
     * @throws PartitionUnavailableException if the partition has no store
     */
    public LsmStore store() throws PartitionUnavailableException {
        Holder h = current.get();
        if (h.store == null) {
            throw unavailable(h.failure.get(), "is unavailable until its store is reopened");
        }
        return h.store;
    }

    /** {@return the partition's state; notices a store that stopped taking writes since the last operation} */
    public Status status() {
        Holder h = current.get();
        if (h.store != null) {
            checkStore(h);
        }
        Throwable f = h.failure.get();
        State s = h.store == null ? State.DOWN : f == null ? State.OPEN : State.READ_ONLY;
        return new Status(s, f == null ? null : causes(f));
    }

    /**
     * The message for a write that failed with {@code e}: which partition, that it takes no writes until reopened,
     * how it comes back, and the error with its causes.
     *
     * @param e what the write failed with
     * @return the message
     */
    public String writeFailure(Throwable e) {
        return name() + " takes no more writes until its store is reopened (" + recovery
                + (count == 1 ? "" : "; the other partitions go on") + "): " + causes(e);
    }

    /**
     * Reopens the store, unless the partition is {@code OPEN}: makes the partition {@code DOWN}, waits up to
     * {@code wait} for the operations still using the old store, closes it, and opens a new one (replaying its WAL).
     * If that fails, the store is opened read-only ({@code READ_ONLY}, reads go on) or, if that fails too, the
     * partition stays {@code DOWN}, with the new failure; a later call tries again.
     *
     * @param wait the longest wait for the operations still using the old store
     * @return whether a store was reopened (false: it was open already)
     * @throws IOException           why the store could not be opened, or that operations still use the old one
     * @throws IllegalStateException if the partition has no opener, or was closed
     */
    public synchronized boolean reopen(Duration wait) throws IOException {
        if (opener == null) {
            throw new IllegalStateException(name() + " was not opened by a node: " + recovery);
        }
        if (closed) {
            throw new IllegalStateException(name() + " is closed");
        }
        Holder h = current.get();
        if (h.store != null) {
            checkStore(h);
            Throwable f = h.failure.get();
            if (f == null) {
                return false;
            }
            current.set(new Holder(null, f)); // new operations fail cleanly from here on
            retiring = h;
            h.release();
        }
        if (retiring != null) {
            Holder r = retiring;
            awaitDrained(r, wait, "reopened");
            retiring = null;
            try {
                r.store.close();
            } catch (IOException | RuntimeException e) { // its files and lock are released all the same
                LOG.log(System.Logger.Level.WARNING, "closing the failed store of " + name(), e);
            }
        }
        Opened o = open(opener, readOnly);
        current.set(new Holder(o.store(), o.failure()));
        if (o.failure() != null) {
            LOG.log(System.Logger.Level.WARNING, "{0} could not be reopened{1}: {2}", name(), o.store() != null
                    ? " (it answers reads from its store opened read-only)" : "", causes(o.failure()));
            throw o.failure() instanceof IOException io ? io : new IOException(o.failure().getMessage(),
                    o.failure());
        }
        LOG.log(System.Logger.Level.INFO, "{0} reopened", name());
        return true;
    }

    private void awaitDrained(Holder h, Duration wait, String what) throws IOException {
        try {
            h.drained.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException(name() + " cannot be " + what + " yet: " + Math.max(0, h.refs.get())
                    + " operation(s) still use its old store (a range scan holds it until its answer ends)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(name() + ": interrupted while waiting for its old store's operations", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Lets go of the store: no new operation takes it; closes it once the operations using it are done (waiting at
     * most a minute). Idempotent.
     *
     * @throws IOException if the store's close failed
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        Holder h = current.getAndSet(new Holder(null, new IOException(name() + " is closed")));
        if (h.store != null) {
            h.release();
            retiring = h;
        }
        if (retiring != null) {
            Holder r = retiring;
            retiring = null;
            awaitDrained(r, CLOSE_WAIT, "closed");
            r.store.close();
        }
    }

    /** Marks {@code h} failed if its store stopped taking writes; whether it did. */
    private boolean markFailed(Holder h) {
        checkStore(h);
        return h.failure.get() != null;
    }

    private static void checkStore(Holder h) {
        if (h.store != null && h.failure.get() == null) {
            h.store.writeFailure().ifPresent(f -> {
                if (h.failure.compareAndSet(null, f)) {
                    LOG.log(System.Logger.Level.ERROR, "the store in {0} stopped taking writes: {1}",
                            h.store.directory(), causes(f));
                }
            });
        }
    }

    private PartitionUnavailableException unavailable(Throwable cause, String what) {
        String why = cause == null ? "" : ": " + causes(cause);
        return new PartitionUnavailableException(dataset, index, name() + " " + what + " (" + recovery
                + (count == 1 ? "" : "; the other partitions go on") + ")" + why, false, cause);
    }

    /** {@return "partition i of n of dataset d (DIR)", or "dataset d (DIR)" for a dataset of one partition} */
    public String name() {
        return (count == 1 ? "dataset " + dataset : "partition " + index + " of " + count + " of dataset " + dataset)
                + " (" + directory + ")";
    }

    /**
     * {@return an error and its causes, one after the other: the first cause is often the one that names the I/O}
     *
     * @param e an error
     */
    public static String causes(Throwable e) {
        if (e instanceof UncheckedIOException u && u.getCause() != null) {
            e = u.getCause();
        }
        StringBuilder b = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() == null || b.indexOf(c.getMessage()) < 0) {
                b.append(" (caused by ").append(c).append(')');
            }
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return name();
    }
}
