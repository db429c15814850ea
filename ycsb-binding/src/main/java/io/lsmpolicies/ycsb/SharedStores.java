package io.lsmpolicies.ycsb;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lsmpolicies.lsm.LsmStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import site.ycsb.DBException;

/**
 * The stores open in this process, one per data directory, shared by the DB instances YCSB creates (one per
 * client thread) and reference-counted: the first {@link #acquire} opens the store, the last {@link #release}
 * closes it (flushing its MemTable). A store directory can be open only once (its LOCK file), so this is what lets
 * several client threads use one store. Thread-safe: every method holds the class lock, also while a store opens
 * or closes, so an {@code acquire} racing the last {@code release} waits and reopens.
 */
final class SharedStores {
    private static final System.Logger LOG = System.getLogger(SharedStores.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Path, Shared> OPEN = new HashMap<>();

    /** One open store and the number of DB instances holding it. */
    static final class Shared {
        final Path dir;
        final LsmStore store;
        final String settings;
        final Path metricsFile;
        final Path traceFile;
        /** The flush rows of the trace, when one is asked for. */
        final List<TraceFile.Row> trace = java.util.Collections.synchronizedList(new ArrayList<>());
        /** Serialises the writes of a key, so an update's read-modify-write is atomic in this process. */
        final KeyLocks locks = new KeyLocks();
        private int refs;

        private Shared(Path dir, LsmStore store, String settings, Path metricsFile, Path traceFile) {
            this.dir = dir;
            this.store = store;
            this.settings = settings;
            this.metricsFile = metricsFile;
            this.traceFile = traceFile;
            if (traceFile != null) {
                store.onFlush(sample -> trace.add(row(TraceFile.Event.FLUSH, sample)));
            }
        }
    }

    private SharedStores() {
    }

    /**
     * The store of {@code config.dir()}, opened with {@code config.options()} if this process does not hold it yet.
     *
     * @throws DBException naming {@code lsm.dir} if the store cannot be opened (e.g. another process holds it), or
     *                     the properties whose values differ from those the store was opened with here
     */
    static synchronized Shared acquire(BindingConfig.Embedded config) throws DBException {
        Path dir;
        try {
            Files.createDirectories(config.dir());
            dir = config.dir().toRealPath();
        } catch (IOException e) {
            throw new DBException(BindingConfig.DIR + ": cannot create or resolve " + config.dir() + ": " + e, e);
        }
        Shared s = OPEN.get(dir);
        if (s != null) {
            if (!s.settings.equals(config.settings())) {
                throw new DBException(BindingConfig.DIR + ": the store in " + dir + " is open in this process with "
                        + s.settings + "; this DB instance asks for " + config.settings()
                        + " (every client thread must use the same settings)");
            }
            s.refs++;
            return s;
        }
        LsmStore store;
        try {
            store = LsmStore.open(dir, config.options());
        } catch (IOException | RuntimeException e) {
            throw new DBException(BindingConfig.DIR + ": cannot open the store in " + dir + ": " + e.getMessage(), e);
        }
        s = new Shared(dir, store, config.settings(), config.metricsFile(), config.traceFile());
        s.refs = 1;
        OPEN.put(dir, s);
        BindingRuntime.atExit(SharedStores::closeAll);
        return s;
    }

    /**
     * Drops one reference; the last one writes the metrics file (if asked for, after a flush and the merges it
     * triggers) and closes the store.
     *
     * @throws DBException if the metrics cannot be written or the store fails to close
     */
    static synchronized void release(Shared s) throws DBException {
        if (s.refs <= 0) {
            throw new IllegalStateException("the store in " + s.dir + " was released more often than acquired");
        }
        if (--s.refs > 0) {
            return;
        }
        OPEN.remove(s.dir);
        try {
            try {
                if (s.metricsFile != null) {
                    writeMetrics(s);
                }
                if (s.traceFile != null) {
                    writeTrace(s);
                }
            } finally {
                s.store.close();
            }
        } catch (IOException | RuntimeException e) {
            throw new DBException("closing the store in " + s.dir + ": " + e, e);
        }
    }

    private static void writeMetrics(Shared s) throws IOException {
        s.store.flush();
        s.store.awaitMerges();
        ObjectNode out = JSON.createObjectNode();
        out.put("dir", s.dir.toString());
        out.put("settings", s.settings);
        out.set("metrics", JSON.readTree(s.store.metrics().toJson()));
        Path parent = s.metricsFile.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(s.metricsFile.toFile(), out);
    }

    private static void writeTrace(Shared s) throws IOException {
        s.store.flush();
        s.store.awaitMerges();
        List<TraceFile.Row> rows = new ArrayList<>(s.trace);
        rows.add(row(TraceFile.Event.END, s.store.sample()));
        TraceFile.write(s.traceFile, rows);
    }

    private static TraceFile.Row row(TraceFile.Event event, io.lsmpolicies.lsm.FlushSample f) {
        return new TraceFile.Row(event, f.flushes(), f.flushedBytes(), f.writtenBytes(), f.components(),
                f.peakDiskBytes());
    }

    /** How many DB instances hold the store in {@code dir} (0: not open in this process). */
    static synchronized int references(Path dir) {
        try {
            Shared s = OPEN.get(dir.toRealPath());
            return s == null ? 0 : s.refs;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Closes every store still open (at exit: a client thread that died never released its store). */
    static synchronized void closeAll() {
        List<Shared> left = new ArrayList<>(OPEN.values());
        OPEN.clear();
        for (Shared s : left) {
            try {
                s.store.close();
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "closing the store in " + s.dir + " at exit", e);
            }
        }
    }
}
