package io.lsmpolicies.ycsb;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.feeds.server.NodeServer;
import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.ycsb.common.YcsbClient;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The feed binding through YCSB's own Client (a child JVM) against a real node server started in-process from a
 * descriptor (two partitions, feed with acks): a load streamed without waiting for acks (complete in the store
 * when YCSB exits), then a run of workload A
 * with {@code dataintegrity=true} that waits for each write's ack, so every read sees the writes before it; then
 * workload E's scans through the range endpoint.
 */
@Timeout(180)
class FeedWorkloadTest {
    private static final int RECORDS = 2000;
    private static final int OPERATIONS = 2000;

    @TempDir
    Path tmp;

    @Test
    void workloadAThroughTheFeedPassesYcsbsValidation() throws Exception {
        try (NodeServer server = NodeServers.start(tmp, 2, true, false)) {
            String[] common = {"-p", "lsm.mode=feed", "-p", "lsm.http.address=" + NodeServers.http(server),
                "-p", "lsm.feed.address=" + NodeServers.feed(server, "ycsb"), "-p", "dataintegrity=true",
                "-p", "recordcount=" + RECORDS, "-p", "operationcount=" + OPERATIONS, "-threads", "4"};

            // Without acks a write returns once buffered, and each client thread's cleanup waits until the feed has
            // applied its connection's records: when YCSB exits, the load is in the store.
            YcsbClient.Result load = YcsbClient.run(LsmDB.class.getName(), true, "workloada", tmp,
                    concat(common, "-p", "lsm.feed.acks=false"));
            assertThat(load.exit()).as(load.describe()).isZero();
            assertThat(load.returns("INSERT")).as(load.describe()).isEqualTo(Map.of("Return=OK", (long) RECORDS));
            assertThat(server.feed("ycsb").stats().records()).isEqualTo(RECORDS);

            YcsbClient.Result run = YcsbClient.run(LsmDB.class.getName(), false, "workloada", tmp, concat(common, "-p", "lsm.feed.acks=true"));
            assertThat(run.exit()).as(run.describe()).isZero();
            long reads = run.count("READ", "Operations");
            long updates = run.count("UPDATE", "Operations");
            assertThat(reads + updates).isEqualTo(OPERATIONS);
            assertThat(run.returns("READ")).as(run.describe()).isEqualTo(Map.of("Return=OK", reads));
            assertThat(run.returns("UPDATE")).as(run.describe()).isEqualTo(Map.of("Return=OK", updates));
            assertThat(run.returns("VERIFY")).as(run.describe()).isEqualTo(Map.of("Return=OK", reads));
            // with acks, YCSB's run returned only after the feed applied every write
            assertThat(server.feed("ycsb").stats().records()).isEqualTo(RECORDS + updates);
            assertThat(server.feed("ycsb").stats().errorCount()).isZero();

            Set<String> expected = new TreeSet<>();
            for (int i = 0; i < RECORDS; i++) {
                expected.add(YcsbKeys.name(i, YcsbKeys.KeyOrder.HASHED));
            }
            assertThat(StoredRecords.checkAll(server.dataset("usertable").stores(), 10, 100))
                    .isEqualTo(expected);

            YcsbClient.Result scans = YcsbClient.run(LsmDB.class.getName(), false, "workloade", tmp, concat(common, "-p",
                    "lsm.feed.acks=true", "-p", "operationcount=300", "-p", "maxscanlength=20"));
            assertThat(scans.exit()).as(scans.describe()).isZero();
            long scanOps = scans.count("SCAN", "Operations");
            assertThat(scanOps).isGreaterThan(200);
            assertThat(scans.returns("SCAN")).as(scans.describe()).isEqualTo(Map.of("Return=OK", scanOps));
            assertThat(scans.returns("INSERT")).as(scans.describe())
                    .isEqualTo(Map.of("Return=OK", 300 - scanOps));
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
