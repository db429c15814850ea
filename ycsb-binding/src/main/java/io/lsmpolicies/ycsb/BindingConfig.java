package io.lsmpolicies.ycsb;

import static io.lsmpolicies.ycsb.common.PropertyValues.longValue;
import static io.lsmpolicies.ycsb.common.PropertyValues.path;
import static io.lsmpolicies.ycsb.common.PropertyValues.size;
import static io.lsmpolicies.ycsb.common.PropertyValues.value;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.MergeOrder;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.io.DeviceProfile;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.ycsb.common.TraceFile;
import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import site.ycsb.DBException;

/**
 * The binding's settings, parsed and validated in one place from YCSB's properties (the workload file plus
 * {@code -p} options). Every {@code lsm.*} property must be known and belong to the chosen mode; a bad value is a
 * {@link DBException} naming the property, the value and what is accepted. Immutable.
 *
 * @param mode     where the store runs
 * @param embedded the embedded mode's settings (null in feed mode)
 * @param feed     the feed mode's settings (null in embedded mode)
 * @param schema   the workload's field names (YCSB's {@code fieldcount} and {@code fieldnameprefix}): an update
 *                 writing all of them replaces the record without reading it
 */
public record BindingConfig(Mode mode, Embedded embedded, Feed feed, Set<String> schema) {

    /**
     * The embedded mode's settings.
     *
     * @param dir         the store directory
     * @param options     the store's options (policy, MemTable budget, WAL mode, device)
     * @param settings    the options as text, to compare the settings of DB instances sharing a store
     * @param metricsFile optional: where the last DB instance to close writes the store's metrics
     * @param traceFile   optional: where the last DB instance to close writes the per-flush {@link TraceFile}
     */
    public record Embedded(Path dir, StoreOptions options, String settings, Path metricsFile, Path traceFile) {
    }

    /**
     * The feed mode's settings.
     *
     * @param address the socket feed's address
     * @param http    the node server's HTTP API
     * @param dataset the dataset the feed writes and the HTTP API reads
     * @param name    the feed's name in the node's descriptor (its statistics tell when a connection's records are
     *                applied)
     * @param acks    whether the feed acknowledges records, so that a write waits for its ack
     * @param timeout the longest wait for a connection, an acknowledgement or an HTTP answer
     * @param token   the node server's HTTP token ({@code [http] token}), sent as {@code Authorization: Bearer}
     *                with every HTTP request; null if none
     */
    public record Feed(InetSocketAddress address, InetSocketAddress http, String dataset, String name, boolean acks,
            Duration timeout, String token) {
        @Override
        public String toString() { // never shows the token
            return "Feed[address=" + address + ", http=" + http + ", dataset=" + dataset + ", name=" + name
                    + ", acks=" + acks + ", timeout=" + timeout + ", token=" + (token == null ? "none" : "hidden")
                    + "]";
        }
    }

    /** Where the store runs. */
    public enum Mode {
        /** The store in the YCSB process ({@link EmbeddedLsmDB}). */
        EMBEDDED,
        /** Writes through a node server's socket feed, reads through its HTTP API ({@link FeedLsmDB}). */
        FEED
    }

