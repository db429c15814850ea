package io.lsmpolicies.ycsb.hyracks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import site.ycsb.DBException;

/**
 * The indexes open in this process, one per directory, shared by the DB instances YCSB creates (one per client
 * thread) and reference-counted: the first {@link #acquire} opens the index, the last {@link #release} writes the
 * trace (if asked for) and closes it. Thread-safe: every method holds the class lock, also while an index opens or
 * closes, so an {@code acquire} racing the last {@code release} waits and reopens.
 */
final class SharedTrees {
    private static final System.Logger LOG = System.getLogger(SharedTrees.class.getName());
    private static final Map<Path, Shared> OPEN = new HashMap<>();

    /** Striped locks over keys: a thread holds at most one; enough stripes that client threads rarely share one. */
    static final int STRIPES = 1024;

    /** One open index and the number of DB instances holding it. */
    static final class Shared {
        final Path dir;
        final HyracksTree tree;
        final String settings;
        final Path traceFile;
        private final ReentrantLock[] locks = new ReentrantLock[STRIPES];
        private int refs;

        private Shared(Path dir, HyracksTree tree, String settings, Path traceFile) {
            this.dir = dir;
            this.tree = tree;
            this.settings = settings;
            this.traceFile = traceFile;
            for (int i = 0; i < STRIPES; i++) {
                locks[i] = new ReentrantLock();
            }
        }

        /** The lock of YCSB key {@code key}: held around every write of it, so a read-modify-write is atomic. */
        ReentrantLock lockOf(String key) {
            int h = key.hashCode();
            return locks[(h ^ (h >>> 16)) & (STRIPES - 1)];
        }
    }

    private SharedTrees() {
    }

    /**
     * The index of {@code config.dir()}, opened if this process does not hold it yet.
     *
     * @throws DBException naming {@code hyracks.dir} if the index cannot be opened (e.g. another process holds it),
     *                     or the settings that differ from those it was opened with here
     */
    static synchronized Shared acquire(HyracksConfig config) throws DBException {
        Path dir;
        try {
            Files.createDirectories(config.dir());
            dir = config.dir().toRealPath();
        } catch (IOException e) {
            throw new DBException(HyracksConfig.DIR + ": cannot create or resolve " + config.dir() + ": " + e, e);
        }
        Shared s = OPEN.get(dir);
        if (s != null) {
            if (!s.settings.equals(config.settings())) {
                throw new DBException(HyracksConfig.DIR + ": the index in " + dir + " is open in this process with "
                        + s.settings + "; this DB instance asks for " + config.settings()
                        + " (every client thread must use the same settings)");
            }
            s.refs++;
            return s;
        }
        HyracksTree tree;
        try {
            tree = HyracksTree.open(config);
        } catch (IOException | RuntimeException e) {
            throw new DBException(HyracksConfig.DIR + ": cannot open the index in " + dir + ": " + e.getMessage(), e);
        }
        s = new Shared(dir, tree, config.settings(), config.traceFile());
        s.refs = 1;
        OPEN.put(dir, s);
        io.lsmpolicies.ycsb.BindingRuntime.atExit(SharedTrees::closeAll);
        return s;
    }

    /**
     * Drops one reference; the last one settles the index (a final flush, then every merge the policy schedules),
     * writes the trace file if one was asked for, logs a summary line (flushes, merges, bytes) on stderr, and closes
     * it.
     *
     * @throws DBException if the final flush, the trace or the close fails
     */
    static synchronized void release(Shared s) throws DBException {
        if (s.refs <= 0) {
            throw new IllegalStateException("the index in " + s.dir + " was released more often than acquired");
        }
        if (--s.refs > 0) {
            return;
        }
        OPEN.remove(s.dir);
        try {
            try {
                s.tree.settle();
                FlushTrace trace = s.tree.trace();
                io.lsmpolicies.ycsb.TraceFile.Row end = trace.end(s.tree.diskComponents());
                if (s.traceFile != null) {
                    trace.write(s.traceFile, end);
                }
                LOG.log(System.Logger.Level.INFO, () -> String.format(Locale.ROOT, "ycsb-hyracks: %s (%s): %d flushes, "
                        + "%d merges, %d bytes flushed, %d written (write amplification %.3f), %d disk components, "
                        + "%d bytes on disk at most, %d ms waited for the emulated device", s.dir, s.settings,
                        end.flushes(), trace.merges(), end.flushedBytes(), end.writtenBytes(),
                        end.flushedBytes() == 0 ? 1.0 : (double) end.writtenBytes() / end.flushedBytes(),
                        end.components(), end.diskBytes(), s.tree.throttledNanos() / 1_000_000));
            } finally {
                s.tree.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DBException("interrupted while closing the index in " + s.dir, e);
        } catch (IOException | RuntimeException e) {
            throw new DBException("closing the index in " + s.dir + ": " + e, e);
        }
    }

    /** How many DB instances hold the index in {@code dir} (0: not open in this process). */
    static synchronized int references(Path dir) {
        try {
            Shared s = OPEN.get(dir.toRealPath());
            return s == null ? 0 : s.refs;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Closes every index still open (at exit: a client thread that died never released its index). */
    static synchronized void closeAll() {
        List<Shared> left = new ArrayList<>(OPEN.values());
        OPEN.clear();
        for (Shared s : left) {
            try {
                s.tree.close();
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "closing the index in " + s.dir + " at exit", e);
            }
        }
    }
}
