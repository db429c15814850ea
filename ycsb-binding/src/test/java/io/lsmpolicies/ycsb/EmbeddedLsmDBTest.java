package io.lsmpolicies.ycsb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.ycsb.common.RecordBytesFixture;
import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** The embedded DB's operations and its sharing of one store among the DB instances of several threads. */
@Timeout(60)
class EmbeddedLsmDBTest {
    @TempDir
    Path tmp;

    private Properties props(Path dir, String... more) {
        Properties p = new Properties();
        p.setProperty("lsm.dir", dir.toString());
        p.setProperty("lsm.memtable.size", "64KB");
        p.setProperty("lsm.policy", "binomial:k=3");
        for (int i = 0; i < more.length; i += 2) {
            p.setProperty(more[i], more[i + 1]);
        }
        return p;
    }

    private static DB db(Properties p) throws DBException {
        DB db = new LsmDB();
        db.setProperties(p);
        db.init();
        return db;
    }

    static Map<String, ByteIterator> values(String... fieldValue) {
        Map<String, ByteIterator> m = new HashMap<>();
        for (int i = 0; i < fieldValue.length; i += 2) {
            m.put(fieldValue[i], new StringByteIterator(fieldValue[i + 1]));
        }
        return m;
    }

    static Map<String, ByteIterator> fields10(String tag) {
        Map<String, ByteIterator> m = new HashMap<>();
        for (int f = 0; f < 10; f++) {
            m.put("field" + f, new StringByteIterator(tag + "-" + f));
        }
        return m;
    }

    static Map<String, String> read(DB db, String key, Set<String> fields) {
        Map<String, ByteIterator> out = new HashMap<>();
        Status s = db.read("usertable", key, fields, out);
        if (s != Status.OK) {
            return null;
        }
        Map<String, String> r = new HashMap<>();
        out.forEach((k, v) -> r.put(k, new String(v.toArray(), StandardCharsets.UTF_8)));
        return r;
    }

    @Test
    void clientThreadsShareOneStoreAndTheLastCleanupClosesIt() throws Exception {
        Path dir = tmp.resolve("db");
        int threads = 4;
        int perThread = 500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<DB>> inits = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                inits.add(pool.submit(() -> db(props(dir))));
            }
            List<DB> dbs = new ArrayList<>();
            for (Future<DB> f : inits) {
                dbs.add(f.get());
            }
            assertThat(SharedStores.references(dir)).isEqualTo(threads);

