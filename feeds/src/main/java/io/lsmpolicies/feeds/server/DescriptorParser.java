package io.lsmpolicies.feeds.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.feeds.BadRecordPolicy;
import io.lsmpolicies.feeds.FeedConfig;
import io.lsmpolicies.feeds.RecordFormat;
import io.lsmpolicies.lsm.ByteSizes;
import io.lsmpolicies.lsm.MergeOrder;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.MergePolicies;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a node's cluster descriptor ({@code cc.conf} INI style; every key is in {@code docs/configuration.md}).
 * Every value is checked here, once: an unknown section or key, a bad value, a merge policy or parameter the
 * registry does not know, or an iodevice that is missing or not writable is a {@link ConfigException} naming the
 * file, the line, the key and why. An AsterixDB cluster's {@code cc.conf} is accepted as it is: its {@code [cc]},
 * {@code [common]} and {@code [extension/...]} sections and AsterixDB's keys this server has no use for
 * ({@link AsterixKeys}) are ignored, each listed in {@link NodeDescriptor#notes()}; the node is the first
 * {@code [nc/<id>]} unless one is named. Relative iodevice paths resolve against the descriptor's directory. A
 * missing iodevice directory is refused unless the caller asks for it to be created: a mistyped or unmounted device
 * path must not silently become a directory on the root disk.
 */
public final class DescriptorParser {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** What this server reads from a node's section, {@code [nc]} and {@code [common]}. */
    private static final Set<String> NODE_KEYS = Set.of("iodevices",
            "storage.memorycomponent.globalbudget", "storage.memorycomponent.pagesize", "storage.buffercache.size", "storage.buffercache.pagesize",
            "storage.lsm.bloomfilter.falsepositiverate", "storage.max.concurrent.merges.per.partition",
            "storage.wal.mode", "storage.write.rate.limit", "partition.reopen.delay", "partition.reopen.max-delay");
    private static final Set<String> HTTP_KEYS = union(Set.of("address", "port", "max-connections", "idle-timeout",
            "token", "token-file", "token-required-for-reads"), TlsSection.KEYS);
    private static final Set<String> DATASET_KEYS = Set.of("primary-key", "merge-policy", "merge-order");
    private static final Set<String> FEED_KEYS = union(Set.of("dataset", "format", "addresses", "max-record-bytes",
            "queue-capacity", "writer-threads", "io-threads", "insert-if-absent", "acks", "bad-records",
            "max-connections"), TlsSection.KEYS);

    /** AsterixDB's default dataset policy. */
    static final String DEFAULT_POLICY = "prefix";
    static final int DEFAULT_HTTP_PORT = HttpSettings.DEFAULT_PORT;

    private final Path file;
    private final boolean createIodevices;
    private final String node;
    private final List<Path> toCreate = new ArrayList<>();
    private final List<Map.Entry<Integer, String>> notes = new ArrayList<>();

    private DescriptorParser(Path file, boolean createIodevices, String node) {
        this.file = file;
        this.createIodevices = createIodevices;
        this.node = node;
    }

    /**
     * Parses and validates {@code file}; a missing iodevice directory is refused. Creates nothing.
     *
     * @throws IOException     if the file cannot be read
     * @throws ConfigException naming the line, the key and why
     */
    public static NodeDescriptor parse(Path file) throws IOException, ConfigException {
        return parse(file, false);
    }

    /**
     * Parses and validates {@code file}; with {@code createIodevices}, a missing iodevice directory whose nearest
     * existing ancestor is a writable directory is accepted and listed in
     * {@link NodeDescriptor#iodevicesToCreate()} (the node creates it when it starts) instead of refused. Parsing
     * creates nothing.
     *
     * @throws IOException     if the file cannot be read
     * @throws ConfigException naming the line, the key and why
     */
    public static NodeDescriptor parse(Path file, boolean createIodevices) throws IOException, ConfigException {
        return parse(file, createIodevices, null);
    }

    /**
     * As {@link #parse(Path, boolean)}, for the node {@code [nc/<node>]} of a descriptor that names several (an
     * AsterixDB cluster's {@code cc.conf}); {@code null}: the first node section.
     *
     * @throws IOException     if the file cannot be read
     * @throws ConfigException naming the line, the key and why, or, if there is no {@code [nc/<node>]}, the nodes
     *                         there are
     */
    public static NodeDescriptor parse(Path file, boolean createIodevices, String node)
            throws IOException, ConfigException {
        return new DescriptorParser(file, createIodevices, node).parse();
    }

    private NodeDescriptor parse() throws IOException, ConfigException {
        List<IniFile.Section> nodes = new ArrayList<>();
        IniFile.Section ncCommon = null;
        IniFile.Section common = null;
        HttpSettings http = HttpSettings.defaults();
        List<DatasetSpec> datasets = new ArrayList<>();
        List<FeedSpec> feeds = new ArrayList<>();
        Map<String, Integer> feedDatasetLines = new LinkedHashMap<>();
        for (IniFile.Section s : IniFile.read(file)) {
            String name = s.name();
            if (name.startsWith("nc/")) {
                suffix(s, "nc/");
                nodes.add(s);
            } else if (name.equals("nc")) {
                ncCommon = s;
            } else if (name.equals("common")) {
                common = s;
            } else if (name.equals("cc") || name.startsWith("extension/")) {
                notes.add(note(s.line(), "[" + name + "] ignored: "
                        + (name.equals("cc") ? "the cluster controller's settings; this server runs one node"
                        : "an AsterixDB extension's settings")));
            } else if (name.equals("http")) {
                checkKeys(s, HTTP_KEYS);
                http = http(s);
            } else if (name.startsWith("dataset/")) {
                checkKeys(s, DATASET_KEYS);
                datasets.add(dataset(s, suffix(s, "dataset/")));
            } else if (name.startsWith("feed/")) {
                checkKeys(s, FEED_KEYS);
                IniFile.Entry d = required(s, "dataset");
                feeds.add(feed(s, suffix(s, "feed/"), d.value()));
                feedDatasetLines.put(suffix(s, "feed/"), d.line());
            } else {
                throw error(s.line(), "[" + name + "]", "unknown section; expected [nc/<id>], [nc], [http], "
                        + "[dataset/<name>] or [feed/<name>] (AsterixDB's [cc], [common] and [extension/...] are "
                        + "read and ignored)");
            }
        }
        IniFile.Section node = node(nodes);
        String nodeId = node.name().substring("nc/".length()).strip();
        // AsterixDB's precedence: a node's own section, then [nc] (every node), then [common].
        IniFile.Section settings = merged(node, ncCommon, common);
        IniFile.Entry io = settings.entries().get("iodevices");
        if (io == null || io.value().isEmpty()) {
            throw error(io != null ? io.line() : node.line(), "iodevices", "required in [" + node.name()
                    + "] (or in [nc] for every node)");
        }
        List<Path> iodevices = iodevices(io);
        Set<String> names = new HashSet<>();
        for (DatasetSpec d : datasets) {
            names.add(d.name());
        }
        for (FeedSpec f : feeds) {
            if (!names.contains(f.dataset())) {
                throw error(feedDatasetLines.get(f.name()), "dataset", "no [dataset/" + f.dataset() + "] section");
            }
        }
        StorageSettings storage = storage(settings, datasets.size(), iodevices.size());
        notes.sort(Map.Entry.comparingByKey()); // in file order
        return new NodeDescriptor(file, nodeId, iodevices, io.line(), toCreate, storage, reopen(settings), http,
                datasets, feeds, notes.stream().map(Map.Entry::getValue).toList());
    }

    /** The node this server runs: {@code [nc/<node>]} if one was asked for, else the first (noted if not alone). */
    private IniFile.Section node(List<IniFile.Section> nodes) throws ConfigException {
        List<String> ids = new ArrayList<>();
        for (IniFile.Section s : nodes) {
            ids.add(s.name().substring("nc/".length()).strip());
        }
        if (nodes.isEmpty()) {
            throw error(0, null, "no [nc/<id>] section with the node's iodevices");
        }
        IniFile.Section chosen = nodes.get(0);
        if (node != null) {
            int i = ids.indexOf(node);
            if (i < 0) {
                throw error(0, null, "no [nc/" + node + "] section for --node " + node + "; the descriptor names: "
                        + String.join(", ", ids));
            }
            chosen = nodes.get(i);
        } else if (nodes.size() > 1) {
            notes.add(note(chosen.line(), "[" + chosen.name() + "] is this server's node, the first of "
                    + String.join(", ", ids) + " (a server runs one node; choose another with --node)"));
        }
        for (IniFile.Section s : nodes) {
            if (s != chosen) {
                notes.add(note(s.line(), "[" + s.name() + "] ignored: another node's section"));
            }
        }
        return chosen;
    }

    /**
     * The keys this server reads from {@code node}, {@code [nc]} and {@code [common]}, the first that sets a key
     * winning. Every other key must be one of AsterixDB's, which is ignored with a note; anything else, or a
     * near-miss of a key read here (a typo), is an error.
     */
    private IniFile.Section merged(IniFile.Section node, IniFile.Section nc, IniFile.Section common)
            throws ConfigException {
        Map<String, IniFile.Entry> out = new LinkedHashMap<>();
        for (IniFile.Section s : new IniFile.Section[] {common, nc, node}) {
            if (s == null) {
                continue;
            }
            List<String> ignored = new ArrayList<>();
            for (IniFile.Entry e : s.entries().values()) {
                if (NODE_KEYS.contains(e.key())) {
                    out.put(e.key(), e);
                } else {
                    String near = AsterixKeys.nearMiss(e.key(), NODE_KEYS);
                    if (near != null || !AsterixKeys.isAsterixKey(e.key())) {
                        throw error(e.line(), e.key(), "unknown key in [" + s.name() + "]"
                                + (near != null ? "; did you mean " + near + "?" : "") + " Keys this server reads "
                                + "there: " + String.join(", ", new java.util.TreeSet<>(NODE_KEYS))
                                + " (AsterixDB's other keys are ignored)");
                    }
                    ignored.add(e.key());
                }
            }
            if (!ignored.isEmpty()) {
                notes.add(note(s.line(), "[" + s.name() + "]: AsterixDB keys this server does not use, ignored: "
                        + String.join(", ", ignored)));
            }
        }
        return new IniFile.Section(node.name(), node.line(), out);
    }

    private Map.Entry<Integer, String> note(int line, String text) {
        return Map.entry(line, file + ":" + line + ": " + text);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> u = new HashSet<>(a);
        u.addAll(b);
        return Set.copyOf(u);
    }

    private HttpSettings http(IniFile.Section s) throws ConfigException {
        Map<String, IniFile.Entry> m = s.entries();
        IniFile.Entry a = m.get("address");
        IniFile.Entry p = m.get("port");
        IniFile.Entry e;
        InetSocketAddress address = address(a == null ? "127.0.0.1" : a.value(), p == null ? DEFAULT_HTTP_PORT
                : intIn(p, 0, 65535), a != null ? a.line() : s.line(), "address");
        int maxConnections = (e = m.get("max-connections")) == null ? HttpSettings.DEFAULT_MAX_CONNECTIONS
                : intIn(e, 1, 65536);
        Duration idle = (e = m.get("idle-timeout")) == null ? HttpSettings.DEFAULT_IDLE_TIMEOUT
                : duration(e, Duration.ofMillis(100), Duration.ofDays(1));
        BearerToken token = token(m.get("token"), m.get("token-file"));
        boolean forReads = (e = m.get("token-required-for-reads")) != null && bool(e);
        if (forReads && token == null) {
            throw error(e.line(), e.key(), "needs a token: set token or token-file in [http]");
        }
        return new HttpSettings(address, p != null ? p.line() : s.line(), maxConnections, idle, token, forReads,
                TlsSection.read(file, s));
    }

    /** The shared secret, from {@code token} or the first line of {@code token-file}; null if neither is set. */
    private BearerToken token(IniFile.Entry token, IniFile.Entry tokenFile) throws ConfigException {
        if (token != null && tokenFile != null) {
            IniFile.Entry later = token.line() > tokenFile.line() ? token : tokenFile;
            throw error(later.line(), later.key(), "give either token or token-file, not both");
        }
        IniFile.Entry e = token != null ? token : tokenFile;
        if (e == null) {
            return null;
        }
        String text = e.value();
        if (tokenFile != null) {
            Path p;
            try {
                p = Path.of(text).toAbsolutePath().normalize();
            } catch (InvalidPathException x) {
                throw error(e.line(), e.key(), "'" + text + "' is not a valid path: " + x.getReason());
            }
            try {
                if (Files.size(p) > 64 * 1024) {
                    throw error(e.line(), e.key(), p + " is larger than 64 KiB");
                }
                String content = new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.UTF_8);
                int nl = content.indexOf('\n');
                text = (nl < 0 ? content : content.substring(0, nl)).strip();
            } catch (java.nio.file.NoSuchFileException x) {
                throw error(e.line(), e.key(), "no such file: " + p);
            } catch (IOException x) {
                throw error(e.line(), e.key(), "cannot read " + p + ": " + x);
            }
        }
        try {
            return BearerToken.of(text);
        } catch (IllegalArgumentException x) {
            throw error(e.line(), e.key(), x.getMessage());
        }
    }

    private String suffix(IniFile.Section s, String prefix) throws ConfigException {
        String n = s.name().substring(prefix.length()).strip();
        // A dataset's name is a directory under each iodevice: no "..", no hidden name, nothing that is a path.
        if (!n.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}") || n.contains("..")) {
            throw error(s.line(), "[" + s.name() + "]", "the name must be 1 to 64 letters, digits, '_', '.' or '-',"
                    + " start with a letter or digit, and not contain '..'");
        }
        return n;
    }

    private void checkKeys(IniFile.Section s, Set<String> allowed) throws ConfigException {
        for (IniFile.Entry e : s.entries().values()) {
            if (!allowed.contains(e.key())) {
                throw error(e.line(), e.key(), "unknown key in [" + s.name() + "]; known keys: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)));
            }
        }
    }

    private IniFile.Entry required(IniFile.Section s, String key) throws ConfigException {
        IniFile.Entry e = s.entries().get(key);
        if (e == null || e.value().isEmpty()) {
            throw error(e != null ? e.line() : s.line(), key, "required in [" + s.name() + "]");
        }
        return e;
    }

    private List<Path> iodevices(IniFile.Entry e) throws ConfigException {
        List<Path> dirs = new ArrayList<>();
        for (String part : e.value().split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                throw error(e.line(), e.key(), "an empty directory in '" + e.value() + "'");
            }
            Path dir;
            try {
                dir = file.toAbsolutePath().getParent().resolve(p).normalize(); // not the working directory
            } catch (InvalidPathException x) { // e.g. a NUL byte (found by fuzzing)
                throw error(e.line(), e.key(), "'" + p + "' is not a valid path: " + x.getReason());
            }
            if (dirs.contains(dir)) {
                throw error(e.line(), e.key(), "directory " + dir + " appears twice");
            }
            if (!Files.isDirectory(dir)) {
                if (Files.exists(dir)) {
                    throw error(e.line(), e.key(), dir + " is not a directory");
                }
                if (!createIodevices) {
                    throw error(e.line(), e.key(), "directory " + dir + " does not exist (create it, or start with"
                            + " --create-iodevices)");
                }
                Path existing = dir.getParent();
                while (existing != null && !Files.exists(existing)) {
                    existing = existing.getParent();
                }
                if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
                    throw error(e.line(), e.key(), "directory " + dir + " does not exist and cannot be created ("
                            + (existing == null ? "no existing ancestor" : existing + " is not a writable directory")
                            + ")");
                }
                toCreate.add(dir);
            } else if (!Files.isWritable(dir)) {
                throw error(e.line(), e.key(), "directory " + dir + " is not writable");
            }
            dirs.add(dir);
        }
        return dirs;
    }

    /** {@code partition.reopen.delay} ({@code off}, or 100 ms - 1 h) and {@code partition.reopen.max-delay}. */
    private ReopenPolicy reopen(IniFile.Section s) throws ConfigException {
        Map<String, IniFile.Entry> m = s == null ? Map.of() : s.entries();
        IniFile.Entry delay = m.get("partition.reopen.delay");
        IniFile.Entry max = m.get("partition.reopen.max-delay");
        if (delay != null && delay.value().equalsIgnoreCase("off")) {
            if (max != null) {
                throw error(max.line(), max.key(), "partition.reopen.delay is off: no automatic retries to bound");
            }
            return new ReopenPolicy(null, null);
        }
        Duration first = delay == null ? ReopenPolicy.DEFAULT.delay()
                : duration(delay, Duration.ofMillis(100), Duration.ofHours(1));
        Duration longest = max == null ? ReopenPolicy.DEFAULT.maxDelay().compareTo(first) < 0 ? first
                : ReopenPolicy.DEFAULT.maxDelay() : duration(max, Duration.ofMillis(100), Duration.ofHours(1));
        if (longest.compareTo(first) < 0) {
            throw error(max.line(), max.key(), "must be at least partition.reopen.delay (" + first.toMillis()
                    + " ms), was " + max.value());
        }
        return new ReopenPolicy(first, longest);
    }

    private StorageSettings storage(IniFile.Section s, int datasets, int partitions) throws ConfigException {
        Map<String, IniFile.Entry> m = s == null ? Map.of() : s.entries();
        IniFile.Entry e;
        long budget = (e = m.get("storage.memorycomponent.globalbudget")) == null ? 0 : size(e, 4096, 1L << 40);
        int memPage = (e = m.get("storage.memorycomponent.pagesize")) == null ? 4096
                : (int) powerOfTwo(e, 512, 1 << 30);
        long cache = (e = m.get("storage.buffercache.size")) == null ? -1 : size(e, 0, 1L << 50);
        IniFile.Entry pageEntry = m.get("storage.buffercache.pagesize");
        int page = pageEntry == null ? 4096 : (int) powerOfTwo(pageEntry, 512, 1 << 20);
        double fpr = 0.01;
        if ((e = m.get("storage.lsm.bloomfilter.falsepositiverate")) != null) {
            try {
                fpr = Double.parseDouble(e.value());
            } catch (NumberFormatException x) {
                fpr = Double.NaN;
            }
            if (!(fpr > 0 && fpr < 1)) {
                throw error(e.line(), e.key(), "must be a number in (0, 1), was '" + e.value() + "'");
            }
        }
        int merges = (e = m.get("storage.max.concurrent.merges.per.partition")) == null ? 1 : intIn(e, 1, 64);
        SyncMode wal = SyncMode.SYNC;
        if ((e = m.get("storage.wal.mode")) != null) {
            wal = choice(e, SyncMode.class);
        }
        long writeRate = (e = m.get("storage.write.rate.limit")) == null ? 0 : size(e, 0, 1L << 50);
        StorageSettings settings = new StorageSettings(budget, memPage, cache, page, fpr, merges, wal, writeRate);
        try {
            settings.storeOptions(datasets, partitions, MergePolicies.parse(StoreOptions.DEFAULT_POLICY));
        } catch (IllegalArgumentException x) {
            throw error(pageEntry != null ? pageEntry.line() : s == null ? 0 : s.line(), "[nc]", x.getMessage());
        }
        return settings;
    }

    private DatasetSpec dataset(IniFile.Section s, String name) throws ConfigException {
        IniFile.Entry pk = required(s, "primary-key");
        List<String> fields = new ArrayList<>();
        for (String f : pk.value().split(",")) {
            if (f.isBlank()) {
                throw error(pk.line(), pk.key(), "an empty field name in '" + pk.value() + "'");
            }
            fields.add(f.strip());
        }
        IniFile.Entry mo = s.entries().get("merge-order");
        MergeOrder order = mo == null ? null : choice(mo, MergeOrder.class);
        IniFile.Entry mp = s.entries().get("merge-policy");
        if (mp == null) {
            return withOrder(new DatasetSpec(name, fields, DEFAULT_POLICY, Map.of(), false, order, s.line()), mo);
        }
        JsonNode root;
        try {
            root = JSON.readTree(mp.value());
        } catch (JsonProcessingException x) {
            throw error(mp.line(), mp.key(), "not a JSON object: " + x.getOriginalMessage());
        }
        if (root == null || !root.isObject() || !root.path("name").isTextual()) {
            throw error(mp.line(), mp.key(), "expected {\"name\": \"<policy>\", \"parameters\": {...}}");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!f.equals("name") && !f.equals("parameters")) {
                throw error(mp.line(), mp.key(), "unknown field \"" + f + "\"; expected name and parameters");
            }
        }
        Map<String, Object> params = new LinkedHashMap<>();
        JsonNode p = root.path("parameters");
        if (!p.isMissingNode() && !p.isObject()) {
            throw error(mp.line(), mp.key(), "\"parameters\" must be an object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            JsonNode v = f.getValue();
            if (v.isIntegralNumber() && v.canConvertToLong()) {
                params.put(f.getKey(), v.longValue());
            } else if (v.isNumber()) {
                params.put(f.getKey(), v.doubleValue());
            } else if (v.isTextual()) {
                params.put(f.getKey(), v.textValue());
            } else {
                throw error(mp.line(), mp.key(), "parameter \"" + f.getKey() + "\" must be a number or string");
            }
        }
        DatasetSpec spec = new DatasetSpec(name, fields, root.get("name").textValue(), params, true, order, s.line());
        try {
            spec.newPolicy();
        } catch (IllegalArgumentException x) {
            throw error(mp.line(), mp.key(), x.getMessage());
        }
        return withOrder(spec, mo);
    }

    /**
     * {@code spec}, once its merge order (given by {@code entry}, if not null) is known to suit its policy: an order
     * that merges in the flush is refused for a leveled policy, as the store refuses it.
     */
    private DatasetSpec withOrder(DatasetSpec spec, IniFile.Entry entry) throws ConfigException {
        if (entry != null) {
            try {
                StoreOptions.builder().policy(spec.newPolicy()).mergeOrder(spec.mergeOrder()).build();
            } catch (IllegalArgumentException x) {
                throw error(entry.line(), entry.key(), x.getMessage());
            }
        }
        return spec;
    }

    private FeedSpec feed(IniFile.Section s, String name, String dataset) throws ConfigException {
        Map<String, IniFile.Entry> m = s.entries();
        IniFile.Entry e;
        RecordFormat format = RecordFormat.ADM;
        if ((e = m.get("format")) != null) {
            format = choice(e, RecordFormat.class);
        }
        IniFile.Entry addrs = required(s, "addresses");
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String a : addrs.value().split(",")) {
            String t = a.strip();
            if (t.matches("\\d{1,5}")) { // a port alone listens on the loopback interface
                t = "127.0.0.1:" + t;
            }
            int colon = t.lastIndexOf(':');
            if (colon <= 0) {
                throw error(addrs.line(), addrs.key(), "expected host:port or a port, found '" + t + "'");
            }
            int port;
            try {
                port = Integer.parseInt(t.substring(colon + 1));
            } catch (NumberFormatException x) {
                port = -1;
            }
            if (port < 0 || port > 65535) {
                throw error(addrs.line(), addrs.key(), "port in '" + t + "' must be in [0, 65535]");
            }
            addresses.add(address(t.substring(0, colon), port, addrs.line(), addrs.key()));
        }
        int maxRecord = (e = m.get("max-record-bytes")) == null ? 1 << 20 : (int) size(e, 16, 64 << 20);
        int queue = (e = m.get("queue-capacity")) == null ? 1024 : intIn(e, 1, 1 << 20);
        int writers = (e = m.get("writer-threads")) == null ? 2 : intIn(e, 1, 64);
        int io = (e = m.get("io-threads")) == null ? FeedConfig.DEFAULT_IO_THREADS : intIn(e, 1, 64);
        boolean insertIfAbsent = (e = m.get("insert-if-absent")) != null && bool(e);
        boolean acks = (e = m.get("acks")) != null && bool(e);
        BadRecordPolicy bad = BadRecordPolicy.LOG_AND_CONTINUE;
        if ((e = m.get("bad-records")) != null) {
            if (e.value().equalsIgnoreCase("log")) {
                bad = BadRecordPolicy.LOG_AND_CONTINUE;
            } else if (e.value().equalsIgnoreCase("close")) {
                bad = BadRecordPolicy.CLOSE_CONNECTION;
            } else {
                throw error(e.line(), e.key(), "must be log or close, was '" + e.value() + "'");
            }
        }
        int maxConnections = (e = m.get("max-connections")) == null ? 64 : intIn(e, 1, 65536);
        return new FeedSpec(name, dataset, format, addresses, maxRecord, queue, writers, io, insertIfAbsent, acks,
                bad, maxConnections, TlsSection.read(file, s), addrs.line());
    }

    private InetSocketAddress address(String host, int port, int line, String key) throws ConfigException {
        InetSocketAddress a = new InetSocketAddress(host.strip(), port);
        if (host.isBlank() || a.isUnresolved()) {
            throw error(line, key, "cannot resolve host '" + host + "'");
        }
        return a;
    }

    private int intIn(IniFile.Entry e, int min, int max) throws ConfigException {
        long v;
        try {
            v = Long.parseLong(e.value());
        } catch (NumberFormatException x) {
            throw error(e.line(), e.key(), "not an integer: '" + e.value() + "'");
        }
        if (v < min || v > max) {
            throw error(e.line(), e.key(), "must be in [" + min + ", " + max + "], was " + v);
        }
        return (int) v;
    }

    /** A duration: digits with a unit {@code ms}, {@code s}, {@code m} or {@code h}; digits alone are seconds. */
    private Duration duration(IniFile.Entry e, Duration min, Duration max) throws ConfigException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h)?")
                .matcher(e.value().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw error(e.line(), e.key(), "expected a duration such as 30s, 500ms, 2m or 1h, was '" + e.value()
                    + "'");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        Duration d = switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw error(e.line(), e.key(), "must be between " + min.toMillis() + " ms and " + max.toHours()
                    + " h, was " + e.value());
        }
        return d;
    }

    /** A byte size: digits with an optional binary suffix K, M, G or T (and an optional B): 32MB, 4096. */
    private long size(IniFile.Entry e, long min, long max) throws ConfigException {
        long v;
        try {
            v = ByteSizes.parse(e.value());
        } catch (IllegalArgumentException x) {
            throw error(e.line(), e.key(), x.getMessage());
        }
        if (v < min || v > max) {
            throw error(e.line(), e.key(), "must be in [" + min + ", " + max + "] bytes, was " + e.value());
        }
        return v;
    }

    private long powerOfTwo(IniFile.Entry e, long min, long max) throws ConfigException {
        long v = size(e, min, max);
        if (Long.bitCount(v) != 1) {
            throw error(e.line(), e.key(), "must be a power of two, was " + v);
        }
        return v;
    }

    private boolean bool(IniFile.Entry e) throws ConfigException {
        if (e.value().equalsIgnoreCase("true")) {
            return true;
        }
        if (e.value().equalsIgnoreCase("false")) {
            return false;
        }
        throw error(e.line(), e.key(), "must be true or false, was '" + e.value() + "'");
    }

    private <E extends Enum<E>> E choice(IniFile.Entry e, Class<E> type) throws ConfigException {
        for (E c : type.getEnumConstants()) {
            if (c.name().equalsIgnoreCase(e.value())) {
                return c;
            }
        }
        List<String> names = new ArrayList<>();
        for (E c : type.getEnumConstants()) {
            names.add(c.name().toLowerCase(Locale.ROOT));
        }
        throw error(e.line(), e.key(), "must be one of " + String.join(", ", names) + ", was '" + e.value() + "'");
    }

    private ConfigException error(int line, String key, String reason) {
        return new ConfigException(file, line, key, reason);
    }
}
