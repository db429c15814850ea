package io.lsmpolicies.asterix;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.asterix.api.common.AsterixHyracksIntegrationUtil;
import org.apache.asterix.common.api.INcApplicationContext;
import org.apache.asterix.common.context.IndexInfo;
import org.apache.asterix.hyracks.bootstrap.NCApplication;
import org.apache.hyracks.api.application.INCApplication;
import org.apache.hyracks.control.common.config.ConfigManager;
import org.apache.hyracks.control.common.controllers.CCConfig;
import org.apache.hyracks.control.common.controllers.NCConfig;
import org.apache.hyracks.control.nc.NodeControllerService;
import org.apache.logging.log4j.LogManager;

/**
 * A real AsterixDB 0.9.8 cluster in this JVM: AsterixDB's own {@code AsterixHyracksIntegrationUtil} (the
 * embedded CC and NCs of AsterixDB's integration tests, from the asterix-app tests jar) with a stock
 * {@code CCApplication}, and, unless the settings ask for a stock cluster, our {@link LsmPoliciesNCApplication} on
 * every NC and our {@link LsmPoliciesMetadataExtension} enabled by its {@code cc.conf} section, as an installed
 * cluster runs them.
 *
 * <p>Everything lives under one directory ({@code cc.conf}, storage, transaction logs), so the cluster can be
 * stopped and started again on the same data. The CC, the NCs and every HTTP API port are picked free when the
 * object is created and kept across restarts; the cluster addresses are 127.0.0.1. Ports are picked below the
 * kernel's ephemeral range ({@link #freePorts}), and a fresh start whose ports were taken meanwhile is retried on
 * new ones. AsterixDB 0.9.8 itself binds
 * its HTTP servers and socket feeds to the wildcard address (it takes only a port for them); clients here connect
 * to 127.0.0.1 only.
 */
public final class EmbeddedAsterixDb implements AutoCloseable {
    /** Ports besides one API port per NC: CC client, CC cluster, and the CC's five HTTP servers. */
    private static final int FIXED_PORTS = 7;
    private final Path root;
    private final ClusterSettings settings;
    private final int clientPort;
    private final int clusterPort;
    private final int apiPort;
    private final List<String> nodes = new ArrayList<>();
    private final Path confFile;
    private Util util;

    private EmbeddedAsterixDb(Path root, ClusterSettings settings) throws IOException {
        this.root = root.toAbsolutePath();
        this.settings = settings;
        List<Integer> ports = freePorts(FIXED_PORTS + settings.nodes());
        clientPort = ports.get(0);
        clusterPort = ports.get(1);
        apiPort = ports.get(2);
        for (int n = 1; n <= settings.nodes(); n++) {
            nodes.add("asterix_nc" + n);
        }
        confFile = this.root.resolve("cc.conf");
        Files.createDirectories(this.root);
        Files.writeString(confFile, ccConf(ports), StandardCharsets.UTF_8);
    }

    /**
     * Creates {@code root} (which must not hold another cluster) and starts a new cluster in it. If a port was
     * taken between its pick and the cluster's bind (by another process on the machine), the start is retried,
     * from scratch, on newly picked ports (at most {@value #START_ATTEMPTS} attempts).
     */
    public static EmbeddedAsterixDb start(Path root, ClusterSettings settings) throws Exception {
        for (int attempt = 1; ; attempt++) {
            EmbeddedAsterixDb db = new EmbeddedAsterixDb(root, settings);
            try {
                db.startNodes(true);
                return db;
            } catch (Exception e) {
                if (attempt >= START_ATTEMPTS || !portTaken(e)) {
                    throw e;
                }
                LogManager.getLogger(EmbeddedAsterixDb.class).warn("a cluster port was taken meanwhile ({}); "
                        + "starting again on new ports", e.toString());
            }
        }
    }

    private static final int START_ATTEMPTS = 3;

