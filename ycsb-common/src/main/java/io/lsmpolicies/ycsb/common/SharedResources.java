package io.lsmpolicies.ycsb.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import site.ycsb.DBException;

/**
 * The stores of one kind open in this process, one per data directory, shared by the DB instances YCSB creates
 * (one per client thread) and reference-counted: the first {@link #acquire} opens the store, the last
 * {@link #release} finishes and closes it. A store directory can be open only once, so this is what lets several
 * client threads use one store. Used by our binding and the peers' ({@code ycsb-rocksdb}, {@code ycsb-hyracks}).
 * Thread-safe: every method holds this object's lock, also while a store opens or closes, so an {@code acquire}
 * racing the last {@code release} waits and reopens.
 *
 * @param <R> the open store
 */
public final class SharedResources<R> {
    private static final System.Logger LOG = System.getLogger(SharedResources.class.getName());

    /** Opens the store in a directory. */
    @FunctionalInterface
    public interface Opener<R> {
        /**
         * Opens the store.
         *
         * @param dir the store's directory
         * @return the open store
         * @throws Exception if it cannot be opened
         */
        R open(Path dir) throws Exception;
    }

    /** An action on an open store (finish, close). */
    @FunctionalInterface
    public interface Action<R> {
        /**
         * Runs the action.
         *
         * @param resource the open store
         * @throws Exception if it fails
         */
        void apply(R resource) throws Exception;
    }

    /** One open store, the settings it was opened with, its key locks, and the DB instances holding it. */
    public static final class Handle<R> {
        private final Path dir;
        private final R resource;
        private final String settings;
        private final KeyLocks locks = new KeyLocks();
        private int refs;

        private Handle(Path dir, R resource, String settings) {
            this.dir = dir;
            this.resource = resource;
            this.settings = settings;
        }

        /** {@return the store's directory (its real path)} */
        public Path dir() {
            return dir;
        }

        /** {@return the open store} */
        public R resource() {
            return resource;
        }

        /** {@return the settings it was opened with} */
        public String settings() {
            return settings;
        }

        /**
         * {@return the lock every write of YCSB key {@code key} holds, so a read-modify-write is atomic in this process}
         *
         * @param key a YCSB key
         */
        public ReentrantLock lockOf(String key) {
            return locks.of(key);
        }
    }

    private final String dirProperty;
    private final String what;
    private final Action<R> close;
    private final Map<Path, Handle<R>> open = new HashMap<>();
    private final Runnable closeAllAtExit = this::closeAll;

    /**
     * @param dirProperty the property naming the directory, for messages (e.g. {@code lsm.dir})
     * @param what        what a store is called in messages (e.g. {@code store}, {@code RocksDB database})
     * @param close       closes a store (at the last release, and at exit for stores never released)
     */
    public SharedResources(String dirProperty, String what, Action<R> close) {
        this.dirProperty = dirProperty;
        this.what = what;
        this.close = close;
    }

    /**
     * The store in {@code dir}, opened with {@code opener} if this process does not hold it yet.
     *
     * @param dir      the store's directory
     * @param settings the settings as text; every DB instance sharing a store must ask for the same
     * @param opener   opens the store if this process does not hold it yet
     * @return the handle of the store, which {@link #release} gives back
     * @throws DBException naming the directory property if the store cannot be opened (e.g. another process holds
     *                     it), or the settings that differ from those it was opened with here
     */
    public synchronized Handle<R> acquire(Path dir, String settings, Opener<R> opener) throws DBException {
        Path real;
        try {
            Files.createDirectories(dir);
            real = dir.toRealPath();
        } catch (IOException e) {
            throw new DBException(dirProperty + ": cannot create or resolve " + dir + ": " + e, e);
        }
        Handle<R> h = open.get(real);
        if (h != null) {
            if (!h.settings.equals(settings)) {
                throw new DBException(dirProperty + ": the " + what + " in " + real + " is open in this process with "
                        + h.settings + "; this DB instance asks for " + settings
                        + " (every client thread must use the same settings)");
            }
            h.refs++;
            return h;
        }
        R resource;
        try {
            resource = opener.open(real);
        } catch (Exception e) {
            throw new DBException(dirProperty + ": cannot open the " + what + " in " + real + ": " + e.getMessage(), e);
        }
        h = new Handle<>(real, resource, settings);
        h.refs = 1;
        open.put(real, h);
        BindingRuntime.atExit(closeAllAtExit);
        return h;
    }

    /**
     * Drops one reference; the last one runs {@code finish} (e.g. a final flush and the trace), then closes the store
     * whether or not {@code finish} succeeded.
     *
     * @param h      the handle {@link #acquire} gave
     * @param finish what the last release runs before closing the store
     * @throws DBException if {@code finish} or the close fails
     */
    public synchronized void release(Handle<R> h, Action<R> finish) throws DBException {
        if (h.refs <= 0) {
            throw new IllegalStateException("the " + what + " in " + h.dir + " was released more often than acquired");
        }
        if (--h.refs > 0) {
            return;
        }
        open.remove(h.dir);
        try {
            try {
                finish.apply(h.resource);
            } finally {
                close.apply(h.resource);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DBException("interrupted while closing the " + what + " in " + h.dir, e);
        } catch (Exception e) {
            throw new DBException("closing the " + what + " in " + h.dir + ": " + e, e);
        }
    }

    /**
     * {@return how many DB instances hold the store in {@code dir} (0: not open in this process)}
     *
     * @param dir the store's directory
     */
    public synchronized int references(Path dir) {
        try {
            Handle<R> h = open.get(dir.toRealPath());
            return h == null ? 0 : h.refs;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Closes every store still open (at exit: a client thread that died never released its share). */
    public synchronized void closeAll() {
        List<Handle<R>> left = new ArrayList<>(open.values());
        open.clear();
        for (Handle<R> h : left) {
            try {
                close.apply(h.resource);
            } catch (Exception e) {
                LOG.log(System.Logger.Level.ERROR, "closing the " + what + " in " + h.dir + " at exit", e);
            }
        }
    }
}
