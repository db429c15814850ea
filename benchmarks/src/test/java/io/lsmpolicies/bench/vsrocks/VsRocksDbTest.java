package io.lsmpolicies.bench.vsrocks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole command on a few thousand records, its children real JVMs: the two systems' loads of each thread count
 * one after the other (which goes first alternating), then read phases
 * alternating between the systems (and which goes first) on the stores the first loads made, every result in the
 * report, and nothing left in the directory.
 */
class VsRocksDbTest {
    @TempDir
    Path dir;

    @Test
    void loadsThenReadRepeatsAlternatingBetweenTheSystems() throws Exception {
        Path stores = dir.resolve("stores");
        Path json = dir.resolve("report.json");
        int status = new picocli.CommandLine(new VsRocksDb()).execute("--pairs", "binomial:k=6/universal",
                "--records", "3000", "--value-size", "100", "--threads", "1,2", "--rounds", "1", "--read-repeats", "2",
                "--gets", "300", "--scans", "50", "--load-warmup", "500", "--java-options", "-Xmx128m",
                "--dir", stores.toString(),
                "--out", json.toString(), "--plot", dir.resolve("latency.png").toString());
        assertThat(status).isZero();

        JsonNode doc = new ObjectMapper().readTree(Files.readString(json));
        assertThat(doc.get("settings").get("readRepeats").asInt()).isEqualTo(2);
        assertThat(doc.get("settings").get("loadWarmup").asInt()).isEqualTo(500);
        List<String> order = new ArrayList<>();
        for (JsonNode r : doc.get("results")) {
            order.add(r.get("side").asText() + " " + r.get("phase").asText() + " " + r.get("repeat").asInt());
        }
        assertThat(order).containsExactly(
                "ours load-1t 1", "rocksdb load-1t 1", "rocksdb load-2t 1", "ours load-2t 1",
                "ours reads 1", "ours scans 1", "rocksdb reads 1", "rocksdb scans 1",
                "rocksdb reads 2", "rocksdb scans 2", "ours reads 2", "ours scans 2");
        for (JsonNode r : doc.get("ratios")) {
            if (r.get("phase").asText().equals("reads") && r.get("metric").asText().equals("p99Micros")) {
                assertThat(r.get("perSample")).hasSize(2); // one ratio per read repeat
            }
        }
        try (Stream<Path> left = Files.list(stores)) {
            assertThat(left.filter(Files::isDirectory)).isEmpty(); // every store deleted, warm-up stores too
        }
    }

    @Test
    void whichSystemLoadsFirstAlternatesBetweenThreadCountsAndRounds() {
        for (int round = 1; round <= 4; round++) {
            for (int t = 0; t < 3; t++) {
                assertThat(VsRocksDb.loadOrder(round, t)).as("round %d, thread count %d", round, t)
                        .containsExactlyInAnyOrder(Side.OURS, Side.ROCKSDB)
                        .isNotEqualTo(VsRocksDb.loadOrder(round + 1, t))
                        .isNotEqualTo(VsRocksDb.loadOrder(round, t + 1));
            }
        }
    }
}
