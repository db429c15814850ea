package io.lsmpolicies.ycsb;

import io.lsmpolicies.feeds.server.DescriptorParser;
import io.lsmpolicies.feeds.server.NodeServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Real node servers for tests: started in-process on 127.0.0.1 (ports 0) from a descriptor file. */
final class NodeServers {
    private NodeServers() {
    }

    /**
     * Starts a node with {@code iodevices} partitions under {@code root}, dataset {@code usertable} keyed by
     * YCSB_KEY (prefix policy, small MemTables so that records reach SSTables), WAL async, and feed {@code ycsb}
     * ({@code acks} as given); with {@code silentFeed}, a second feed {@code silent} on the same dataset without
     * acks.
     */
    static NodeServer start(Path root, int iodevices, boolean acks, boolean silentFeed) throws Exception {
        return start(root, iodevices, acks, silentFeed, "");
    }

    /** As {@link #start(Path, int, boolean, boolean)}, with more lines ({@code http}) in the [http] section. */
    static NodeServer start(Path root, int iodevices, boolean acks, boolean silentFeed, String http)
            throws Exception {
        List<String> dirs = new ArrayList<>();
        for (int i = 0; i < iodevices; i++) {
            dirs.add(root.resolve("io" + i).toString());
        }
        String text = "[nc/nc1]\n"
                + "iodevices = " + String.join(", ", dirs) + "\n"
                + "[nc]\n"
                + "storage.memorycomponent.globalbudget = " + (128 * iodevices) + "KB\n"
                + "storage.wal.mode = async\n"
                + "[http]\n"
                + "address = 127.0.0.1\n"
                + "port = 0\n"
                + http
                + "[dataset/usertable]\n"
                + "primary-key = YCSB_KEY\n"
                + "merge-policy = {\"name\": \"prefix\", \"parameters\": {\"max-mergable-component-size\": 1048576,"
                + " \"max-tolerance-component-count\": 3}}\n"
                + "[feed/ycsb]\n"
                + "dataset = usertable\n"
                + "format = adm\n"
                + "addresses = 127.0.0.1:0\n"
                + "acks = " + acks + "\n"
                + (silentFeed ? "[feed/silent]\ndataset = usertable\naddresses = 127.0.0.1:0\n" : "");
        Path conf = Files.writeString(root.resolve("node-" + System.nanoTime() + ".conf"), text,
                StandardCharsets.UTF_8);
        return NodeServer.start(DescriptorParser.parse(conf, true));
    }

    static String http(NodeServer s) {
        return "127.0.0.1:" + s.httpAddress().getPort();
    }

    static String feed(NodeServer s, String name) {
        return "127.0.0.1:" + s.feedAddresses(name).get(0).getPort();
    }
}
