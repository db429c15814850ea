package io.lsmpolicies.feeds.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm-server --config FILE [--node ID] [--create-iodevices] [--check]}: starts a {@link NodeServer} from a cluster
 * descriptor and runs until SIGTERM or SIGINT, when a shutdown hook stops the feeds (draining them) and closes the
 * stores (flushing them). Every check (the descriptor, the iodevices, the ports) is done before anything is created
 * on disk. {@code --check} does the checks and exits without starting; {@code --version} prints the version.
 * Exit status 2: a bad descriptor or argument (the message names the line); 1: the server could not start.
 */
@Command(name = "lsm-server", mixinStandardHelpOptions = true, versionProvider = LsmServer.Version.class,
        usageHelpWidth = 110, sortOptions = false,
        description = "Runs one node of the LSM store from a cluster descriptor: its datasets, socket feeds and HTTP "
                + "API, until SIGTERM or Ctrl-C.")
public final class LsmServer implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The cluster descriptor.")
    private Path config;

    @Option(names = "--create-iodevices",
            description = "Create iodevice directories that do not exist (otherwise they are refused).")
    private boolean createIodevices;

    @Option(names = "--node", paramLabel = "ID", description = "Run the node [nc/ID] of a descriptor that names "
            + "several (an AsterixDB cluster's cc.conf); default: the first.")
    private String node;

    @Option(names = "--check", description = "Validate the descriptor, the iodevices and the ports, then exit "
            + "(0 if the node could start) without creating anything.")
    private boolean check;

    /** The version of the jar the server runs from. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = LsmServer.class.getPackage().getImplementationVersion();
            return new String[] {"lsm-server " + (v != null ? v : "(not run from a jar: no version)")};
        }
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line (picocli's exit code for a bad argument is 2, as for a bad descriptor). */
    static CommandLine commandLine() {
        return new CommandLine(new LsmServer());
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isRegularFile(config)) {
            err.println("lsm-server: " + config + ": no such descriptor file");
            err.flush();
            return 2;
        }
        NodeDescriptor descriptor;
        try {
            descriptor = DescriptorParser.parse(config, createIodevices, node);
            if (check) {
                NodeServer.checkAddressesFree(descriptor);
                PrintWriter out = spec.commandLine().getOut();
                for (String note : descriptor.notes()) {
                    out.println("lsm-server: note: " + note);
                }
                out.println("lsm-server: " + config + " is valid: node " + descriptor.nodeId() + ", "
                        + descriptor.iodevices().size() + " iodevice(s)" + (descriptor.iodevicesToCreate().isEmpty()
                        ? "" : " (" + descriptor.iodevicesToCreate().size() + " to create)") + ", "
                        + descriptor.datasets().size() + " dataset(s), " + descriptor.feeds().size()
                        + " feed(s), HTTP on " + descriptor.http() + "; nothing was created");
                out.flush();
                return 0;
            }
        } catch (ConfigException e) {
            err.println("lsm-server: " + e.getMessage());
            err.flush();
            return 2;
        } catch (IOException e) {
            err.println("lsm-server: cannot read " + config + ": " + e);
            err.flush();
            return 2;
        }
        for (String note : descriptor.notes()) {
            err.println("lsm-server: note: " + note);
        }
        err.flush();
        NodeServer server;
        try {
            server = NodeServer.start(descriptor);
        } catch (ConfigException e) {
            err.println("lsm-server: " + e.getMessage());
            err.flush();
            return 2;
        } catch (IOException | RuntimeException e) {
            err.println("lsm-server: cannot start: " + e);
            err.flush();
            return 1;
        }
        err.println("lsm-server: node " + server.descriptor().nodeId() + " up, HTTP on " + server.httpAddress());
        err.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
                System.err.println("lsm-server: stopped (feeds drained, stores closed)");
            } catch (IOException e) {
                System.err.println("lsm-server: shutdown: " + e);
            } finally {
                stopped.countDown();
            }
        }, "lsm-server-shutdown"));
        stopped.await();
        return 0;
    }
}
