package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.feeds.Partition;
import io.lsmpolicies.feeds.PartitionUnavailableException;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.StoreRepair;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition whose store lost CURRENT: the node starts without it (the other dataset is served), the partition's
 * error names the files and the repair command, and nothing is deleted (the node used to start the partition
 * afresh over its tables, deleting every one of them); after {@code bin/lsm repair}, run while the node is up
 * (the partition holds no lock), reopening the partition brings every record back without a restart.
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
                + "partition.reopen.delay = off\n" // the repair below must not race a retry for the lock
                + "[http]\nport = 0\n"
                + "[dataset/a]\nprimary-key = id\n"
                + "[dataset/b]\nprimary-key = id\n";
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
    void aPartitionWithoutCurrentIsLeftDownLosesNothingAndIsReopenedAfterRepair() throws Exception {
        try (NodeServer node = NodeServer.start(descriptor())) {
            LsmStore store = node.dataset("a").stores().get(0);
            for (int i = 0; i < 3000; i++) {
                store.put(("key" + i).getBytes(StandardCharsets.UTF_8), ("value " + i).repeat(3)
                        .getBytes(StandardCharsets.UTF_8));
            }
        }
        Path dir = tmp.resolve("io0").resolve("a");
        Files.delete(dir.resolve("CURRENT"));
        TreeMap<String, Long> before = files(dir);
        assertThat(before.keySet()).anyMatch(n -> n.endsWith(".sst"));

        try (NodeServer node = NodeServer.start(descriptor())) {
            Partition a = node.dataset("a").partitions().get(0);
            assertThat(a.status().state()).isEqualTo(Partition.State.DOWN);
            assertThat(a.status().error()).contains("no CURRENT", "bin/lsm repair");
            assertThatThrownBy(a::store).isInstanceOf(PartitionUnavailableException.class)
                    .hasMessageContaining("dataset a").hasMessageContaining("no CURRENT");
            assertThat(node.dataset("b").stores().get(0).writeFailure()).isEmpty();
            assertThat(files(dir)).isEqualTo(before);

            StoreRepair.repair(dir, StoreOptions.defaults());
            assertThat(a.reopen(Duration.ofSeconds(10))).isTrue();
            assertThat(a.status().state()).isEqualTo(Partition.State.OPEN);
            assertThat(count(a.store())).isEqualTo(3000);
        }
    }
}
