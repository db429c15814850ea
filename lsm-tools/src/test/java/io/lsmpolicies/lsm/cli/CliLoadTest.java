package io.lsmpolicies.lsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lsmpolicies.lsm.EngineTestSupport;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.cli.OperationSource.Operation;
import io.lsmpolicies.lsm.cli.YcsbKeys.KeyOrder;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/lsm load}, then {@code get}, {@code scan}, {@code stats} and {@code verify} on what it loaded. */
class CliLoadTest {
    @TempDir
    Path tmp;

    private static String hex(byte[] b) {
        return "0x" + HexFormat.of().formatHex(b);
    }

    @Test
    void loadThenGetScanStatsAndVerify() {
        Path dir = tmp.resolve("db");
        CliRunner.Result load = CliRunner.run("load", "--dir", dir, "--records", 3000, "--value-size", 60,
                "--key-order", "hashed", "--memtable-size", "16KB", "--wal", "async", "--policy", "binomial",
                "--param", "k=3", "--seed", 7);
        assertThat(load.exit()).as(load.err()).isZero();
        assertThat(load.lines()).hasSize(1); // no acked lines without --wal sync
        JsonNode summary = load.lastLine();
        assertThat(summary.get("records").asLong()).isEqualTo(3000);
        assertThat(summary.get("inserts").asLong()).isEqualTo(3000);
        assertThat(summary.get("updates").asLong()).isZero();
        assertThat(summary.get("seconds").asDouble()).isPositive();
        assertThat(summary.get("recordsPerSecond").asDouble()).isPositive();
        assertThat(summary.get("megabytesPerSecond").asDouble()).isPositive();
        assertThat(summary.get("policy").get("name").asText()).isEqualTo("binomial");
        assertThat(summary.get("policy").get("k").asText()).isEqualTo("3");
        JsonNode metrics = summary.get("metrics");
        assertThat(metrics.get("writes").get("puts").asLong()).isEqualTo(3000);
        assertThat(metrics.get("flushes").get("count").asLong()).isGreaterThan(5);
        assertThat(metrics.get("merges").get("count").asLong()).isPositive();
        long userBytes = 0;
        for (int i = 0; i < 3000; i++) {
            userBytes += YcsbKeys.key(i, KeyOrder.HASHED).length + 60;
        }
        assertThat(summary.get("userBytes").asLong()).isEqualTo(userBytes);
        assertThat(metrics.get("writes").get("userBytes").asLong()).isEqualTo(userBytes);

        CliRunner.Result get = CliRunner.run("get", "--dir", dir, "--key", YcsbKeys.name(17, KeyOrder.HASHED));
        assertThat(get.exit()).as(get.err()).isZero();
        assertThat(get.out().strip()).isEqualTo(hex(RecordValues.value(7, 17, 0, 60)));

        CliRunner.Result absent = CliRunner.run("get", "--dir", dir, "--key", YcsbKeys.name(17, KeyOrder.ORDERED));
        assertThat(absent.exit()).isEqualTo(1);
        assertThat(absent.err()).contains("not found");
        assertThat(absent.out()).isEmpty();

        CliRunner.Result all = CliRunner.run("scan", "--dir", dir);
        assertThat(all.exit()).isZero();
        assertThat(all.lines()).hasSize(3000).isSorted();
        CliRunner.Result first = CliRunner.run("scan", "--dir", dir, "--limit", 10);
        assertThat(first.lines()).containsExactlyElementsOf(all.lines().subList(0, 10));
        String from = all.lines().get(100).split("\t")[0];
        String to = all.lines().get(150).split("\t")[0];
        CliRunner.Result range = CliRunner.run("scan", "--dir", dir, "--from", from, "--to", to);
        assertThat(range.lines()).containsExactlyElementsOf(all.lines().subList(100, 150));

        CliRunner.Result stats = CliRunner.run("stats", "--dir", dir);
        assertThat(stats.exit()).as(stats.err()).isZero();
        JsonNode s = stats.json();
        JsonNode components = s.get("components");
        assertThat(components.get("tables").asInt()).isBetween(1, 3);
        assertThat(components.get("policy").get("name").asText()).isEqualTo("binomial");
        long entries = 0;
        for (JsonNode level : components.get("levels")) {
            entries += level.get("entries").asLong();
            assertThat(level.get("tables")).allSatisfy(t -> assertThat(t.get("file").asLong()).isPositive());
        }
        assertThat(entries).isEqualTo(3000);
        JsonNode space = s.get("space");
        assertThat(space.get("liveEntries").asLong()).isEqualTo(3000);
        assertThat(space.get("liveBytes").asLong()).isEqualTo(userBytes);
        long tableBytes = space.get("sstableBytes").asLong();
        assertThat(space.get("spaceAmplification").asDouble())
                .isCloseTo((double) (tableBytes - userBytes) / userBytes, org.assertj.core.data.Offset.offset(1e-9))
                .isPositive();
        assertThat(s.get("metrics").get("tables").get("diskBytes").asLong()).isEqualTo(tableBytes);

        CliRunner.Result verify = CliRunner.run("verify", "--dir", dir);
        assertThat(verify.exit()).as(verify.out()).isZero();
        JsonNode report = verify.json();
        assertThat(report.get("ok").asBoolean()).isTrue();
        assertThat(report.get("problems")).isEmpty();
        assertThat(report.get("warnings")).isEmpty();
        assertThat(report.get("tables")).hasSize(components.get("tables").asInt());

        // Reading commands opened the store with no-merge and flushed nothing: the schedule is untouched.
        CliRunner.Result again = CliRunner.run("stats", "--dir", dir);
        assertThat(again.json().get("components").get("policy")).isEqualTo(components.get("policy"));
    }

