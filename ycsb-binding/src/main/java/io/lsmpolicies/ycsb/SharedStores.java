package io.lsmpolicies.ycsb;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lsmpolicies.lsm.FlushSample;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.ycsb.common.SharedResources;
import io.lsmpolicies.ycsb.common.TraceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import site.ycsb.DBException;

/**
 * Our stores open in this process, shared by the embedded DB instances ({@link SharedResources}): the first
 * {@link #acquire} opens the store, the last {@link #release} writes the metrics and trace files asked for (after
 * a flush and the merges it triggers) and closes the store.
 */
final class SharedStores {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SharedResources<Open> OPEN = new SharedResources<>(BindingConfig.DIR, "store",
            o -> o.store.close());

    /**
     * One open store and what its last release writes.
     *
     * @param store       the store
     * @param settings    the options as text
     * @param metricsFile where the metrics go, or null
     * @param traceFile   where the per-flush trace goes, or null
     * @param trace       the flush rows of the trace so far (filled only when a trace file is asked for)
     */
    record Open(LsmStore store, String settings, Path metricsFile, Path traceFile, List<TraceFile.Row> trace) {
        static Open of(LsmStore store, BindingConfig.Embedded config) {
            store.policySwitch().ifPresent(s -> System.err.println("lsm binding: " + s + " in " + config.dir()
                    + " (recorded: later runs without " + BindingConfig.POLICY + " use " + s.to() + ")"));
            Open o = new Open(store, config.settings(), config.metricsFile(), config.traceFile(),
                    Collections.synchronizedList(new ArrayList<>()));
            if (o.traceFile != null) {
                store.onFlush(sample -> o.trace.add(row(TraceFile.Event.FLUSH, sample)));
            }
            return o;
        }
    }

    private SharedStores() {
    }

    /**
     * The store of {@code config.dir()}, opened with {@code config.options()} if this process does not hold it yet.
     *
     * @throws DBException naming {@code lsm.dir} if the store cannot be opened (e.g. another process holds it), or the
     *                     properties whose values differ from those the store was opened with here
     */
    static SharedResources.Handle<Open> acquire(BindingConfig.Embedded config) throws DBException {
        return OPEN.acquire(config.dir(), config.settings(),
                dir -> Open.of(LsmStore.open(dir, config.options()), config));
    }

    /**
     * Drops one reference; the last one writes the metrics and trace files (if asked for) and closes the store.
     *
     * @throws DBException if a file cannot be written or the store fails to close
     */
    static void release(SharedResources.Handle<Open> h) throws DBException {
        OPEN.release(h, o -> {
            if (o.metricsFile != null) {
                writeMetrics(h.dir(), o);
            }
            if (o.traceFile != null) {
                writeTrace(o);
            }
        });
    }

    /** How many DB instances hold the store in {@code dir} (0: not open in this process). */
    static int references(Path dir) {
        return OPEN.references(dir);
    }

    private static void writeMetrics(Path dir, Open o) throws IOException {
        o.store.flush();
        o.store.awaitMerges();
        ObjectNode out = JSON.createObjectNode();
        out.put("dir", dir.toString());
        out.put("settings", o.settings);
        out.set("metrics", JSON.readTree(o.store.metrics().toJson()));
        Path parent = o.metricsFile.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(o.metricsFile.toFile(), out);
    }

    private static void writeTrace(Open o) throws IOException {
        o.store.flush();
        o.store.awaitMerges();
        List<TraceFile.Row> rows = new ArrayList<>(o.trace);
        rows.add(row(TraceFile.Event.END, o.store.sample()));
        TraceFile.write(o.traceFile, rows);
    }

    private static TraceFile.Row row(TraceFile.Event event, FlushSample f) {
        return new TraceFile.Row(event, f.flushes(), f.flushedBytes(), f.writtenBytes(), f.components(),
                f.peakDiskBytes());
    }
}
