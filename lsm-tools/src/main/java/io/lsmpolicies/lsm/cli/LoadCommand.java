package io.lsmpolicies.lsm.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.MergeOrder;
import io.lsmpolicies.lsm.StoreMetrics;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.cli.OperationSource.Operation;
import io.lsmpolicies.lsm.cli.YcsbKeys.KeyOrder;
import io.lsmpolicies.lsm.io.DeviceProfile;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm load}: writes YCSB-style records (see {@link YcsbKeys}) with reproducible values (see
 * {@link RecordValues}) into a store, from one or more threads.
 *
 * <p>Output contract, on stdout, one JSON object per line, each flushed at once:
 * <ul>
 *   <li>with {@code --wal sync}: {@code {"acked": N}} at least once a second while loading and once at the end,
 *       N being a prefix count of returned operations ({@link AckTracker}): operations 0 .. N-1 are durable.
 *       With one thread and no overwrites, operation i inserts record {@code start + i}, so records
 *       {@code start .. start+N-1} are durable. Crash tests kill the process and rely on exactly this;</li>
 *   <li>at the end, a summary: operations, inserts, updates, seconds, records per second, user bytes (key plus
 *       value) and MB/s of them (10^6 bytes), the seconds the final flush and merges took, and the store's
 *       metrics ({@link StoreMetrics#toJson()}) under {@code "metrics"}.</li>
 * </ul>
 * A progress bar goes to stderr, only when a terminal is attached.
 */
@Command(name = "load", sortOptions = false, usageHelpWidth = 110, mixinStandardHelpOptions = true,
        description = "Loads YCSB-style records (keys user<hash> or user<n>, random values) into a store.",
        footer = {"", "Examples:",
                "  lsm load --dir /tmp/db --records 1000000 --value-size 1KB --policy binomial --param k=6 --wal async",
                "  lsm load --dir /tmp/db --records 100000 --key-order ordered --update-fraction 0.5 --threads 4"})
final class LoadCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    /** The store's file layer, or null for the one its options describe. */
    private final FileLayer files;

    LoadCommand() {
        this(null);
    }

    /** A load whose store does its I/O through {@code files} (tests: fault injection); null: the default. */
    LoadCommand(FileLayer files) {
        this.files = files;
    }

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Store directory (created if absent).")
    private Path dir;

    @Option(names = "--records", required = true, paramLabel = "N",
            description = "Operations to run: inserts of new records plus overwrites (see --update-fraction).")
    private long records;

    @Option(names = "--value-size", paramLabel = "SIZE", defaultValue = "1000", converter = ByteSize.class,
            description = "Bytes per value (default: ${DEFAULT-VALUE}, YCSB's 10 fields of 100 bytes).")
    private long valueSize;

    @Option(names = "--key-order", paramLabel = "ORDER", defaultValue = "hashed",
            description = "hashed: user + FNV-64 hash of the record number (YCSB's default); ordered: user + number.")
    private KeyOrder keyOrder;

    @Option(names = "--update-fraction", paramLabel = "F", defaultValue = "0",
            description = "Share of operations that overwrite a random loaded record instead of inserting (default: "
                    + "${DEFAULT-VALUE}).")
    private double updateFraction;

    @Mixin
    private PolicyOptions policy;

    @Option(names = "--memtable-size", paramLabel = "SIZE", defaultValue = "4MB", converter = ByteSize.class,
            description = "MemTable budget, e.g. 4MB, 512KB (default: ${DEFAULT-VALUE}).")
    private long memtableBytes;

    @Option(names = "--wal", paramLabel = "MODE", defaultValue = "sync",
            description = "Write-ahead log: sync (acknowledged = fsynced), async or off (default: ${DEFAULT-VALUE}).")
    private SyncMode wal;

    @Option(names = "--merge-order", paramLabel = "ORDER", description = "How a full MemTable meets the policy's "
            + "merges: MERGE_MEMTABLE_SMALL (a stack policy's default: merges of up to 16 MemTables take the "
            + "MemTable in), MERGE_MEMTABLE (every merge does) or FLUSH_THEN_MERGE (AsterixDB's order; a leveled "
            + "policy's only one).")
    private MergeOrder mergeOrder;

    @Option(names = "--device", paramLabel = "PROFILE", defaultValue = "none",
            description = "Emulated device throttling all I/O: ssd, hdd or none (default: ${DEFAULT-VALUE}).")
    private String device;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "42",
            description = "Seed of the operations and values (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--threads", paramLabel = "T", defaultValue = "1",
            description = "Writer threads (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--start", paramLabel = "R", defaultValue = "0",
            description = "First record number to insert; records below it count as loaded (default: "
                    + "${DEFAULT-VALUE}). Continues an earlier load.")
    private long start;

    @Override
    public Integer call() throws Exception {
        StoreOptions options = options();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        OperationSource source = new OperationSource(seed, start, records, updateFraction);
        AckTracker tracker = new AckTracker(source, threads);
        ProgressBar bar = System.console() != null ? new ProgressBar(err, records) : null;
        Reporter reporter = new Reporter(out, bar, tracker, wal == SyncMode.SYNC);
        long userBytes;
        long loadNanos;
        long drainNanos;
        StoreMetrics metrics;
        try (LsmStore store = files == null ? LsmStore.open(dir, options) : LsmStore.open(dir, options, files)) {
            store.policySwitch().ifPresent(s -> {
                err.println("lsm load: " + s + " in " + dir + " (recorded: later commands use " + s.to() + ")");
                err.flush();
            });
            long t0 = System.nanoTime();
            reporter.start();
            try {
                userBytes = runWorkers(store, source, tracker);
            } finally {
                reporter.stop();
            }
            long t1 = System.nanoTime();
            store.flush();
            store.awaitMerges();
            long t2 = System.nanoTime();
            loadNanos = t1 - t0;
            drainNanos = t2 - t1;
            metrics = store.metrics();
        }
        out.println(Json.line(summary(source, userBytes, loadNanos, drainNanos, metrics, options.policy())));
        out.flush();
        return 0;
    }

    /** The store options the flags describe. @throws ParameterException naming the bad flag */
    private StoreOptions options() {
        if (records < 0) {
            throw new ParameterException(spec.commandLine(), "--records must be >= 0, was " + records);
        }
        if (!(updateFraction >= 0 && updateFraction <= 1)) {
            throw new ParameterException(spec.commandLine(), "--update-fraction must be in [0, 1], was "
                    + updateFraction);
        }
        if (threads < 1 || threads > 1024) {
            throw new ParameterException(spec.commandLine(), "--threads must be in [1, 1024], was " + threads);
        }
        if (start < 0) {
            throw new ParameterException(spec.commandLine(), "--start must be >= 0, was " + start);
        }
        MergePolicy mergePolicy = policy.resolve(spec.commandLine(), PolicyOptions.storeDefault(dir));
        StoreOptions options;
        try {
            options = StoreOptions.builder().memtableBytes(memtableBytes).walMode(wal).policy(mergePolicy)
                    .mergeOrder(mergeOrder).device(DeviceProfile.named(device)).build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (valueSize > options.maxValueBytes()) {
            throw new ParameterException(spec.commandLine(), "--value-size " + valueSize + " exceeds the store's "
                    + "limit of " + options.maxValueBytes() + " bytes (a key and its value must fit one page)");
        }
        return options;
    }

    /** Runs the operations on {@code threads} workers; returns the user bytes written. */
    private long runWorkers(LsmStore store, OperationSource source, AckTracker tracker) throws IOException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[] bytes = new long[threads];
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            int worker = w;
            Thread t = new Thread(() -> {
                try {
                    bytes[worker] = work(store, source, tracker, worker, failure);
                    tracker.done(worker);
                } catch (Throwable e) {
                    // The operation that threw never returned: the worker's slot stays on it, so no later
                    // acknowledgement counts it (nor anything after it).
                    failure.compareAndSet(null, e);
                }
            }, "lsm-load-" + w);
            workers.add(t);
            t.start();
        }
        for (Thread t : workers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure.compareAndSet(null, e);
            }
        }
        Throwable e = failure.get();
        if (e instanceof IOException io) {
            throw io;
        }
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e != null) {
            throw new IOException("load failed: " + e, e);
        }
        long total = 0;
        for (long b : bytes) {
            total += b;
        }
        return total;
    }

    private long work(LsmStore store, OperationSource source, AckTracker tracker, int worker,
            AtomicReference<Throwable> failure) throws IOException {
        long bytes = 0;
        int size = (int) valueSize;
        while (failure.get() == null) {
            tracker.idle(worker);
            Operation op = source.next();
            if (op == null) {
                break;
            }
            tracker.started(worker, op.index());
            byte[] key = YcsbKeys.key(op.record(), keyOrder);
            store.put(key, RecordValues.value(seed, op.record(), op.version(), size));
            bytes += key.length + size;
        }
        return bytes;
    }

    private ObjectNode summary(OperationSource source, long userBytes, long nanos, long drainNanos,
            StoreMetrics metrics, MergePolicy mergePolicy) {
        double seconds = nanos / 1e9;
        long inserted = source.inserted();
        ObjectNode s = Json.object();
        s.put("records", source.issued());
        s.put("inserts", inserted);
        s.put("updates", source.issued() - inserted);
        s.put("seconds", seconds);
        s.put("recordsPerSecond", seconds > 0 ? source.issued() / seconds : 0.0);
        s.put("userBytes", userBytes);
        s.put("megabytesPerSecond", seconds > 0 ? userBytes / 1e6 / seconds : 0.0);
        s.put("drainSeconds", drainNanos / 1e9);
        s.put("threads", threads);
        s.put("wal", wal.name().toLowerCase(java.util.Locale.ROOT));
        ObjectNode p = s.putObject("policy");
        p.put("name", mergePolicy.name());
        mergePolicy.parameters().values().forEach((k, v) -> p.put(k, v.toString()));
        s.set("metrics", Json.metrics(metrics));
        return s;
    }

    /**
     * Prints {@code {"acked": N}} (when the log is synced) and redraws the progress bar, every 250 ms, from one
     * daemon thread; a final line when stopped.
     */
    private static final class Reporter {
        private static final long PERIOD_MILLIS = 250;

        private final PrintWriter out;
        private final ProgressBar bar;
        private final AckTracker tracker;
        private final boolean printAcks;
        private final Thread thread;
        private volatile boolean stopped;

        Reporter(PrintWriter out, ProgressBar bar, AckTracker tracker, boolean printAcks) {
            this.out = out;
            this.bar = bar;
            this.tracker = tracker;
            this.printAcks = printAcks;
            this.thread = new Thread(this::loop, "lsm-load-reporter");
            this.thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        private void loop() {
            while (!stopped) {
                try {
                    TimeUnit.MILLISECONDS.sleep(PERIOD_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                report();
            }
        }

        private void report() {
            long acked = tracker.acked();
            if (printAcks) {
                synchronized (out) {
                    out.println("{\"acked\": " + acked + "}");
                    out.flush();
                }
            }
            if (bar != null) {
                bar.show(acked);
            }
        }

        /** Stops the thread, then reports the final count once. */
        void stop() {
            stopped = true;
            thread.interrupt();
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            long acked = tracker.acked();
            if (printAcks) {
                synchronized (out) {
                    out.println("{\"acked\": " + acked + "}");
                    out.flush();
                }
            }
            if (bar != null) {
                bar.finish(acked);
            }
        }
    }
}