    @Test
    void aSyncLoadPrintsAckedLinesThenTheSummary() {
        Path dir = tmp.resolve("db");
        CliRunner.Result load = CliRunner.run("load", "--dir", dir, "--records", 400, "--value-size", 20,
                "--key-order", "ordered", "--memtable-size", "8KB", "--wal", "sync", "--policy", "binomial:k=2");
        assertThat(load.exit()).as(load.err()).isZero();
        List<String> lines = load.lines();
        assertThat(lines.size()).isGreaterThanOrEqualTo(2);
        long previous = 0;
        for (String line : lines.subList(0, lines.size() - 1)) {
            assertThat(line).matches("\\{\"acked\": \\d+}");
            long acked = CliRunner.parse(line).get("acked").asLong();
            assertThat(acked).isGreaterThanOrEqualTo(previous).isLessThanOrEqualTo(400);
            previous = acked;
        }
        assertThat(previous).isEqualTo(400);
        assertThat(load.lastLine().get("wal").asText()).isEqualTo("sync");
        assertThat(load.lastLine().get("metrics").get("writes").get("walBytes").asLong()).isPositive();
    }

    @Test
    void overwritesLeaveTheLatestValueOfEachRecord() throws Exception {
        Path dir = tmp.resolve("db");
        CliRunner.Result load = CliRunner.run("load", "--dir", dir, "--records", 2000, "--value-size", 16,
                "--key-order", "ordered", "--update-fraction", "0.5", "--memtable-size", "8KB", "--wal", "off",
                "--policy", "tiered", "--seed", 3);
        assertThat(load.exit()).as(load.err()).isZero();
        JsonNode summary = load.lastLine();
        long inserts = summary.get("inserts").asLong();
        assertThat(summary.get("updates").asLong()).isEqualTo(2000 - inserts).isBetween(850L, 1150L);

        // Replay the same operation sequence to know each record's latest version.
        OperationSource source = new OperationSource(3, 0, 2000, 0.5);
        Map<Long, Long> latest = new HashMap<>();
        for (Operation op = source.next(); op != null; op = source.next()) {
            latest.put(op.record(), op.version());
        }
        assertThat(latest).hasSize((int) inserts);
        try (LsmStore store = LsmStore.open(dir, StoreOptions.builder().policy("tiered").build())) {
            for (Map.Entry<Long, Long> e : latest.entrySet()) {
                assertThat(store.get(YcsbKeys.key(e.getKey(), KeyOrder.ORDERED)))
                        .as("record %d", e.getKey()).isEqualTo(RecordValues.value(3, e.getKey(), e.getValue(), 16));
            }
        }
        assertThat(CliRunner.run("scan", "--dir", dir).lines()).hasSize((int) inserts);
    }

    @Test
    void severalThreadsAndAContinuedLoad() {
        Path dir = tmp.resolve("db");
        CliRunner.Result first = CliRunner.run("load", "--dir", dir, "--records", 1200, "--value-size", 10,
                "--key-order", "ordered", "--memtable-size", "8KB", "--wal", "sync", "--threads", 4,
                "--policy", "binomial", "--param", "k=3");
        assertThat(first.exit()).as(first.err()).isZero();
        List<String> lines = first.lines();
        assertThat(lines.get(lines.size() - 2)).isEqualTo("{\"acked\": 1200}");
        assertThat(first.lastLine().get("threads").asInt()).isEqualTo(4);
        CliRunner.Result second = CliRunner.run("load", "--dir", dir, "--records", 300, "--value-size", 10,
                "--key-order", "ordered", "--memtable-size", "8KB", "--wal", "async", "--start", 1200,
                "--policy", "binomial", "--param", "k=3");
        assertThat(second.exit()).as(second.err()).isZero();
        List<String> keys = new ArrayList<>();
        for (String line : CliRunner.run("scan", "--dir", dir).lines()) {
            keys.add(line.split("\t")[0]);
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            expected.add(YcsbKeys.name(i, KeyOrder.ORDERED));
        }
        assertThat(keys).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(CliRunner.run("get", "--dir", dir, "--key", "user1499").out().strip())
                .isEqualTo(hex(RecordValues.value(42, 1499, 0, 10)));
    }