    /** The mode, {@code embedded} (default) or {@code feed}. */
    public static final String MODE = "lsm.mode";
    /** The store directory (embedded mode, required). */
    public static final String DIR = "lsm.dir";
    /** The merge policy, {@code NAME} or {@code NAME:param=value,...} (embedded mode). */
    public static final String POLICY = "lsm.policy";
    /** Prefix of one policy parameter each, added to {@link #POLICY}: {@code lsm.policy.k=4}. */
    public static final String POLICY_PARAM_PREFIX = "lsm.policy.";
    /** The MemTable budget, bytes or {@code KB}/{@code MB}/{@code GB} (embedded mode). */
    public static final String MEMTABLE_SIZE = "lsm.memtable.size";
    /** The write-ahead log mode, {@code sync}, {@code async} (default) or {@code off} (embedded mode). */
    public static final String WAL = "lsm.wal";
    /** The emulated device, {@code ssd}, {@code hdd} or {@code none} (embedded mode). */
    public static final String DEVICE = "lsm.device";
    /**
     * The merge order, a {@code MergeOrder} name (embedded mode); default the store's: {@code MERGE_MEMTABLE_SMALL}
     * for a stack policy, {@code FLUSH_THEN_MERGE} for a leveled one.
     */
    public static final String MERGE_ORDER = "lsm.mergeorder";
    /** Where the last DB instance to close writes the store's metrics as JSON (embedded mode). */
    public static final String METRICS_FILE = "lsm.metrics.file";
    /** The socket feed's {@code host:port} (feed mode). */
    public static final String FEED_ADDRESS = "lsm.feed.address";
    /** The node server's HTTP API, {@code host:port} (feed mode). */
    public static final String HTTP_ADDRESS = "lsm.http.address";
    /** The dataset the feed writes and the API reads (feed mode; default YCSB's table). */
    public static final String DATASET = "lsm.dataset";
    /** The {@code [feed/NAME]} listening on {@link #FEED_ADDRESS} (feed mode). */
    public static final String FEED_NAME = "lsm.feed.name";
    /** Whether to wait for the feed's acknowledgement of each write (feed mode). */
    public static final String ACKS = "lsm.feed.acks";
    /** The longest wait for a connection, an acknowledgement or an HTTP answer, in ms (feed mode). */
    public static final String TIMEOUT = "lsm.timeout.ms";
    /** The node server's HTTP token, sent as a bearer token with every request (feed mode). */
    public static final String HTTP_TOKEN = "lsm.http.token";
    /**
     * A Java properties file of {@code lsm.*} settings, as YCSB's RocksDB binding's {@code rocksdb.optionsfile}: all
     * of a run's store settings in one file; a property given in the workload or with {@code -p} wins over the
     * file's.
     */
    public static final String OPTIONS_FILE = "lsm.optionsfile";

    /** The default of {@link #WAL}: what RocksDB's YCSB binding does (its writes are not synced). */
    public static final String DEFAULT_WAL = "async";
    /** The default of {@link #FEED_ADDRESS}. */
    public static final String DEFAULT_FEED_ADDRESS = "127.0.0.1:10001";
    /** The default of {@link #HTTP_ADDRESS}. */
    public static final String DEFAULT_HTTP_ADDRESS = "127.0.0.1:19002";
    /** The feed of conf/lsm-node.conf. */
    public static final String DEFAULT_FEED_NAME = "ycsb";
    /** The default of {@link #TIMEOUT}. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 30_000;

    private static final Set<String> EMBEDDED_KEYS = Set.of(DIR, POLICY, MEMTABLE_SIZE, WAL, DEVICE, MERGE_ORDER,
            METRICS_FILE);
    private static final Set<String> FEED_KEYS = Set.of(FEED_ADDRESS, HTTP_ADDRESS, DATASET, FEED_NAME, ACKS,
            TIMEOUT, HTTP_TOKEN);

    /**
     * The mode {@code lsm.mode} names (default {@code embedded}).
     *
     * @param p YCSB's properties
     * @return the mode
     * @throws DBException naming the property and the accepted values
     */
    public static Mode mode(Properties p) throws DBException {
        String v = p.getProperty(MODE, "embedded").trim();
        return switch (v) {
            case "embedded" -> Mode.EMBEDDED;
            case "feed" -> Mode.FEED;
            default -> throw new DBException(MODE + ": '" + v + "' is not a mode; accepted: embedded, feed");
        };
    }

