package io.lsmpolicies.ycsb;

import static io.lsmpolicies.ycsb.EmbeddedLsmDBTest.fields10;
import static io.lsmpolicies.ycsb.EmbeddedLsmDBTest.read;
import static io.lsmpolicies.ycsb.EmbeddedLsmDBTest.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.lsmpolicies.feeds.server.NodeServer;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.records.KeyEncoder;
import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The feed DB against a real node server in-process: a store loaded embedded is served by the node and the other
 * way round (the same bytes), updates are read-modify-writes through the HTTP API, long scans page through the
 * range endpoint, deletes go through the HTTP API (with the server's token if it has one), and a bad address,
 * dataset or ack setting is reported.
 */
@Timeout(60)
class FeedLsmDBTest {
    @TempDir
    Path tmp;

    private static DB db(String... keyValues) throws DBException {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        DB db = new LsmDB();
        db.setProperties(p);
        db.init();
        return db;
    }

    private static DB feedDb(NodeServer s, String feed, String... more) throws DBException {
        String[] base = {"lsm.mode", "feed", "lsm.http.address", NodeServers.http(s), "lsm.feed.address",
            NodeServers.feed(s, feed), "lsm.feed.name", feed, "lsm.feed.acks", "true", "fieldcount", "10"};
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return db(all);
    }

    @Test
    void aStoreLoadedEmbeddedIsServedByTheNodeAndTheOtherWayRound() throws Exception {
        Path partition = tmp.resolve("io0").resolve("usertable"); // the node's one partition of usertable
        int records = 10_100; // more than one page of the range endpoint (10,000)
        DB embedded = db("lsm.dir", partition.toString(), "lsm.memtable.size", "256KB", "lsm.policy", "prefix");
        for (int i = 0; i < records; i++) {
            String key = String.format("user%05d", i);
            assertThat(embedded.insert("usertable", key, values("field0", key + "-0", "field1", key + "-1")))
                    .isEqualTo(Status.OK);
        }
        embedded.cleanup();

        Map<String, ByteIterator> inserted = fields10("fed");
        byte[] expected = YcsbRecord.encode(YcsbRecord.of("userfed", fields10("fed")));
        try (NodeServer server = NodeServers.start(tmp, 1, true, false)) {
            DB feed = feedDb(server, "ycsb");
            assertThat(read(feed, "user00042", null)).containsOnly(Map.entry("field0", "user00042-0"),
                    Map.entry("field1", "user00042-1"));
            assertThat(read(feed, "user00042", java.util.Set.of("field1"))).containsOnly(
                    Map.entry("field1", "user00042-1"));
            assertThat(feed.read("usertable", "nobody", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);

            Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
            assertThat(feed.scan("usertable", "user00050", 10_020, null, rows)).isEqualTo(Status.OK);
            assertThat(rows).hasSize(10_020);
            for (int i = 0; i < rows.size(); i++) {
                assertThat(rows.get(i).get("field0").toString()).isEqualTo(String.format("user%05d-0", 50 + i));
            }
            rows.clear();
            assertThat(feed.scan("usertable", "user10090", 50, null, rows)).isEqualTo(Status.OK);
            assertThat(rows).hasSize(10); // the last ten records

            // read-modify-write through the API and the feed; with acks the next read sees it
            assertThat(feed.update("usertable", "user00042", values("field1", "changed", "field2", "added")))
                    .isEqualTo(Status.OK);
            assertThat(read(feed, "user00042", null)).containsOnly(Map.entry("field0", "user00042-0"),
                    Map.entry("field1", "changed"), Map.entry("field2", "added"));
            assertThat(feed.update("usertable", "nobody", values("field1", "x"))).isEqualTo(Status.NOT_FOUND);
            assertThat(feed.insert("usertable", "userfed", inserted)).isEqualTo(Status.OK);
            assertThat(read(feed, "userfed", null)).hasSize(10).containsEntry("field9", "fed-9");

            assertThat(feed.delete("usertable", "user00001")).isEqualTo(Status.OK);
            assertThat(feed.read("usertable", "user00001", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
            assertThat(feed.delete("usertable", "user00001")).as("an absent key").isEqualTo(Status.OK);
            // a delete right after an acknowledged insert of the same key
            assertThat(feed.insert("usertable", "user00001", fields10("back"))).isEqualTo(Status.OK);
            assertThat(feed.delete("usertable", "user00001")).isEqualTo(Status.OK);
            assertThat(feed.read("usertable", "user00001", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
            feed.cleanup();
        }

        // the node closed the store: embedded mode reads what the feed wrote, byte for byte as it would write it
        try (LsmStore s = LsmStore.open(partition, StoreOptions.builder().policy("prefix").build())) {
            assertThat(s.get(KeyEncoder.of("userfed"))).isEqualTo(expected);
        }
        DB again = db("lsm.dir", partition.toString(), "lsm.policy", "prefix");
        assertThat(read(again, "user00042", null)).containsEntry("field1", "changed").containsEntry("field2", "added");
        assertThat(read(again, "userfed", null)).hasSize(10);
        again.cleanup();
    }

    @Test
    void badAddressesDatasetsAndAckSettingsAreReported() throws Exception {
        try (NodeServer server = NodeServers.start(tmp, 2, true, true)) {
            DBException noDataset = catchThrowableOfType(DBException.class,
                    () -> feedDb(server, "ycsb", "lsm.dataset", "nosuch"));
            assertThat(noDataset).hasMessageContaining("lsm.dataset").hasMessageContaining("no dataset 'nosuch'");
            DBException noFeedName = catchThrowableOfType(DBException.class,
                    () -> feedDb(server, "ycsb", "lsm.feed.name", "nosuch"));
            assertThat(noFeedName).hasMessageContaining("lsm.feed.name").hasMessageContaining("no feed 'nosuch'");

            int closed;
            try (ServerSocket socket = new ServerSocket(0)) {
                closed = socket.getLocalPort();
            }
            DBException noFeed = catchThrowableOfType(DBException.class,
                    () -> db("lsm.mode", "feed", "lsm.http.address", NodeServers.http(server),
                            "lsm.feed.address", "127.0.0.1:" + closed));
            assertThat(noFeed).hasMessageContaining("lsm.feed.address").hasMessageContaining("no socket feed");

            // lsm.feed.acks=true against a feed that does not acknowledge: the write fails after the timeout
            DB wrongAcks = feedDb(server, "silent", "lsm.timeout.ms", "300");
            long t0 = System.nanoTime();
            assertThat(wrongAcks.insert("usertable", "user1", fields10("x"))).isEqualTo(Status.ERROR);
            assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(300_000_000L);
            wrongAcks.cleanup();

            // without acks the same feed takes it: the write returns once buffered, and cleanup returns once the
            // feed has applied the connection's records
            DB silent = feedDb(server, "silent", "lsm.feed.acks", "false");
            for (int i = 0; i < 500; i++) {
                assertThat(silent.insert("usertable", "user-s" + i, fields10("y"))).isEqualTo(Status.OK);
            }
            // a delete does not overtake the connection's writes still in flight: it waits until they are applied
            assertThat(silent.insert("usertable", "user-s-last", fields10("z"))).isEqualTo(Status.OK);
            assertThat(silent.delete("usertable", "user-s-last")).isEqualTo(Status.OK);
            assertThat(silent.read("usertable", "user-s-last", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
            silent.cleanup();
            assertThat(server.feed("silent").stats().records()).isEqualTo(1 + 501);
        }
    }

    @Test
    void aServerWithATokenTakesDeletesOnlyWithIt() throws Exception {
        String token = "ycsb-test-token-0123456789";
        try (NodeServer server = NodeServers.start(tmp, 1, true, false, "token = " + token + "\n")) {
            DB without = feedDb(server, "ycsb");
            assertThat(without.insert("usertable", "user1", fields10("a"))).isEqualTo(Status.OK);
            assertThat(without.delete("usertable", "user1")).isEqualTo(Status.ERROR); // 401: reads work, deletes not
            assertThat(read(without, "user1", null)).containsEntry("field0", "a-0");
            without.cleanup();
            DB with = feedDb(server, "ycsb", "lsm.http.token", token);
            assertThat(with.delete("usertable", "user1")).isEqualTo(Status.OK);
            assertThat(with.read("usertable", "user1", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
            with.cleanup();
            DB wrong = feedDb(server, "ycsb", "lsm.http.token", token + "x");
            assertThat(wrong.delete("usertable", "user2")).isEqualTo(Status.ERROR);
            wrong.cleanup();
        }
    }
}
