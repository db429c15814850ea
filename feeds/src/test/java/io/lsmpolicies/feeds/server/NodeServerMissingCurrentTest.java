package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.StoreRepair;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition whose store lost CURRENT: the node refuses to start, naming the files and the repair command, and
 * deletes nothing (it used to start the partition afresh over its tables, deleting every one of them); after
 * {@code bin/lsm repair} the node starts with every record.
 */
@Timeout(60)
class NodeServerMissingCurrentTest {
    @TempDir
    Path tmp;

    private NodeDescriptor descriptor() throws Exception {
        String text = "[nc/nc1]\n"
                + "iodevices = " + tmp.resolve("io0") + "\n"
                + "[nc]\n"
                + "storage.memorycomponent.globalbudget = 64KB\n"
                + "storage.wal.mode = sync\n"
                + "[http]\nport = 0\n"
                + "[dataset/a]\nprimary-key = id\n";
        return DescriptorParser.parse(Files.writeString(tmp.resolve("node.conf"), text, StandardCharsets.UTF_8), true);
    }

    private static long count(LsmStore store) throws IOException {
        long n = 0;
        try (StoreIterator it = store.scan(null, null)) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    private static TreeMap<String, Long> files(Path dir) throws IOException {
        TreeMap<String, Long> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (!p.getFileName().toString().equals(LsmStore.LOCK_FILE)) {
                    out.put(p.getFileName().toString(), Files.size(p));
                }
            }
        }
        return out;
    }

    @Test
    void aPartitionWithoutCurrentStopsTheStartAndLosesNothing() throws Exception {
        try (NodeServer node = NodeServer.start(descriptor())) {
            LsmStore store = node.dataset("a").partitions().get(0);
            for (int i = 0; i < 3000; i++) {
                store.put(("key" + i).getBytes(StandardCharsets.UTF_8), ("value " + i).repeat(3)
                        .getBytes(StandardCharsets.UTF_8));
            }
        }
        Path dir = tmp.resolve("io0").resolve("a");
        Files.delete(dir.resolve("CURRENT"));
        TreeMap<String, Long> before = files(dir);
        assertThat(before.keySet()).anyMatch(n -> n.endsWith(".sst"));

        assertThatThrownBy(() -> NodeServer.start(descriptor())).isInstanceOf(CorruptionException.class)
                .hasMessageContaining("no CURRENT").hasMessageContaining("bin/lsm repair");
        assertThat(files(dir)).isEqualTo(before);

        StoreRepair.repair(dir, StoreOptions.defaults());
        try (NodeServer node = NodeServer.start(descriptor())) {
            assertThat(count(node.dataset("a").partitions().get(0))).isEqualTo(3000);
        }
    }
}
