package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The server as a server: its version, {@code --check}, every check before anything is created on disk (a busy
 * port leaves no directory behind), a locked partition named by its descriptor line, and iodevices that resolve
 * against the descriptor's directory rather than the working directory.
 */
@Timeout(60)
class LsmServerTest {
    @TempDir
    Path tmp;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        CommandLine cl = LsmServer.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** A descriptor in {@code tmp/conf/} whose iodevices are {@code ../data/io0, ../data/io1}. */
    private Path descriptor(int httpPort, int feedPort) throws Exception {
        Path conf = Files.createDirectories(tmp.resolve("conf"));
        String text = "[nc/nc1]\n"
                + "iodevices = ../data/io0, ../data/io1\n" // line 2
                + "[http]\n"
                + "port = " + httpPort + "\n" // line 4
                + "[dataset/d]\n"
                + "primary-key = id\n"
                + "[feed/f]\n"
                + "dataset = d\n"
                + "format = json\n"
                + "addresses = 127.0.0.1:" + feedPort + "\n"; // line 10
        return Files.writeString(conf.resolve("node.conf"), text, StandardCharsets.UTF_8);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void versionAndUsageAndAMissingDescriptor() {
        Run version = run("--version");
        assertThat(version.exit()).isZero();
        assertThat(version.out()).startsWith("lsm-server ");
        Run missing = run("--config", tmp.resolve("nope.conf").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("nope.conf: no such descriptor file");
        assertThat(run("--bogus").exit()).isEqualTo(2);
    }

    /** AsterixDB 0.9.8's sample cluster's cc.conf, as its user has it, in {@code tmp/asterixdb/conf/cc.conf}. */
    private Path asterixSampleCcConf() throws Exception {
        Path conf = Files.createDirectories(tmp.resolve("asterixdb/conf")).resolve("cc.conf");
        try (var in = LsmServerTest.class.getResourceAsStream("/asterixdb/sample-cluster-cc.conf")) {
            Files.copy(in, conf);
        }
        return conf;
    }

    @Test
    void anAsterixDbSampleClustersCcConfIsAccepted() throws Exception {
        // Regression: refused with "[cc]: unknown section", then "txn.log.dir: unknown key", "nc.api.port", "address".
        Path conf = asterixSampleCcConf();
        NodeDescriptor d = DescriptorParser.parse(conf, true);
        assertThat(d.nodeId()).isEqualTo("asterix_nc1");
        assertThat(d.iodevices()).containsExactly(tmp.resolve("asterixdb/conf/data/red"));
        assertThat(String.join("\n", d.notes()))
                .contains("cc.conf:5: [nc/asterix_nc1] is this server's node, the first of asterix_nc1, asterix_nc2")
                .contains("cc.conf:5: [nc/asterix_nc1]: AsterixDB keys this server does not use, ignored: "
                        + "txn.log.dir, core.dump.dir, nc.api.port")
                .contains("cc.conf:11: [nc/asterix_nc2] ignored: another node's section")
                .contains("cc.conf:18: [nc]: AsterixDB keys this server does not use, ignored: address, command")
                .contains("cc.conf:22: [cc] ignored")
                .contains("cc.conf:25: [common]: AsterixDB keys this server does not use, ignored: log.dir, log.level");
        NodeDescriptor blue = DescriptorParser.parse(conf, true, "asterix_nc2");
        assertThat(blue.iodevices()).containsExactly(tmp.resolve("asterixdb/conf/data/blue"));
        assertThat(catchThrowableOfType(ConfigException.class, () -> DescriptorParser.parse(conf, true, "green")))
                .hasMessageContaining("no [nc/green] section for --node green; the descriptor names: asterix_nc1, "
                        + "asterix_nc2");

        // The command itself; the sample leaves the HTTP API on its default port, 19002, which must be free here.
        boolean portFree;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", DescriptorParser.DEFAULT_HTTP_PORT));
            portFree = true;
        } catch (java.io.IOException e) {
            portFree = false;
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(portFree, "port " + DescriptorParser.DEFAULT_HTTP_PORT
                + " (the sample's HTTP port) is in use by another process");
        Run check = run("--config", conf.toString(), "--check", "--create-iodevices");
        assertThat(check.exit()).as(check.err()).isZero();
        assertThat(check.out()).contains("lsm-server: note: ").contains("is valid: node asterix_nc1, 1 iodevice(s)")
                .contains("nothing was created");
        assertThat(tmp.resolve("asterixdb/conf/data")).doesNotExist();
        Run node2 = run("--config", conf.toString(), "--check", "--create-iodevices", "--node", "asterix_nc2");
        assertThat(node2.out()).as(node2.err()).contains("is valid: node asterix_nc2");
    }

    @Test
    void checkValidatesEverythingAndCreatesNothing() throws Exception {
        Path conf = descriptor(freePort(), 0);
        Run refused = run("--config", conf.toString(), "--check");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("node.conf:2: iodevices").contains("--create-iodevices");

        Run ok = run("--config", conf.toString(), "--check", "--create-iodevices");
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("is valid: node nc1, 2 iodevice(s) (2 to create), 1 dataset(s), 1 feed(s)")
                .contains("nothing was created");
        assertThat(tmp.resolve("data")).doesNotExist();
    }

    @Test
    void aBusyPortIsReportedWithItsLineBeforeAnythingIsCreated() throws Exception {
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress("127.0.0.1", 0));
            Path conf = descriptor(freePort(), busy.getLocalPort());
            Run check = run("--config", conf.toString(), "--check", "--create-iodevices");
            assertThat(check.exit()).isEqualTo(2);
            assertThat(check.err()).contains("node.conf:10: addresses").contains("cannot listen on");
            ConfigException e = catchThrowableOfType(
                    () -> NodeServer.start(DescriptorParser.parse(conf, true)), ConfigException.class);
            assertThat(e.getMessage()).contains("node.conf:10: addresses");
            assertThat(tmp.resolve("data")).as("no iodevice, no store directory").doesNotExist();
        }
    }

    @Test
    void iodevicesResolveAgainstTheDescriptorsDirectoryAndALockedPartitionNamesItsLine() throws Exception {
        Path conf = descriptor(0, 0);
        try (NodeServer s = NodeServer.start(DescriptorParser.parse(conf, true))) {
            assertThat(s.descriptor().iodevices()).containsExactly(tmp.resolve("data/io0"), tmp.resolve("data/io1"));
        }
        assertThat(tmp.resolve("data/io1/d")).isDirectory();
        try (LsmStore held = LsmStore.open(tmp.resolve("data/io1/d"), StoreOptions.defaults())) {
            ConfigException e = catchThrowableOfType(
                    () -> NodeServer.start(DescriptorParser.parse(conf, false)), ConfigException.class);
            assertThat(e.getMessage()).contains("node.conf:2: iodevices").contains("partition 1")
                    .contains("is in use");
        }
        // partition 0, opened before the refusal, was closed again: the node starts now
        try (NodeServer s = NodeServer.start(DescriptorParser.parse(conf, false));
                Stream<Path> files = Files.list(tmp.resolve("data/io0"))) {
            assertThat(files.map(p -> p.getFileName().toString())).contains("d");
        }
    }
}
