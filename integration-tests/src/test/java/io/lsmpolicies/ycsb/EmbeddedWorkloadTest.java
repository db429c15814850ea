package io.lsmpolicies.ycsb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.ycsb.common.TraceFile;
import io.lsmpolicies.ycsb.common.YcsbClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded binding through YCSB's own Client (a child JVM, as bin/ycsb-lsm runs it): a load and a run of
 * workload A with {@code dataintegrity=true} on several client threads sharing one store, small MemTables so the
 * records cross flushes and merges; YCSB's validation must count no error, and the store must hold exactly the
 * records YCSB wrote.
 */
@Timeout(180)
class EmbeddedWorkloadTest {
    private static final int RECORDS = 3000;
    private static final int OPERATIONS = 4000;

    @TempDir
    Path tmp;

    @Test
    void workloadAWithDataIntegrityPassesYcsbsValidation() throws Exception {
        Path dir = tmp.resolve("db");
        Path metrics = tmp.resolve("run-metrics.json");
        String[] store = {"-p", "lsm.dir=" + dir, "-p", "lsm.memtable.size=256KB", "-p", "lsm.wal=async",
            "-p", "lsm.policy=binomial", "-p", "lsm.policy.k=3", "-p", "dataintegrity=true", "-p",
            "recordcount=" + RECORDS, "-p", "operationcount=" + OPERATIONS, "-threads", "4"};

        Path trace = tmp.resolve("load-trace.csv");
        YcsbClient.Result load = YcsbClient.run(LsmDB.class.getName(), true, "workloada", tmp,
                concat(store, "-p", TraceFile.PROPERTY + "=" + trace));
        assertThat(load.exit()).as(load.describe()).isZero();
        assertThat(load.returns("INSERT")).as(load.describe()).isEqualTo(Map.of("Return=OK", (long) RECORDS));
        // The load's per-flush trace: every flush a row (the last one the final flush at cleanup), binomial's
        // depth bound k + 1 at each flush, and merges written beyond the flushes.
        List<TraceFile.Row> rows = TraceFile.read(trace);
        List<TraceFile.Row> flushRows = rows.subList(0, rows.size() - 1);
        assertThat(flushRows).hasSizeGreaterThan(8).allMatch(r -> r.event() == TraceFile.Event.FLUSH)
                .allMatch(r -> r.components() <= 4);
        assertThat(flushRows.get(0).flushes()).isEqualTo(1);
        TraceFile.Row end = rows.get(rows.size() - 1);
        assertThat(end.flushes()).isEqualTo(flushRows.size());
        assertThat(end.writtenBytes()).isGreaterThan(end.flushedBytes());
        assertThat(end.flushedBytes()).isGreaterThan((long) RECORDS * 1000);

        String[] runArgs = concat(store, "-p", "lsm.metrics.file=" + metrics);
        YcsbClient.Result run = YcsbClient.run(LsmDB.class.getName(), false, "workloada", tmp, runArgs);
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

        JsonNode m = new ObjectMapper().readTree(metrics.toFile()).get("metrics");
        assertThat(m.get("reads").get("gets").asLong()).isGreaterThanOrEqualTo(reads + updates); // an update of one field reads
        assertThat(m.get("flushes").get("count").asLong()).as("updates crossed flushes").isPositive();

        Set<String> expected = new TreeSet<>();
        for (int i = 0; i < RECORDS; i++) {
            expected.add(YcsbKeys.name(i, YcsbKeys.KeyOrder.HASHED));
        }
        try (LsmStore s = LsmStore.open(dir, StoreOptions.builder().policy("binomial:k=3").build())) {
            assertThat(s.components().tableCount()).as("the records are in SSTables").isPositive();
            assertThat(StoredRecords.checkAll(List.of(s), 10, 100)).isEqualTo(expected);
        }
    }

    @Test
    void aBadPropertyMakesTheClientExitWithStatus2NamingIt() throws Exception {
        YcsbClient.Result r = YcsbClient.run(LsmDB.class.getName(), true, "workloada", tmp, "-p", "lsm.dir=" + tmp.resolve("db"),
                "-p", "lsm.device=nvme", "-p", "recordcount=10");
        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.err()).contains("lsm.device: 'nvme' is not a device profile; accepted: ssd, hdd, none");
        assertThat(r.count("INSERT", "Operations")).isZero();
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
