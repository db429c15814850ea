package io.lsmpolicies.lsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/lsm events} on a loaded store: each merge with its reason, filters, JSON, and bad arguments. */
class CliEventsTest {
    @TempDir
    Path tmp;

    private Path load() {
        Path dir = tmp.resolve("db");
        CliRunner.Result load = CliRunner.run("load", "--dir", dir, "--records", 3000, "--value-size", 50,
                "--memtable-size", "16KB", "--wal", "async", "--policy", "constant", "--param", "k=2",
                "--merge-order", "FLUSH_THEN_MERGE"); // each merge after its flush: three inputs
        assertThat(load.exit()).as(load.err()).isZero();
        return dir;
    }

    @Test
    void aLoadedStoreShowsEachMergeWithItsReasonAndEachFlush() throws Exception {
        Path dir = load();
        CliRunner.Result events = CliRunner.run("events", "--dir", dir);
        assertThat(events.exit()).as(events.err()).isZero();
        List<String> lines = events.out().lines().toList();
        assertThat(lines.get(0)).contains(" recovery opened: created with policy constant");
        assertThat(lines).anySatisfy(l -> assertThat(l).contains(" merge REAL [").endsWith(": 3 SSTables > k=2: merge all"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains(" flush #1 -> ["));
        assertThat(lines.get(lines.size() - 1)).contains(" closed flushed and closed");

        CliRunner.Result merges = CliRunner.run("events", "--dir", dir, "--type", "merge", "--last", "2", "--json");
        assertThat(merges.exit()).as(merges.err()).isZero();
        List<String> json = merges.out().lines().toList();
        assertThat(json).hasSize(2);
        ObjectMapper m = new ObjectMapper();
        for (String l : json) {
            JsonNode n = m.readTree(l);
            assertThat(n.get("event").asText()).isEqualTo("merge");
            assertThat(n.get("reason").asText()).isEqualTo("3 SSTables > k=2: merge all");
            assertThat(n.get("inputs")).hasSize(3);
        }
    }

    @Test
    void badArgumentsAndAMissingLogSayWhatIsWrong() throws Exception {
        Path dir = load();
        CliRunner.Result kind = CliRunner.run("events", "--dir", dir, "--type", "merges");
        assertThat(kind.exit()).isEqualTo(2);
        assertThat(kind.err()).contains("unknown event kind 'merges'").contains("merge");
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        CliRunner.Result none = CliRunner.run("events", "--dir", empty);
        assertThat(none.exit()).isEqualTo(1);
        assertThat(none.err()).contains("no event log in " + empty);
    }
}
