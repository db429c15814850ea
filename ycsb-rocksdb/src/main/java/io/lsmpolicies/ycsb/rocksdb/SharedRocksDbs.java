package io.lsmpolicies.ycsb.rocksdb;

import io.lsmpolicies.ycsb.KeyLocks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.RocksDBException;
import site.ycsb.DBException;

/**
 * The RocksDB databases open in this process, one per directory, shared by the DB instances YCSB creates (one per
 * client thread) and reference-counted: the first {@link #acquire} opens the database, the last {@link #release}
 * flushes its MemTable, writes the flush trace if asked for, and closes it. A directory can be opened only once
 * (RocksDB's LOCK file), so this is what lets several client threads use one database. Thread-safe: every method
 * holds the class lock, also while a database opens or closes, so an {@code acquire} racing the last
 * {@code release} waits and reopens.
 */
final class SharedRocksDbs {
    private static final System.Logger LOG = System.getLogger(SharedRocksDbs.class.getName());
    private static final Map<Path, Shared> OPEN = new HashMap<>();

    /** One open database and the number of DB instances holding it. */
    static final class Shared {
        final Path dir;
        final OpenRocksDb rocks;
        final String settings;
        /** Serialises the writes of a key, so an update's read-modify-write is atomic in this process. */
        final KeyLocks locks = new KeyLocks();
        private int refs;

        private Shared(Path dir, OpenRocksDb rocks, String settings) {
            this.dir = dir;
            this.rocks = rocks;
            this.settings = settings;
        }
    }

    private SharedRocksDbs() {
    }

    /**
     * The database in {@code config.dir()}, opened with {@code config}'s settings if this process does not hold it
     * yet.
     *
     * @throws DBException naming {@code rocksdb.dir} if the database cannot be opened (e.g. another process holds
     *                     it), or if it is open here with other settings
     */
    static synchronized Shared acquire(RocksDbConfig config) throws DBException {
        Path dir;
        try {
            Files.createDirectories(config.dir());
            dir = config.dir().toRealPath();
        } catch (IOException e) {
            throw new DBException(RocksDbConfig.DIR + ": cannot create or resolve " + config.dir() + ": " + e, e);
        }
        Shared s = OPEN.get(dir);
        if (s != null) {
            if (!s.settings.equals(settingsWithTrace(config))) {
                throw new DBException(RocksDbConfig.DIR + ": the database in " + dir + " is open in this process with "
                        + s.settings + "; this DB instance asks for " + settingsWithTrace(config)
                        + " (every client thread must use the same settings)");
            }
            s.refs++;
            return s;
        }
        OpenRocksDb rocks;
        try {
            rocks = OpenRocksDb.open(dir, config);
        } catch (RocksDBException | RuntimeException e) {
            throw new DBException(RocksDbConfig.DIR + ": cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
        }
        s = new Shared(dir, rocks, settingsWithTrace(config));
        s.refs = 1;
        OPEN.put(dir, s);
        io.lsmpolicies.ycsb.BindingRuntime.atExit(SharedRocksDbs::closeAll);
        return s;
    }

    private static String settingsWithTrace(RocksDbConfig config) {
        return config.settings() + (config.traceFile() == null ? "" : ", " + RocksDbConfig.TRACE_FILE + "="
                + config.traceFile());
    }

    /**
     * Drops one reference; the last one flushes the MemTable, writes the trace (if asked for, after the
     * compactions settle) and closes the database.
     *
     * @throws DBException if the flush fails or the trace cannot be written (the database is closed all the same)
     */
    static synchronized void release(Shared s) throws DBException {
        if (s.refs <= 0) {
            throw new IllegalStateException("the database in " + s.dir + " was released more often than acquired");
        }
        if (--s.refs > 0) {
            return;
        }
        OPEN.remove(s.dir);
        try {
            s.rocks.finish();
        } catch (IOException | RuntimeException e) {
            throw new DBException("finishing RocksDB in " + s.dir + ": " + e.getMessage(), e);
        } finally {
            s.rocks.close();
        }
    }

    /** How many DB instances hold the database in {@code dir} (0: not open in this process). */
    static synchronized int references(Path dir) {
        try {
            Shared s = OPEN.get(dir.toRealPath());
            return s == null ? 0 : s.refs;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Closes every database still open (at exit: a client thread that died never released its share). */
    static synchronized void closeAll() {
        List<Shared> left = new ArrayList<>(OPEN.values());
        OPEN.clear();
        for (Shared s : left) {
            try {
                s.rocks.close();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "closing RocksDB in " + s.dir + " at exit", e);
            }
        }
    }
}
