package io.lsmpolicies.ycsb.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.records.KeyEncoder;
import io.lsmpolicies.ycsb.common.YcsbClient;
import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * The RocksDB peer through YCSB's own Client (a child JVM, as bin/ycsb-rocksdb runs it), in both compaction
 * styles: a load and a run of workload A with {@code dataintegrity=true} on four client threads sharing one
 * database, 64 KB MemTables so the records cross flushes and compactions. YCSB's validation must count no error,
 * the database must hold exactly the records YCSB wrote, field by field, and both runs' flush traces must keep
 * the shared contract.
 */
@Timeout(180)
class RocksDbWorkloadTest {
    private static final int RECORDS = 3000;
    private static final int OPERATIONS = 4000;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"leveled", "universal"})
    void workloadAWithDataIntegrityPassesYcsbsValidation(String compaction) throws Exception {
        Path dir = tmp.resolve("db");
        Path loadTrace = tmp.resolve("traces/load.csv");
        Path runTrace = tmp.resolve("traces/run.csv");
        String[] db = {"-p", "rocksdb.dir=" + dir, "-p", "rocksdb.compaction=" + compaction,
            "-p", "rocksdb.memtable.size=64KB", "-p", "rocksdb.block-cache=1MB", "-p", "dataintegrity=true",
            "-p", "recordcount=" + RECORDS, "-p", "operationcount=" + OPERATIONS, "-threads", "4"};

        YcsbClient.Result load = YcsbClient.run(RocksDbDB.class.getName(), true, "workloada", tmp, concat(db, "-p", "bench.trace.file=" + loadTrace));
        assertThat(load.exit()).as(load.describe()).isZero();
        assertThat(load.returns("INSERT")).as(load.describe()).isEqualTo(Map.of("Return=OK", (long) RECORDS));
        assertThat(load.out()).as("nothing but YCSB's report on stdout").doesNotContain("RocksDB");
        assertThat(load.err()).contains("RocksDB " + dir.toRealPath()).contains("WA ");

        YcsbClient.Result run = YcsbClient.run(RocksDbDB.class.getName(), false, "workloada", tmp, concat(db, "-p", "bench.trace.file=" + runTrace));
        assertThat(run.exit()).as(run.describe()).isZero();
        long reads = run.count("READ", "Operations");
        long updates = run.count("UPDATE", "Operations");
        assertThat(reads + updates).isEqualTo(OPERATIONS);
        assertThat(reads).isGreaterThan(OPERATIONS / 4);
        assertThat(updates).isGreaterThan(OPERATIONS / 4);
        assertThat(run.returns("READ")).as(run.describe()).isEqualTo(Map.of("Return=OK", reads));
        assertThat(run.returns("UPDATE")).as(run.describe()).isEqualTo(Map.of("Return=OK", updates));
        // CoreWorkload checks every read against the value it wrote: OK, UNEXPECTED_STATE (wrong) or ERROR (empty).
        assertThat(run.returns("VERIFY")).as(run.describe()).isEqualTo(Map.of("Return=OK", reads));

        // 3,000 records of ~1 KB in 64 KB MemTables: some 50 flushes, and compactions rewrite some of them
        List<io.lsmpolicies.ycsb.common.TraceFile.Row> loaded = TraceCsv.check(loadTrace, 20);
        io.lsmpolicies.ycsb.common.TraceFile.Row loadEnd = loaded.get(loaded.size() - 1);
        assertThat(loadEnd.flushedBytes()).isGreaterThan(RECORDS * 1000L);
        assertThat(loadEnd.writtenBytes()).as("compactions wrote").isGreaterThan(loadEnd.flushedBytes());
        TraceCsv.check(runTrace, 5);

        checkStored(dir);
    }

    /** Every record is stored as our engine stores it and holds the ten deterministic fields; no other key. */
    private static void checkStored(Path dir) throws Exception {
        Set<String> expected = new TreeSet<>();
        for (int i = 0; i < RECORDS; i++) {
            expected.add(YcsbKeys.name(i, YcsbKeys.KeyOrder.HASHED));
        }
        Set<String> keys = new TreeSet<>();
        RocksDB.loadLibrary();
        try (Options options = new Options();
             RocksDB db = RocksDB.openReadOnly(options, dir.toString());
             RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                AdmValue.Obj record = YcsbRecord.decode(it.value());
                String key = ((AdmValue.Str) record.get(YcsbRecord.KEY_FIELD)).value();
                assertThat(it.key()).as("key of %s", key).isEqualTo(KeyEncoder.of(key));
                List<String> names = new ArrayList<>(record.fields().keySet());
                assertThat(names).as("fields of %s", key).hasSize(11);
                assertThat(names.get(0)).isEqualTo(YcsbRecord.KEY_FIELD);
                for (int f = 0; f < 10; f++) {
                    assertThat(names.get(f + 1)).isEqualTo("field" + f);
                    byte[] value = ((AdmValue.Binary) record.get("field" + f)).bytes();
                    assertThat(new String(value, StandardCharsets.UTF_8)).as("%s field%d", key, f)
                            .isEqualTo(YcsbClient.deterministic(key, "field" + f, 100));
                }
                assertThat(keys.add(key)).as("one record per key: %s", key).isTrue();
            }
            it.status();
        }
        assertThat(keys).isEqualTo(expected);
    }

    @Test
    void aBadPropertyMakesTheClientExitWithStatus2NamingIt() throws Exception {
        YcsbClient.Result r = YcsbClient.run(RocksDbDB.class.getName(), true, "workloada", tmp, "-p", "rocksdb.dir=" + tmp.resolve("db"),
                "-p", "rocksdb.compaction=tiered", "-p", "recordcount=10");
        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.err()).contains("rocksdb.compaction: 'tiered' is not a compaction style; accepted: leveled, "
                + "universal");
        assertThat(r.count("INSERT", "Operations")).isZero();
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
