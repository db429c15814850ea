package io.lsmpolicies.feeds.server;

import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.Feed;
import io.lsmpolicies.feeds.Partition;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.io.DirectoryLock;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node controller: from a {@link NodeDescriptor} it opens one {@link LsmStore} per dataset per iodevice
 * (directory {@code <iodevice>/<dataset>}), hash-partitions each dataset's records over them by primary key
 * ({@link Dataset#partitionOf}), starts the feeds, and serves the HTTP API ({@link HttpApi}).
 *
 * <p>One partition never stops the others. A store that cannot be opened at start for an I/O reason (a full or
 * failing device, damaged or missing files, its directory locked by another process: any {@link IOException},
 * {@link java.io.UncheckedIOException} included) leaves its partition {@link Partition.State#DOWN}: the error is
 * logged, the server starts and serves every other partition, and the partition's operations fail with
 * {@link io.lsmpolicies.feeds.PartitionUnavailableException} (HTTP 503). Configuration mistakes still stop the
 * start ({@link ConfigException}): a partition count that differs from the one recorded beside the store, or a
 * merge policy switch the partition's tree cannot take. A partition that is not open (failed at start, or its
 * store stopped taking writes at runtime) is reopened by a {@link PartitionReopener} with the descriptor's
 * {@link ReopenPolicy}, or on request ({@code POST /datasets/{name}/partitions/{i}/reopen}).
 *
 * <p>{@link #close()} shuts down in dependency order: feeds first (stop accepting, drain every queued record
 * into the stores), then the HTTP API, then the stores (each flushes its MemTable). A partition count is
 * recorded beside each store ({@code <iodevice>/<dataset>.partition}); reopening with other iodevices is refused,
 * since records were placed by the old count.
 */
public final class NodeServer implements Closeable {
    private static final System.Logger LOG = System.getLogger(NodeServer.class.getName());

    /**
     * How the node opens each store: {@link LsmStore#open(Path, StoreOptions)}. The seam lets tests open a store on
     * a fault-injecting file layer ({@code LsmStore.open(dir, options, FileLayer.withFaults(hook))}).
     */
    @FunctionalInterface
    interface StoreOpener {
        LsmStore open(Path dir, StoreOptions options) throws IOException;

        /** A store for reads only, when {@link #open} fails ({@link LsmStore#openReadOnly(Path, StoreOptions)}). */
        default LsmStore openReadOnly(Path dir, StoreOptions options) throws IOException {
            return LsmStore.openReadOnly(dir, options);
        }
    }

    private final NodeDescriptor descriptor;
    private final StoreOpener opener;
    private final Map<String, Dataset> datasets = new LinkedHashMap<>();
    private final Map<String, Feed> feeds = new LinkedHashMap<>();
    private final Map<String, List<InetSocketAddress>> feedAddresses = new LinkedHashMap<>();
    private final List<Partition> partitions = new ArrayList<>();
    private PartitionReopener reopener;
    private HttpServer http;
    private boolean closed;

    private NodeServer(NodeDescriptor descriptor, StoreOpener opener) {
        this.descriptor = descriptor;
        this.opener = opener;
    }

    /**
     * Opens the stores, starts the feeds and the HTTP API. On failure, everything already opened is closed.
     *
     * @throws ConfigException if a port is in use, the partitions do not match the stores on disk, or a merge
     *                         policy switch is one a partition's tree cannot take, naming the descriptor line
     * @throws IOException     if a partition's marker cannot be read (a store that cannot be opened only leaves
     *                         its partition down: see the class comment)
     */
    public static NodeServer start(NodeDescriptor descriptor) throws IOException, ConfigException {
        return start(descriptor, LsmStore::open);
    }

    /** As {@link #start(NodeDescriptor)}, opening each store with {@code opener} (tests: fault injection). */
    static NodeServer start(NodeDescriptor descriptor, StoreOpener opener) throws IOException, ConfigException {
        checkAddressesFree(descriptor); // before anything is created on disk
        NodeServer s = new NodeServer(descriptor, opener);
        try {
            s.createIodevices();
            s.openStores();
            if (descriptor.reopen().automatic()) {
                s.reopener = PartitionReopener.start(s.partitions, descriptor.reopen());
            }
            s.startFeeds();
            s.startHttp();
        } catch (IOException | ConfigException | RuntimeException e) {
            s.close();
            throw e;
        }
        LOG.log(System.Logger.Level.INFO, "node {0} up: HTTP on {1}, feeds {2}", descriptor.nodeId(),
                s.httpAddress(), s.feedAddresses);
        return s;
    }

    /**
     * Refuses a descriptor whose HTTP port or feed addresses another process listens on, before the node creates
     * anything: each fixed address is bound and released (port 0, "any free port", is not checked).
     *
     * @throws ConfigException naming the line of the address and who holds it
     */
    static void checkAddressesFree(NodeDescriptor d) throws ConfigException {
        checkFree(d, d.http(), d.httpLine(), "port");
        for (FeedSpec f : d.feeds()) {
            for (InetSocketAddress a : f.addresses()) {
                checkFree(d, a, f.addressesLine(), "addresses");
            }
        }
    }

    private static void checkFree(NodeDescriptor d, InetSocketAddress a, int line, String key)
            throws ConfigException {
        if (a.getPort() == 0) {
            return;
        }
        try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(a);
        } catch (IOException e) {
            throw new ConfigException(d.file(), line, key, "cannot listen on " + a + " (" + e.getMessage()
                    + "): another process listens there, perhaps another server with this descriptor", e);
        }
    }

    /** Creates the iodevice directories the descriptor allowed to create (after every check passed). */
    private void createIodevices() throws ConfigException {
        for (Path dir : descriptor.iodevicesToCreate()) {
            try {
                Files.createDirectories(dir);
            } catch (IOException | RuntimeException e) {
                throw new ConfigException(descriptor.file(), descriptor.iodevicesLine(), "iodevices", "directory "
                        + dir + " cannot be created: " + e, e);
            }
        }
    }

    private void openStores() throws IOException, ConfigException {
        int n = descriptor.iodevices().size();
        for (DatasetSpec d : descriptor.datasets()) {
            List<Partition> parts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Path device = descriptor.iodevices().get(i);
                Path marker = device.resolve(d.name() + ".partition");
                Path dir = device.resolve(d.name());
                int index = i;
                Partition.Opener reopen = () -> {
                    try {
                        checkPartition(marker, index, n);
                    } catch (ConfigException e) {
                        throw new IOException(e.getMessage(), e);
                    }
                    return opener.open(dir, options(d, dir, n));
                };
                Partition.Opener readOnly = () -> opener.openReadOnly(dir, options(d, dir, n));
                LsmStore store = null;
                Throwable failure = null;
                try {
                    checkPartition(marker, i, n);
                    store = opener.open(dir, options(d, dir, n));
                } catch (DirectoryLock.LockedException e) {
                    throw new ConfigException(descriptor.file(), descriptor.iodevicesLine(), "iodevices", "dataset "
                            + d.name() + ", partition " + i + ": " + dir + " is in use (its " + LsmStore.LOCK_FILE
                            + " file is locked): another server, or a tool such as bin/lsm, has it open", e);
                } catch (IllegalArgumentException e) { // a policy switch the partition's tree cannot take
                    throw new ConfigException(descriptor.file(), d.line(), "merge-policy", "dataset " + d.name()
                            + ", partition " + i + ": " + e.getMessage(), e);
                } catch (IOException | java.io.UncheckedIOException e) {
                    Partition.Opened o = Partition.open(() -> {
                        throw e;
                    }, readOnly);
                    store = o.store();
                    failure = o.failure();
                }
                Partition p = Partition.reopenable(d.name(), i, n, dir, store, failure, reopen, readOnly,
                        recovery(d.name(), i));
                if (failure != null) {
                    LOG.log(System.Logger.Level.ERROR, "{0} cannot be opened for writing{1}; the node serves the other"
                            + " partitions and {2}: {3}", p.name(), store != null ? " (it answers reads, opened"
                            + " read-only)" : "", recovery(d.name(), i), Partition.causes(failure));
                } else {
                    store.policySwitch().ifPresent(sw -> LOG.log(System.Logger.Level.WARNING,
                            "dataset {0}, partition {1} ({2}): {3} (recorded)", d.name(), index, dir, sw));
                }
                partitions.add(p);
                parts.add(p);
            }
            datasets.put(d.name(), new Dataset(d.name(), parts, d.primaryKey()));
        }
    }

    private StoreOptions options(DatasetSpec d, Path dir, int n) throws IOException {
        return descriptor.storage().storeOptions(descriptor.datasets().size(), n, d.policyFor(dir), d.mergeOrder());
    }

    /** How a failed partition comes back, for messages. */
    private String recovery(String dataset, int index) {
        ReopenPolicy r = descriptor.reopen();
        String request = "POST /datasets/" + dataset + "/partitions/" + index + "/reopen";
        return r.automatic() ? "the node retries every " + r.delay().toMillis() + " ms to " + r.maxDelay().toMillis()
                + " ms, or on " + request : "reopen it with " + request + ", or restart the node";
    }

    private void checkPartition(Path marker, int index, int count) throws IOException, ConfigException {
        String expected = "partition " + index + " of " + count + "\n";
        if (Files.exists(marker)) {
            String found = Files.readString(marker, StandardCharsets.UTF_8);
            if (!found.equals(expected)) {
                throw new ConfigException(descriptor.file(), 0, "iodevices", marker + " says '" + found.strip()
                        + "' but the descriptor makes it " + expected.strip()
                        + "; records were placed by the old partitioning");
            }
        } else {
            Files.writeString(marker, expected, StandardCharsets.UTF_8);
        }
    }

    private void startFeeds() throws ConfigException {
        for (FeedSpec f : descriptor.feeds()) {
            Feed feed = Feed.create(f.config(datasets.get(f.dataset())));
            feeds.put(f.name(), feed);
            try {
                feedAddresses.put(f.name(), feed.start(f.addresses()));
            } catch (IOException e) {
                throw new ConfigException(descriptor.file(), f.addressesLine(), "addresses", e.getMessage(), e);
            }
        }
    }

    private void startHttp() throws ConfigException {
        try {
            http = HttpServer.start(descriptor.httpSettings(), Collections.unmodifiableMap(datasets),
                    Collections.unmodifiableMap(feeds));
        } catch (Exception e) { // sync() rethrows the bind failure unchecked
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new ConfigException(descriptor.file(), descriptor.httpLine(), "port", "cannot listen on "
                    + descriptor.http() + ": " + e, e);
        }
        if (!descriptor.http().getAddress().isLoopbackAddress() && descriptor.httpSettings().token() == null) {
            LOG.log(System.Logger.Level.WARNING, "HTTP on {0}, not a loopback address, without a token: DELETE and"
                    + " POST are refused (set [http] token or token-file)", descriptor.http());
        }
    }

    public NodeDescriptor descriptor() {
        return descriptor;
    }

    /** Where the HTTP API listens (the bound port, if the descriptor said 0). */
    public InetSocketAddress httpAddress() {
        return http == null ? null : http.address();
    }

    /** The HTTP API's connections: open, refused, timed out, and the response bytes held for clients. */
    public HttpStats httpStats() {
        return http.stats();
    }

    /** Where feed {@code name} listens, in the descriptor's order (bound ports). */
    public List<InetSocketAddress> feedAddresses(String name) {
        return feedAddresses.getOrDefault(name, List.of());
    }

    public Dataset dataset(String name) {
        return datasets.get(name);
    }

    public Feed feed(String name) {
        return feeds.get(name);
    }

    /** Stops the feeds (draining them), the HTTP API and the reopener, then closes the stores. Idempotent. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        for (Feed f : feeds.values()) {
            try {
                f.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (http != null) {
            http.close(); // requests under way finish (their stores are still open)
        }
        if (reopener != null) {
            reopener.close();
        }
        IOException first = null;
        for (Partition p : partitions) {
            try {
                p.close();
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "closing " + p.name(), e);
                if (first == null) {
                    first = e instanceof IOException ioe ? ioe : new IOException(e);
                }
            }
        }
        LOG.log(System.Logger.Level.INFO, "node {0} stopped", descriptor.nodeId());
        if (first != null) {
            throw first;
        }
    }
}
