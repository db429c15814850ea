package io.lsmpolicies.feeds.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/lsm-server --config FILE [--create-iodevices]}: starts a {@link NodeServer} from a cluster descriptor
 * (creating missing iodevice directories only if asked) and runs until
 * SIGTERM or SIGINT, when a shutdown hook stops the feeds (draining them) and closes the stores (flushing them).
 * Exit status 2: a bad descriptor (the message names the line); 1: the server could not start.
 */
public final class LsmServer {
    private LsmServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        boolean create = args.length == 3 && args[2].equals("--create-iodevices");
        if ((args.length != 2 && !create) || !args[0].equals("--config")) {
            System.err.println("usage: lsm-server --config FILE [--create-iodevices]");
            System.exit(2);
        }
        NodeServer server;
        try {
            server = NodeServer.start(DescriptorParser.parse(Path.of(args[1]), create));
        } catch (ConfigException e) {
            System.err.println("lsm-server: " + e.getMessage());
            System.exit(2);
            return;
        } catch (IOException | RuntimeException e) {
            System.err.println("lsm-server: cannot start: " + e);
            System.exit(1);
            return;
        }
        System.err.println("lsm-server: node " + server.descriptor().nodeId() + " up, HTTP on "
                + server.httpAddress());
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
    }
}