    /**
     * Parses the settings of mode {@code expected}.
     *
     * @param given    YCSB's properties (the workload file plus {@code -p} options); {@link #OPTIONS_FILE}, if one
     *                 is given, adds the settings it holds that these do not
     * @param expected the mode of the DB class parsing them
     * @return the settings
     * @throws DBException naming the property, if {@code lsm.mode} names another mode, an {@code lsm.*} property
     *                     is unknown or belongs to the other mode, a required one is missing, or a value is bad
     */
    public static BindingConfig parse(Properties given, Mode expected) throws DBException {
        Properties p = withOptionsFile(given);
        Mode mode = mode(p);
        if (mode != expected) {
            throw new DBException(MODE + " is " + mode.name().toLowerCase(Locale.ROOT)
                    + (p.getProperty(MODE) == null ? " (the default)" : "") + " but the DB class runs mode "
                    + expected.name().toLowerCase(Locale.ROOT) + "; use io.lsmpolicies.ycsb.LsmDB to choose by "
                    + MODE);
        }
        checkNames(p, mode);
        Set<String> schema = YcsbRecord.schema(p);
        if (mode == Mode.EMBEDDED) {
            String dirText = required(p, DIR, "the store directory, e.g. -p " + DIR + "=/tmp/ycsb-db");
            Path dir = path(DIR, dirText);
            SyncMode wal = switch (value(p, WAL, DEFAULT_WAL)) {
                case "sync" -> SyncMode.SYNC;
                case "async" -> SyncMode.ASYNC;
                case "off" -> SyncMode.OFF;
                default -> throw new DBException(WAL + ": '" + value(p, WAL, DEFAULT_WAL)
                        + "' is not a WAL mode; accepted: sync, async, off");
            };
            String deviceName = value(p, DEVICE, "none");
            DeviceProfile device;
            try {
                device = DeviceProfile.named(deviceName);
            } catch (IllegalArgumentException e) {
                throw new DBException(DEVICE + ": '" + deviceName + "' is not a device profile; accepted: ssd, hdd, "
                        + "none");
            }
            PolicySpec spec = policySpec(p, recordedPolicy(dir));
            MergePolicy policy;
            try {
                policy = MergePolicies.create(spec);
            } catch (IllegalArgumentException e) {
                throw new DBException(POLICY + " (" + spec + "): " + e.getMessage(), e);
            }
            long memtable = size(p, MEMTABLE_SIZE, StoreOptions.DEFAULT_MEMTABLE_BYTES);
            StoreOptions.Builder builder = StoreOptions.builder().policy(policy).memtableBytes(memtable)
                    .walMode(wal).device(device);
            try {
                builder.build();
            } catch (IllegalArgumentException e) {
                throw new DBException(MEMTABLE_SIZE + " = " + memtable + ": " + e.getMessage(), e);
            }
            MergeOrder order = mergeOrder(p);
            StoreOptions options;
            try {
                options = builder.mergeOrder(order).build();
            } catch (IllegalArgumentException e) {
                throw new DBException(MERGE_ORDER + " = " + order + ": " + e.getMessage(), e);
            }
            String settings = POLICY + "=" + spec + ", " + MEMTABLE_SIZE + "=" + memtable + ", " + WAL + "="
                    + wal.name().toLowerCase(Locale.ROOT) + ", " + DEVICE + "=" + deviceName + ", " + MERGE_ORDER
                    + "=" + options.mergeOrder();
            String metrics = p.getProperty(METRICS_FILE);
            String trace = p.getProperty(TraceFile.PROPERTY);
            return new BindingConfig(mode, new Embedded(dir, options, settings,
                    metrics == null ? null : path(METRICS_FILE, metrics.trim()),
                    trace == null ? null : path(TraceFile.PROPERTY, trace.trim())), null, schema);
        }
        InetSocketAddress feed = address(p, FEED_ADDRESS, DEFAULT_FEED_ADDRESS);
        InetSocketAddress http = address(p, HTTP_ADDRESS, DEFAULT_HTTP_ADDRESS);
        String dataset = value(p, DATASET, p.getProperty("table", "usertable").trim());
        if (dataset.isEmpty() || dataset.contains("/")) {
            throw new DBException(DATASET + ": '" + dataset + "' is not a dataset name (non-empty, no '/')");
        }
        String feedName = value(p, FEED_NAME, DEFAULT_FEED_NAME);
        if (feedName.isEmpty() || feedName.contains("/")) {
            throw new DBException(FEED_NAME + ": '" + feedName + "' is not a feed name (non-empty, no '/')");
        }
        boolean acks = switch (value(p, ACKS, "false")) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new DBException(ACKS + ": '" + value(p, ACKS, "false")
                    + "' is not accepted; accepted: true, false (as the feed's acks key in the descriptor)");
        };
        long timeout = longValue(p, TIMEOUT, DEFAULT_TIMEOUT_MILLIS, 1, 3_600_000, null);
        String token = p.getProperty(HTTP_TOKEN) == null ? null : p.getProperty(HTTP_TOKEN).trim();
        if (token != null && (token.isEmpty() || !token.matches("[\\x21-\\x7e]+"))) {
            throw new DBException(HTTP_TOKEN + ": the token must be printable ASCII without spaces (as the node's"
                    + " [http] token)");
        }
        return new BindingConfig(mode, null, new Feed(feed, http, dataset, feedName, acks, Duration.ofMillis(timeout),
                token), schema);
    }

    /**
     * {@code p} with the {@link #OPTIONS_FILE}'s properties added where {@code p} has none of that name.
     *
     * @throws DBException if the file cannot be read, or sets something other than an {@code lsm.*} property
     */
    private static Properties withOptionsFile(Properties p) throws DBException {
        String name = p.getProperty(OPTIONS_FILE);
        if (name == null) {
            return p;
        }
        Path file = path(OPTIONS_FILE, name.trim());
        Properties fromFile = new Properties();
        try (java.io.Reader in = java.nio.file.Files.newBufferedReader(file, java.nio.charset.StandardCharsets.UTF_8)) {
            fromFile.load(in);
        } catch (java.io.IOException | IllegalArgumentException e) {
            throw new DBException(OPTIONS_FILE + ": cannot read " + file + ": " + e.getMessage(), e);
        }
        Properties merged = new Properties();
        merged.putAll(p);
        for (String key : new TreeSet<>(fromFile.stringPropertyNames())) {
            if (!key.startsWith("lsm.") || key.equals(OPTIONS_FILE)) {
                throw new DBException(OPTIONS_FILE + ": " + file + " sets " + key + "; it may set lsm.* properties"
                        + " only (not " + OPTIONS_FILE + ")");
            }
            if (merged.getProperty(key) == null) {
                merged.setProperty(key, fromFile.getProperty(key));
            }
        }
        return merged;
    }

    /** Every {@code lsm.*} property must be known and belong to {@code mode}. */
    /** The merge order {@link #MERGE_ORDER} names; null if not given (the store's default). */
    private static MergeOrder mergeOrder(Properties p) throws DBException {
        String given = p.getProperty(MERGE_ORDER);
        if (given == null) {
            return null;
        }
        try {
            return MergeOrder.valueOf(given.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new DBException(MERGE_ORDER + ": '" + given + "' is not a merge order; accepted: "
                    + Arrays.stream(MergeOrder.values()).map(Enum::name).collect(Collectors.joining(", ")));
        }
    }

    private static void checkNames(Properties p, Mode mode) throws DBException {
        Set<String> own = mode == Mode.EMBEDDED ? EMBEDDED_KEYS : FEED_KEYS;
        Set<String> other = mode == Mode.EMBEDDED ? FEED_KEYS : EMBEDDED_KEYS;
        for (String name : new TreeSet<>(p.stringPropertyNames())) {
            if (!name.startsWith("lsm.") || name.equals(MODE) || name.equals(OPTIONS_FILE) || own.contains(name)
                    || (mode == Mode.EMBEDDED && name.startsWith(POLICY_PARAM_PREFIX))) {
                continue;
            }
            String modeName = mode.name().toLowerCase(Locale.ROOT);
            if (other.contains(name) || name.startsWith(POLICY_PARAM_PREFIX)) {
                throw new DBException(name + " does not apply to " + MODE + "=" + modeName
                        + (mode == Mode.FEED ? "; the node server's descriptor sets the storage (merge-policy, "
                        + "storage.memorycomponent.globalbudget, storage.wal.mode; docs/configuration.md)" : "")
                        + "; properties of this mode: " + String.join(", ", new TreeSet<>(own))
                        + (mode == Mode.EMBEDDED ? ", " + POLICY_PARAM_PREFIX + "<parameter>" : ""));
            }
            List<String> known = new ArrayList<>(new TreeSet<>(own));
            if (mode == Mode.EMBEDDED) {
                known.add(POLICY_PARAM_PREFIX + "<parameter>");
            }
            throw new DBException("unknown property " + name + "; known for " + MODE + "=" + modeName + ": " + MODE
                    + ", " + OPTIONS_FILE + ", " + String.join(", ", known));
        }
    }

    private static boolean hasPolicyParams(Properties p) {
        return p.stringPropertyNames().stream().anyMatch(n -> n.startsWith(POLICY_PARAM_PREFIX));
    }

    /**
     * The policy the store in {@code dir} recorded (with every parameter), or {@link StoreOptions#DEFAULT_POLICY}
     * for a new store: what {@code lsm.policy} defaults to.
     */
    private static String recordedPolicy(Path dir) throws DBException {
        try {
            return LsmStore.storedOptions(dir).map(o -> o.policy().toString()).orElse(StoreOptions.DEFAULT_POLICY);
        } catch (IOException e) {
            throw new DBException(DIR + "=" + dir + ": the store's recorded settings cannot be read: "
                    + e.getMessage(), e);
        }
    }

    /**
     * {@code lsm.policy} (default {@code defaultSpec}) with the {@code lsm.policy.<parameter>} values added;
     * parameters given without {@code lsm.policy} apply to the default's policy alone, as on the command line.
     */
    private static PolicySpec policySpec(Properties p, String defaultSpec) throws DBException {
        String text = p.getProperty(POLICY) != null ? value(p, POLICY, defaultSpec)
                : hasPolicyParams(p) ? PolicySpec.parse(defaultSpec).name() : defaultSpec;
        PolicySpec spec;
        try {
            spec = PolicySpec.parse(text);
        } catch (IllegalArgumentException e) {
            throw new DBException(POLICY + ": " + e.getMessage() + "; expected NAME or NAME:param=value,...", e);
        }
        Map<String, String> params = new LinkedHashMap<>(spec.parameters());
        for (String name : new TreeSet<>(p.stringPropertyNames())) {
            if (name.startsWith(POLICY_PARAM_PREFIX)) {
                String param = name.substring(POLICY_PARAM_PREFIX.length());
                if (param.isEmpty()) {
                    throw new DBException(name + ": a parameter name is missing, e.g. " + POLICY_PARAM_PREFIX + "k=4");
                }
                if (params.containsKey(param)) {
                    throw new DBException(name + ": parameter '" + param + "' is also given in " + POLICY + "="
                            + text + "; give it once");
                }
                params.put(param, p.getProperty(name).trim());
            }
        }
        return new PolicySpec(spec.name(), params);
    }

    private static String required(Properties p, String name, String what) throws DBException {
        String v = p.getProperty(name);
        if (v == null || v.isBlank()) {
            throw new DBException(name + " is required in " + MODE + "=embedded: " + what);
        }
        return v.trim();
    }


    /** {@code host:port} (an IPv6 host in brackets), port 1..65535; the name is resolved now. */
    static InetSocketAddress address(Properties p, String name, String dflt) throws DBException {
        String text = value(p, name, dflt);
        int colon = text.lastIndexOf(':');
        String host = colon > 0 ? text.substring(0, colon) : "";
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = colon > 0 ? Integer.parseInt(text.substring(colon + 1)) : -1;
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (host.isEmpty() || port < 1 || port > 65535) {
            throw new DBException(name + ": '" + text + "' is not an address; accepted: host:port with a port in "
                    + "[1, 65535], e.g. " + dflt);
        }
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw new DBException(name + ": host '" + host + "' in '" + text + "' cannot be resolved");
        }
        return a;
    }
}
