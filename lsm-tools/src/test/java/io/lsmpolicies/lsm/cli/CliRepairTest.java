package io.lsmpolicies.lsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/lsm load} on a store without CURRENT refuses and deletes nothing; {@code bin/lsm repair} rebuilds it. */
class CliRepairTest {
    @TempDir
    Path tmp;

    private List<String> names(Path dir) throws Exception {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString()).filter(n -> !n.equals("LOCK")).sorted().forEach(out::add);
        }
        return out;
    }

    @Test
    void loadRefusesAStoreWithoutCurrentAndRepairBringsEveryRecordBack() throws Exception {
        Path dir = tmp.resolve("db");
        CliRunner.Result load = CliRunner.run("load", "--dir", dir, "--records", 2500, "--value-size", 50,
                "--key-order", "ordered", "--memtable-size", "16KB", "--wal", "sync", "--policy", "binomial",
                "--param", "k=4");
        assertThat(load.exit()).as(load.err()).isZero();
        Files.delete(dir.resolve(StoreFiles.CURRENT));
        List<String> before = names(dir);
        long bytesBefore = Files.size(dir.resolve(before.get(0)));

        CliRunner.Result again = CliRunner.run("load", "--dir", dir, "--records", 10, "--policy", "binomial",
                "--param", "k=4");
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("no CURRENT").contains("bin/lsm repair --dir " + dir).contains(".sst");
        assertThat(names(dir)).isEqualTo(before);
        assertThat(Files.size(dir.resolve(before.get(0)))).isEqualTo(bytesBefore);

        CliRunner.Result repair = CliRunner.run("repair", "--dir", dir);
        assertThat(repair.exit()).as(repair.err()).isZero();
        JsonNode report = repair.json();
        assertThat(report.get("entries").asLong()).isEqualTo(2500);
        assertThat(report.get("damagedTables").asInt()).isZero();
        assertThat(report.get("tables").size()).isGreaterThan(0);
        assertThat(report.get("tables").get(0).get("minKey").asText()).startsWith("user");
        assertThat(report.get("manifest").asText()).startsWith("MANIFEST-");

        CliRunner.Result verify = CliRunner.run("verify", "--dir", dir);
        assertThat(verify.exit()).as(verify.out()).isZero();
        CliRunner.Result get = CliRunner.run("get", "--dir", dir, "--key", "user2499");
        assertThat(get.exit()).as(get.err()).isZero();
        CliRunner.Result stats = CliRunner.run("stats", "--dir", dir);
        assertThat(stats.json().get("space").get("liveEntries").asLong()).isEqualTo(2500);
    }

    @Test
    void repairOfADirectoryThatDoesNotExistSaysSo() {
        CliRunner.Result r = CliRunner.run("repair", "--dir", tmp.resolve("nothing"));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("nothing").contains("not a directory");
    }
}
