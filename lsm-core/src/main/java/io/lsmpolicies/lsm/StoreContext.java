package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What every part of one open store shares: its directory, settings and policy, its file layer and manifest, the
 * mutex, the run state, the counters, the table set, the table builder and the live snapshots. Immutable; the
 * parts it names are thread-safe or guarded by the mutex.
 */
record StoreContext(Path dir, StoreOptions options, MergePolicy policy, FileLayer files, Manifest manifest,
        StoreMutex mutex, RunState run, StoreStatistics stats, TableSet tables, TableBuilder builder,
        Snapshots snapshots, StoreEvents events) {

    /** Makes the directory's entries (new or deleted files) durable. */
    void syncDirectory() throws IOException {
        files.syncDirectory(dir);
    }
}
