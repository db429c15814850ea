package io.lsmpolicies.ycsb.rocksdb;

import io.lsmpolicies.ycsb.common.SharedResources;
import java.nio.file.Path;
import site.ycsb.DBException;

/**
 * The RocksDB databases open in this process, shared by the DB instances ({@link SharedResources}): the first
 * {@link #acquire} opens the database, the last {@link #release} flushes the MemTable, writes the trace (if asked
 * for, after the compactions settle) and closes it.
 */
final class SharedRocksDbs {
    private static final SharedResources<OpenRocksDb> OPEN = new SharedResources<>(RocksDbConfig.DIR,
            "RocksDB database", OpenRocksDb::close);

    private SharedRocksDbs() {
    }

    /**
     * The database in {@code config.dir()}, opened with {@code config}'s settings if this process does not hold it
     * yet.
     *
     * @throws DBException naming {@code rocksdb.dir} if the database cannot be opened (e.g. another process holds
     *                     it), or if it is open here with other settings
     */
    static SharedResources.Handle<OpenRocksDb> acquire(RocksDbConfig config) throws DBException {
        String settings = config.settings() + (config.traceFile() == null ? "" : ", " + RocksDbConfig.TRACE_FILE + "="
                + config.traceFile());
        return OPEN.acquire(config.dir(), settings, dir -> OpenRocksDb.open(dir, config));
    }

    /**
     * Drops one reference; the last one finishes the database (final flush, trace) and closes it.
     *
     * @throws DBException if the flush fails or the trace cannot be written (the database is closed all the same)
     */
    static void release(SharedResources.Handle<OpenRocksDb> h) throws DBException {
        OPEN.release(h, OpenRocksDb::finish);
    }

    /** How many DB instances hold the database in {@code dir} (0: not open in this process). */
    static int references(Path dir) {
        return OPEN.references(dir);
    }
}