            List<Future<Void>> writes = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                DB db = dbs.get(t);
                int thread = t;
                writes.add(pool.submit((Callable<Void>) () -> {
                    for (int i = 0; i < perThread; i++) {
                        String key = "user" + thread + "-" + i;
                        assertThat(db.insert("usertable", key, fields10(key))).isEqualTo(Status.OK);
                    }
                    return null;
                }));
            }
            for (Future<Void> f : writes) {
                f.get();
            }
            // every instance sees every thread's records
            for (DB db : dbs) {
                for (int t = 0; t < threads; t++) {
                    assertThat(read(db, "user" + t + "-7", null)).containsEntry("field3", "user" + t + "-7-3")
                            .hasSize(10);
                }
            }
            for (int t = 0; t < threads - 1; t++) {
                dbs.get(t).cleanup();
            }
            assertThat(SharedStores.references(dir)).isEqualTo(1);
            assertThat(read(dbs.get(threads - 1), "user0-1", Set.of("field0"))).containsExactly(
                    Map.entry("field0", "user0-1-0"));
            dbs.get(threads - 1).cleanup();
            assertThat(SharedStores.references(dir)).isZero();
        } finally {
            pool.shutdownNow();
        }
        // closed: the directory is free, and it holds every record
        try (LsmStore s = LsmStore.open(dir, StoreOptions.builder().policy("binomial:k=3").build());
             StoreIterator it = s.scan(null, null)) {
            int n = 0;
            while (it.hasNext()) {
                it.next();
                n++;
            }
            assertThat(n).isEqualTo(threads * perThread);
        }
        DB again = db(props(dir)); // and a new init opens it again
        assertThat(read(again, "user3-499", null)).hasSize(10);
        again.cleanup();
    }

    @Test
    void concurrentUpdatesOfDifferentFieldsOfOneRecordAreAllKept() throws Exception {
        Path dir = tmp.resolve("db");
        int threads = 4;
        int rounds = 300;
        List<DB> dbs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            dbs.add(db(props(dir)));
        }
        assertThat(dbs.get(0).insert("usertable", "hot", fields10("hot"))).isEqualTo(Status.OK);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                DB db = dbs.get(t);
                String field = "field" + t;
                done.add(pool.submit((Callable<Void>) () -> {
                    for (int r = 0; r < rounds; r++) {
                        assertThat(db.update("usertable", "hot", values(field, field + "@" + r)))
                                .isEqualTo(Status.OK);
                    }
                    return null;
                }));
            }
            for (Future<Void> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        // a read-modify-write that raced another would have put back an old value of the other thread's field
        Map<String, String> rec = read(dbs.get(0), "hot", null);
        for (int t = 0; t < threads; t++) {
            assertThat(rec).containsEntry("field" + t, "field" + t + "@" + (rounds - 1));
        }
        for (int f = threads; f < 10; f++) {
            assertThat(rec).containsEntry("field" + f, "hot-" + f);
        }
        for (DB db : dbs) {
            db.cleanup();
        }
    }

    @Test
    void readScanUpdateAndDeleteFollowYcsbsContract() throws Exception {
        DB db = db(props(tmp.resolve("db")));
        for (int i = 0; i < 50; i++) {
            String key = String.format("user%02d", i);
            assertThat(db.insert("usertable", key, fields10(key))).isEqualTo(Status.OK);
        }
        assertThat(read(db, "user07", Set.of("field1", "field9", "nofield")))
                .containsOnly(Map.entry("field1", "user07-1"), Map.entry("field9", "user07-9"));
        assertThat(read(db, "absent", null)).isNull();
        assertThat(db.read("usertable", "absent", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);

        // an update of some fields keeps the others; a new field is added
        assertThat(db.update("usertable", "user07", values("field1", "new", "extra", "x"))).isEqualTo(Status.OK);
        assertThat(read(db, "user07", null)).hasSize(11).containsEntry("field1", "new")
                .containsEntry("field2", "user07-2").containsEntry("extra", "x");
        // an update of an absent record writes nothing
        assertThat(db.update("usertable", "absent", values("field1", "v"))).isEqualTo(Status.NOT_FOUND);
        assertThat(read(db, "absent", null)).isNull();
        // an update of every field of the schema replaces the record, also an absent one (the feed's upsert)
        assertThat(db.update("usertable", "user08", fields10("whole"))).isEqualTo(Status.OK);
        assertThat(read(db, "user08", null)).hasSize(10).containsEntry("field0", "whole-0");
        assertThat(db.update("usertable", "user99", fields10("whole"))).isEqualTo(Status.OK);
        assertThat(read(db, "user99", null)).hasSize(10);

        Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
        assertThat(db.scan("usertable", "user10", 5, Set.of("field0"), rows)).isEqualTo(Status.OK);
        assertThat(rows).hasSize(5);
        for (int i = 0; i < 5; i++) {
            assertThat(rows.get(i)).containsOnlyKeys("field0");
            assertThat(rows.get(i).get("field0").toString()).isEqualTo(String.format("user%02d-0", 10 + i));
        }

        assertThat(db.delete("usertable", "user11")).isEqualTo(Status.OK);
        assertThat(read(db, "user11", null)).isNull();
        rows.clear();
        assertThat(db.scan("usertable", "user10", 3, null, rows)).isEqualTo(Status.OK);
        assertThat(rows).extracting(r -> r.get("field0").toString())
                .containsExactly("user10-0", "user12-0", "user13-0");
        assertThat(rows.get(0)).hasSize(10).doesNotContainKey(YcsbRecord.KEY_FIELD);
        db.cleanup();
    }

    @Test
    void otherSettingsForAStoreOpenInThisProcessAreRefused() throws Exception {
        Path dir = tmp.resolve("db");
        DB first = db(props(dir));
        DBException e = catchThrowableOfType(DBException.class,
                () -> db(props(dir, "lsm.policy", "binomial:k=4")));
        assertThat(e).hasMessageContaining("lsm.dir").hasMessageContaining("lsm.policy=binomial:k=3")
                .hasMessageContaining("lsm.policy=binomial:k=4");
        assertThat(SharedStores.references(dir)).isEqualTo(1);
        first.cleanup();
        assertThat(SharedStores.references(dir)).isZero();
    }

    @Test
    void anExistingStoreIsOpenedWithItsRecordedPolicyWhenLsmPolicyIsNotGiven() throws Exception {
        Path dir = tmp.resolve("db");
        DB first = db(props(dir)); // binomial:k=3
        assertThat(first.insert("usertable", "a", fields10("a"))).isEqualTo(Status.OK);
        first.cleanup();
        Properties noPolicy = props(dir);
        noPolicy.remove("lsm.policy");
        DB second = db(noPolicy);
        assertThat(second.insert("usertable", "b", fields10("b"))).isEqualTo(Status.OK);
        second.cleanup();
        assertThat(io.lsmpolicies.lsm.LsmStore.storedOptions(dir).orElseThrow().policy().toString())
                .as("not switched to the default").isEqualTo("binomial:k=3");
        Properties paramOnly = props(dir, "lsm.policy.k", "5");
        paramOnly.remove("lsm.policy");
        DB third = db(paramOnly); // the recorded policy's name with the given parameter: a switch
        third.cleanup();
        assertThat(io.lsmpolicies.lsm.LsmStore.storedOptions(dir).orElseThrow().policy().toString())
                .isEqualTo("binomial:k=5");
    }

    /** The bytes every binding stores (RecordBytesFixture); ycsb-rocksdb checks RocksDB against the same. */
    @Test
    void recordsAreStoredAsTheKeyAndValueBytesEveryBindingStores() throws Exception {
        Path dir = tmp.resolve("same-bytes");
        Properties p = new Properties();
        p.setProperty("lsm.dir", dir.toString());
        DB db = new EmbeddedLsmDB();
        db.setProperties(p);
        db.init();
        RecordBytesFixture.write(db);
        try (LsmStore s = LsmStore.open(dir, StoreOptions.defaults())) {
            for (Map.Entry<String, byte[][]> e : RecordBytesFixture.expected().entrySet()) {
                assertThat(s.get(e.getValue()[0])).as(e.getKey()).isEqualTo(e.getValue()[1]);
            }
        }
    }
}