    private static boolean portTaken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException) {
                return true;
            }
        }
        return false;
    }

    /** Stops the cluster gracefully (NCs flush and checkpoint, as a shutdown does) and starts it again. */
    public void restart() throws Exception {
        stop();
        startNodes(false);
    }

    /** Stops the cluster gracefully; {@link #restart()} may follow. */
    public void stop() throws Exception {
        if (util != null) {
            Util u = util;
            util = null;
            u.deinit(false);
        }
    }

    @Override
    public void close() throws Exception {
        stop();
    }

    /** The node ids, {@code asterix_nc1}, ... */
    public List<String> nodes() {
        return List.copyOf(nodes);
    }

    /** The query service of the CC on 127.0.0.1. */
    public SqlppClient sqlpp() {
        return new SqlppClient(new InetSocketAddress(InetAddress.getLoopbackAddress(), apiPort));
    }

    /** The storage of all nodes (each node's iodevices below {@code <root>/storage/<node>}). */
    public Path storage() {
        return root.resolve("storage");
    }

    /**
     * The number of disk components each partition's primary index of {@code dataset} holds right now, as the NC
     * serves reads from them ({@code ILSMIndex.getDiskComponents()}: installed components only, not a flush
     * waiting to be installed nor a merge being written), by partition; empty for an index not open.
     */
    Map<Integer, Integer> installedComponents(String dataverse, String dataset) {
        Map<Integer, Integer> counts = new TreeMap<>();
        Util u = util;
        if (u == null) {
            return counts;
        }
        for (NodeControllerService nc : u.ncs) {
            INcApplicationContext app = (INcApplicationContext) nc.getApplicationContext();
            for (IndexInfo info : app.getDatasetLifecycleManager().getOpenIndexesInfo()) {
                String[] path = info.getLocalResource().getPath().split("/");
                int n = path.length;
                if (n >= 5 && path[n - 1].equals(dataset) && path[n - 3].equals(dataset)
                        && path[n - 4].equals(dataverse)) {
                    counts.put(info.getPartition(), info.getIndex().getDiskComponents().size());
                }
            }
        }
        return counts;
    }

    /** A free port on 127.0.0.1 for a socket feed; the caller hands it to AsterixDB at once. */
    public static int freePort() throws IOException {
        return freePorts(1).get(0);
    }

    private void startNodes(boolean fresh) throws Exception {
        Util u = new Util(storage(), clientPort, clusterPort, settings.lsmPolicies());
        try {
            u.init(fresh, confFile.toString());
        } catch (Exception e) {
            try {
                u.deinit(false); // whatever part of the cluster started
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        util = u;
    }

    private String ccConf(List<Integer> ports) {
        StringBuilder c = new StringBuilder();
        for (int n = 0; n < nodes.size(); n++) {
            String node = nodes.get(n);
            Path logs = root.resolve("logs").resolve(node);
            c.append("[nc/").append(node).append("]\n");
            c.append("txn.log.dir=").append(logs.resolve("txnlog")).append('\n');
            c.append("core.dump.dir=").append(logs.resolve("coredump")).append('\n');
            StringBuilder devices = new StringBuilder();
            for (int d = 1; d <= settings.ioDevicesPerNode(); d++) {
                devices.append(d == 1 ? "" : ",").append("iodevice").append(d); // below storage()/<node>
            }
            c.append("iodevices=").append(devices).append('\n');
            c.append("nc.api.port=").append(ports.get(FIXED_PORTS + n)).append('\n');
        }
        c.append("[nc]\n");
        c.append("address=127.0.0.1\n");
        c.append("storage.buffercache.pagesize=").append(settings.pageSize()).append('\n');
        c.append("storage.buffercache.size=").append(settings.bufferCache()).append('\n');
        c.append("storage.memorycomponent.pagesize=").append(settings.pageSize()).append('\n');
        c.append("storage.memorycomponent.globalbudget=").append(settings.memoryBudget()).append('\n');
        c.append("[cc]\n");
        c.append("address=127.0.0.1\n");
        c.append("api.port=").append(apiPort).append('\n');
        c.append("web.port=").append(ports.get(3)).append('\n');
        c.append("web.queryinterface.port=").append(ports.get(4)).append('\n');
        c.append("active.port=").append(ports.get(5)).append('\n');
        c.append("console.listen.port=").append(ports.get(6)).append('\n');
        c.append("[common]\n");
        c.append("log.level=WARN\n");
        c.append("compiler.framesize=32KB\n");
        if (settings.lsmPolicies()) {
            // The section that enables our metadata extension, with the key that makes it reach the NCs.
            c.append(LsmPoliciesMetadataExtension.CC_CONF_SECTION).append("\nenabled=true\n");
        }
        return c.toString();
    }

    /** Where {@link #freePorts} picks: from here to the first ephemeral port. */
    private static final int LOWEST_PORT = 10_000;

    /**
     * {@code count} distinct ports free on 127.0.0.1 now, picked at random below the kernel's ephemeral range
     * ({@code /proc/sys/net/ipv4/ip_local_port_range}; 32768 if unknown). A port picked free inside that range
     * could be given to any process's outgoing connection before the cluster binds it, which a loaded machine
     * running other tests does; below it, only a process that asks for the port by number can take it.
     */
    static List<Integer> freePorts(int count) throws IOException {
        int high = ephemeralLow();
        if (high - LOWEST_PORT < 1000) {
            throw new IOException("the ephemeral port range starts at " + high + ": no room below it for test ports");
        }
        java.util.SplittableRandom random = new java.util.SplittableRandom();
        List<Integer> ports = new ArrayList<>();
        for (int tries = 0; ports.size() < count; tries++) {
            if (tries > 10_000) {
                throw new IOException("no " + count + " free ports found in [" + LOWEST_PORT + ", " + high + ")");
            }
            int port = LOWEST_PORT + random.nextInt(high - LOWEST_PORT);
            if (!ports.contains(port) && isFree(port)) {
                ports.add(port);
            }
        }
        return ports;
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static int ephemeralLow() {
        try {
            // By lines: Files.readString returned "3" for this procfs file on JDK 17.
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    /**
     * AsterixDB's integration-test cluster with our NC application (or AsterixDB's own, for a stock cluster; never
     * the test application of AsterixDB's own tests), our storage root and our CC ports.
     */
    private static final class Util extends AsterixHyracksIntegrationUtil {
        private final Path storage;
        private final int clientPort;
        private final int clusterPort;
        private final boolean lsmPolicies;

        Util(Path storage, int clientPort, int clusterPort, boolean lsmPolicies) {
            this.storage = storage;
            this.clientPort = clientPort;
            this.clusterPort = clusterPort;
            this.lsmPolicies = lsmPolicies;
        }

        @Override
        protected INCApplication createNCApplication() {
            return lsmPolicies ? new LsmPoliciesNCApplication() : new NCApplication();
        }

        @Override
        protected CCConfig createCCConfig(ConfigManager configManager) throws IOException {
            CCConfig config = super.createCCConfig(configManager);
            config.setClientListenPort(clientPort);
            config.setClusterListenPort(clusterPort);
            return config;
        }

        @Override
        protected NCConfig createNCConfig(String ncName, ConfigManager configManager) {
            NCConfig config = super.createNCConfig(ncName, configManager);
            config.setClusterPort(clusterPort);
            config.setClusterAddress(InetAddress.getLoopbackAddress().getHostAddress());
            return config;
        }

        @Override
        protected String getDefaultStoragePath() {
            return storage.toString();
        }
    }
}
