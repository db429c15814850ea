package io.lsmpolicies.ycsb.hyracks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Vector;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * The binding in-process: read, scan, update and delete semantics on a real Hyracks LSM B-tree whose memory
 * components hold a handful of records (so every operation crosses flushes and merges), the bytes stored, sharing
 * one index between DB instances, atomic read-modify-writes, reopening, and the emulated device.
 */
@Timeout(120)
class HyracksLsmDBTest {
    private static final int FIELDS = 10;

    @TempDir
    Path dir;

    /** 16 KB of 4 KB pages per memory component: a few 1 KB records per flush; Binomial k = 3 merges often. */
    private Properties small(String... more) {
        List<String> kv = new ArrayList<>(List.of("hyracks.memtable.size", "16KB", "hyracks.policy", "binomial:k=3"));
        kv.addAll(List.of(more));
        return Dbs.props(dir, kv.toArray(String[]::new));
    }

    private static Map<String, ByteIterator> record(String key, String version) {
        Map<String, ByteIterator> values = new HashMap<>();
        for (int f = 0; f < FIELDS; f++) {
            values.put("field" + f, new StringByteIterator(pad(key + ":" + f + ":" + version)));
        }
        return values;
    }

    private static String pad(String s) {
        StringBuilder b = new StringBuilder(s);
        while (b.length() < 100) {
            b.append('.');
        }
        return b.toString();
    }

    private static String text(ByteIterator it) {
        return new String(it.toArray(), StandardCharsets.UTF_8);
    }