    @Test
    void aCrashedStoreIsReadWithoutTheLoadsFlags() throws Exception {
        Path live = tmp.resolve("live");
        Path image = tmp.resolve("image");
        StoreOptions options = StoreOptions.builder().policy("binomial:k=3").walMode(SyncMode.SYNC).build();
        try (LsmStore store = LsmStore.open(live, options)) {
            store.put("user1".getBytes(), "one".getBytes());
            store.put("user2".getBytes(), "two".getBytes());
            EngineTestSupport.copyStore(live, image); // what a crash would leave: the writes only in the log
        }
        var before = io.lsmpolicies.lsm.DirectoryContents.of(image);
        CliRunner.Result read = CliRunner.run("get", "--dir", image, "--key", "user1");
        assertThat(read.exit()).as(read.err()).isZero();
        assertThat(read.out().strip()).isEqualTo("one");
        assertThat(CliRunner.run("get", "--dir", image, "--key", "user2").out().strip()).isEqualTo("two");
        assertThat(CliRunner.run("get", "--dir", image, "--key", "user2", "--policy", "tiered").out().strip())
                .isEqualTo("two");
        assertThat(CliRunner.run("stats", "--dir", image).json().get("space").get("liveEntries").asLong())
                .isEqualTo(2);
        // reads open the store read-only: the log is not flushed, no policy is recorded, not a byte changes
        assertThat(LsmStore.storedOptions(image).orElseThrow().policy().toString()).as("the policy is still the load's")
                .isEqualTo("binomial:k=3");
        io.lsmpolicies.lsm.DirectoryContents.assertSame(before, io.lsmpolicies.lsm.DirectoryContents.of(image));
    }

    @Test
    void aStoreThatRecordedNoPolicyWithUnflushedWritesIsReadWithoutItsPolicy() throws Exception {
        Path live = tmp.resolve("live");
        Path image = tmp.resolve("image");
        StoreOptions options = StoreOptions.builder().policy("binomial:k=3").walMode(SyncMode.SYNC).build();
        try (LsmStore store = LsmStore.open(live, options)) {
            store.put("user1".getBytes(), "one".getBytes());
            EngineTestSupport.copyStore(live, image);
        }
        java.nio.file.Files.delete(image.resolve(io.lsmpolicies.lsm.manifest.OptionsFile.NAME)); // an older store
        var before = io.lsmpolicies.lsm.DirectoryContents.of(image);
        CliRunner.Result read = CliRunner.run("get", "--dir", image, "--key", "user1"); // read-only: nothing flushed
        assertThat(read.exit()).as(read.err()).isZero();
        assertThat(read.out().strip()).isEqualTo("one");
        io.lsmpolicies.lsm.DirectoryContents.assertSame(before, io.lsmpolicies.lsm.DirectoryContents.of(image));
    }

    @Test
    void aContinuedLoadUsesTheRecordedPolicyAndAnotherOneIsASwitchItSays() {
        Path dir = tmp.resolve("db");
        CliRunner.Result first = CliRunner.run("load", "--dir", dir, "--records", 500, "--value-size", 10,
                "--memtable-size", "8KB", "--wal", "async", "--policy", "binomial", "--param", "k=3");
        assertThat(first.exit()).as(first.err()).isZero();
        CliRunner.Result second = CliRunner.run("load", "--dir", dir, "--records", 200, "--start", 500,
                "--value-size", 10, "--memtable-size", "8KB", "--wal", "async");
        assertThat(second.exit()).as(second.err()).isZero();
        assertThat(second.err()).doesNotContain("switched");
        assertThat(second.lastLine().get("policy").get("name").asText()).isEqualTo("binomial");
        assertThat(second.lastLine().get("policy").get("k").asText()).as("the recorded k, not the default").isEqualTo("3");
        CliRunner.Result third = CliRunner.run("load", "--dir", dir, "--records", 100, "--start", 700,
                "--value-size", 10, "--memtable-size", "8KB", "--wal", "async", "--policy", "tiered:size-ratio=4");
        assertThat(third.exit()).as(third.err()).isZero();
        assertThat(third.err()).contains("switched the merge policy from binomial:k=3 to tiered:size-ratio=4");
        CliRunner.Result fourth = CliRunner.run("load", "--dir", dir, "--records", 100, "--start", 800,
                "--value-size", 10, "--memtable-size", "8KB", "--wal", "async");
        assertThat(fourth.lastLine().get("policy").get("name").asText()).isEqualTo("tiered");
    }

    @Test
    void aSwitchTheTreeCannotTakeIsRefusedWithTheReason() {
        Path dir = tmp.resolve("db");
        CliRunner.Result first = CliRunner.run("load", "--dir", dir, "--records", 3000, "--value-size", 100,
                "--memtable-size", "16KB", "--wal", "async", "--policy",
                "leveled:l0-trigger=2,base-level-bytes=65536,target-file-bytes=16384");
        assertThat(first.exit()).as(first.err()).isZero();
        CliRunner.Result refused = CliRunner.run("load", "--dir", dir, "--records", 10, "--start", 3000,
                "--value-size", 100, "--policy", "binomial:k=4");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("opening it with binomial:k=4 is refused").contains("levels below level 0");
    }
}
