package io.lsmpolicies.ycsb.hyracks;

import io.lsmpolicies.ycsb.common.SharedResources;
import io.lsmpolicies.ycsb.common.TraceFile;
import java.nio.file.Path;
import java.util.Locale;
import site.ycsb.DBException;

/**
 * The indexes open in this process, shared by the DB instances ({@link SharedResources}): the first
 * {@link #acquire} opens the index, the last {@link #release} settles it, writes the trace (if asked for) and
 * closes it.
 */
final class SharedTrees {
    private static final System.Logger LOG = System.getLogger(SharedTrees.class.getName());
    private static final SharedResources<Open> OPEN = new SharedResources<>(HyracksConfig.DIR, "index",
            o -> o.tree().close());

    /**
     * One open index.
     *
     * @param tree      the index
     * @param traceFile where the last release writes the trace, or null
     */
    record Open(HyracksTree tree, Path traceFile) {
    }

    private SharedTrees() {
    }

    /**
     * The index of {@code config.dir()}, opened if this process does not hold it yet.
     *
     * @throws DBException naming {@code hyracks.dir} if the index cannot be opened (e.g. another process holds it),
     *                     or the settings that differ from those it was opened with here
     */
    static SharedResources.Handle<Open> acquire(HyracksConfig config) throws DBException {
        return OPEN.acquire(config.dir(), config.settings(),
                dir -> new Open(HyracksTree.open(config), config.traceFile()));
    }

    /**
     * Drops one reference; the last one settles the index (a final flush, then every merge the policy schedules),
     * writes the trace file if one was asked for, logs a summary line (flushes, merges, bytes) on stderr, and closes
     * it.
     *
     * @throws DBException if the final flush, the trace or the close fails
     */
    static void release(SharedResources.Handle<Open> h) throws DBException {
        OPEN.release(h, o -> {
            o.tree().settle();
            FlushTrace trace = o.tree().trace();
            TraceFile.Row end = trace.end(o.tree().diskComponents());
            if (o.traceFile() != null) {
                trace.write(o.traceFile(), end);
            }
            LOG.log(System.Logger.Level.INFO, () -> String.format(Locale.ROOT, "ycsb-hyracks: %s (%s): %d flushes, "
                    + "%d merges, %d bytes flushed, %d written (write amplification %.3f), %d disk components, "
                    + "%d bytes on disk at most, %d ms waited for the emulated device", h.dir(), h.settings(),
                    end.flushes(), trace.merges(), end.flushedBytes(), end.writtenBytes(),
                    end.flushedBytes() == 0 ? 1.0 : (double) end.writtenBytes() / end.flushedBytes(),
                    end.components(), end.diskBytes(), o.tree().throttledNanos() / 1_000_000));
        });
    }

    /** How many DB instances hold the index in {@code dir} (0: not open in this process). */
    static int references(Path dir) {
        return OPEN.references(dir);
    }
}