    @Test
    void readScanUpdateAndDeleteAcrossFlushesAndMerges() throws Exception {
        HyracksLsmDB db = Dbs.open(small());
        TreeSet<String> keys = new TreeSet<>();
        for (int i = 0; i < 300; i++) {
            String key = "user" + i;
            keys.add(key);
            assertThat(db.insert("usertable", key, record(key, "v1"))).isEqualTo(Status.OK);
        }
        FlushTrace trace = db.tree().trace();
        assertThat(trace.rows()).as("flushes so far").hasSizeGreaterThan(20);
        assertThat(trace.merges()).as("merges so far").isPositive();

        Map<String, ByteIterator> all = new HashMap<>();
        assertThat(db.read("usertable", "user7", null, all)).isEqualTo(Status.OK);
        assertThat(all).hasSize(FIELDS);
        assertThat(text(all.get("field3"))).startsWith("user7:3:v1");
        Map<String, ByteIterator> two = new HashMap<>();
        assertThat(db.read("usertable", "user250", Set.of("field0", "field9", "nofield"), two)).isEqualTo(Status.OK);
        assertThat(two.keySet()).containsExactlyInAnyOrder("field0", "field9");
        assertThat(db.read("usertable", "user300", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);

        // update one field: read-modify-write keeps the others
        assertThat(db.update("usertable", "user7", Map.of("field3", new StringByteIterator("new")))).isEqualTo(
                Status.OK);
        Map<String, ByteIterator> after = new HashMap<>();
        db.read("usertable", "user7", null, after);
        assertThat(text(after.get("field3"))).isEqualTo("new");
        assertThat(text(after.get("field4"))).startsWith("user7:4:v1");
        assertThat(after).hasSize(FIELDS);
        // a partial update of an absent record writes nothing; a whole-record update writes without reading
        assertThat(db.update("usertable", "user999", Map.of("field1", new StringByteIterator("x"))))
                .isEqualTo(Status.NOT_FOUND);
        assertThat(db.read("usertable", "user999", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
        assertThat(db.update("usertable", "user998", record("user998", "v2"))).isEqualTo(Status.OK);
        keys.add("user998");
        Map<String, ByteIterator> whole = new HashMap<>();
        assertThat(db.read("usertable", "user998", null, whole)).isEqualTo(Status.OK);
        assertThat(text(whole.get("field0"))).startsWith("user998:0:v2");

        // delete: gone at once, and after the rest is flushed and merged; deleting an absent key is OK
        assertThat(db.delete("usertable", "user10")).isEqualTo(Status.OK);
        assertThat(db.delete("usertable", "user100")).isEqualTo(Status.OK);
        assertThat(db.delete("usertable", "nobody")).isEqualTo(Status.OK);
        keys.remove("user10");
        keys.remove("user100");
        assertThat(db.read("usertable", "user10", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
        for (int i = 300; i < 400; i++) { // more flushes and merges over the antimatter entries
            db.insert("usertable", "later" + i, record("later" + i, "v1"));
            keys.add("later" + i);
        }
        assertThat(db.read("usertable", "user10", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);

        // scan: in key order (our KeyEncoder's, string order for these keys), from the start key, at most n
        assertThat(scanKeys(db, "user1", 25)).isEqualTo(keys.tailSet("user1").stream().limit(25).toList());
        assertThat(scanKeys(db, "user", 10_000)).isEqualTo(List.copyOf(keys.tailSet("user")));
        assertThat(scanKeys(db, "zzz", 10)).isEmpty();
        Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
        assertThat(db.scan("usertable", "user7", 1, null, rows)).isEqualTo(Status.OK);
        assertThat(text(rows.get(0).get("field3"))).isEqualTo("new");
        db.cleanup();
        assertThat(SharedTrees.references(dir)).isZero();

        // reopened: everything as left, deletions included
        HyracksLsmDB again = Dbs.open(small());
        assertThat(scanKeys(again, "", 10_000)).isEqualTo(List.copyOf(keys));
        Map<String, ByteIterator> reread = new HashMap<>();
        assertThat(again.read("usertable", "user7", null, reread)).isEqualTo(Status.OK);
        assertThat(text(reread.get("field3"))).isEqualTo("new");
        again.cleanup();
    }

    /** The key and value bytes are our engine's: KeyEncoder's key, ValueCodec's record ({@link YcsbRecord}). */
    @Test
    void storesExactlyOurEnginesKeyAndValueBytes() throws Exception {
        HyracksLsmDB db = Dbs.open(small());
        db.insert("usertable", "user42", record("user42", "v1"));
        Map<String, ByteIterator> copy = record("user42", "v1"); // a ByteIterator is read once
        db.cleanup();
        try (HyracksTree tree = HyracksTree.open(HyracksConfig.parse(small()));
                TreeSession session = tree.session()) {
            assertThat(session.get(YcsbRecord.key("user42")))
                    .isEqualTo(YcsbRecord.encode(YcsbRecord.of("user42", copy)));
            assertThat(session.get("user42".getBytes(StandardCharsets.UTF_8))).as("the raw string is not the key")
                    .isNull();
        }
    }

    @Test
    void clientThreadsShareOneIndexAndTheirReadModifyWritesLoseNothing() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<HyracksLsmDB>> opened = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                opened.add(pool.submit(() -> Dbs.open(small())));
            }
            List<HyracksLsmDB> dbs = new ArrayList<>();
            for (Future<HyracksLsmDB> f : opened) {
                dbs.add(f.get());
            }
            assertThat(SharedTrees.references(dir)).isEqualTo(threads);
            assertThatThrownBy(() -> Dbs.open(small("hyracks.memtable.size", "32KB")))
                    .isInstanceOf(DBException.class)
                    .hasMessageContaining("every client thread must use the same settings");
            assertThat(dbs.get(0).insert("usertable", "shared", record("shared", "v0"))).isEqualTo(Status.OK);
            List<Future<Void>> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                HyracksLsmDB db = dbs.get(t);
                String field = "field" + t;
                writers.add(pool.submit((Callable<Void>) () -> {
                    for (int i = 0; i < 100; i++) {
                        assertThat(db.update("usertable", "shared", Map.of(field, new StringByteIterator(
                                field + "=" + i)))).isEqualTo(Status.OK);
                        db.insert("usertable", field + "-filler-" + i, record(field + i, "x")); // flushes
                    }
                    return null;
                }));
            }
            for (Future<Void> w : writers) {
                w.get();
            }
            Map<String, ByteIterator> r = new TreeMap<>();
            assertThat(dbs.get(1).read("usertable", "shared", null, r)).isEqualTo(Status.OK);
            for (int t = 0; t < threads; t++) {
                assertThat(text(r.get("field" + t))).isEqualTo("field" + t + "=99");
            }
            for (int t = 0; t < threads; t++) {
                dbs.get(t).cleanup();
                assertThat(SharedTrees.references(dir)).isEqualTo(threads - t - 1);
            }
            assertThatCode(() -> HyracksTree.open(HyracksConfig.parse(small())).close())
                    .as("the directory's lock is free again").doesNotThrowAnyException();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theDirectoryIsLockedWhileOpen() throws Exception {
        try (HyracksTree tree = HyracksTree.open(HyracksConfig.parse(small()))) {
            assertThat(tree.diskComponents()).isEmpty();
            assertThatThrownBy(() -> HyracksTree.open(HyracksConfig.parse(small())))
                    .hasMessageContaining("is open in another process or DB (LOCK is locked)");
        }
    }

    @Test
    void anEmulatedSsdMakesIoWaitAndNoneDoesNot() throws Exception {
        for (String device : List.of("none", "ssd")) {
            Path d = dir.resolve(device);
            Properties p = Dbs.props(d, "hyracks.memtable.size", "16KB", "hyracks.device", device);
            try (HyracksTree tree = HyracksTree.open(HyracksConfig.parse(p)); TreeSession s = tree.session()) {
                for (int i = 0; i < 100; i++) {
                    s.upsert(YcsbRecord.key("k" + i), new byte[1000]);
                }
                tree.settle();
                assertThat(tree.trace().rows()).hasSizeGreaterThan(10);
                if (device.equals("none")) {
                    assertThat(tree.throttledNanos()).isZero();
                } else {
                    // every page written and every force costs at least the SSD's 80 us
                    assertThat(tree.throttledNanos()).isGreaterThan(tree.trace().rows().size() * 80_000L);
                }
            }
        }
    }

    private static List<String> scanKeys(HyracksLsmDB db, String from, int n) {
        Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
        assertThat(db.scan("usertable", from, n, Set.of(YcsbRecord.KEY_FIELD), rows)).isEqualTo(Status.OK);
        List<String> keys = new ArrayList<>();
        for (HashMap<String, ByteIterator> row : rows) {
            keys.add(text(row.get(YcsbRecord.KEY_FIELD)));
        }
        return keys;
    }
}
