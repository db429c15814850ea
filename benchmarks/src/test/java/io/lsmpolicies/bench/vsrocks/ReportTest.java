package io.lsmpolicies.bench.vsrocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;

/** The ratio and range arithmetic, the table, the JSON and the plot, from literal round results. */
class ReportTest {
    private static final String PAIR = "binomial:k=6/universal";

    @TempDir
    Path dir;

    /**
     * Two rounds: our load rate 60k then 66k against RocksDB's 75k then 60k (ratios 0.8 and 1.1); two read repeats
     * in each, our p99 80 and 90 us in the first round, 100 and 110 us in the second, against RocksDB's 15 us.
     */
    static List<PhaseResult> results() {
        List<PhaseResult> r = new ArrayList<>();
        r.add(new PhaseResult(PAIR, "ours", 1, 1, "load-1t", Map.of("recordsPerSecond", 60_000.0,
                "writeAmplification", 4.8, "peakRssBytes", 1e9)));
        r.add(new PhaseResult(PAIR, "rocksdb", 1, 1, "load-1t", Map.of("recordsPerSecond", 75_000.0,
                "writeAmplification", 4.9, "peakRssBytes", 5e8)));
        r.add(new PhaseResult(PAIR, "ours", 2, 1, "load-1t", Map.of("recordsPerSecond", 66_000.0,
                "writeAmplification", 4.6, "peakRssBytes", 1e9)));
        r.add(new PhaseResult(PAIR, "rocksdb", 2, 1, "load-1t", Map.of("recordsPerSecond", 60_000.0,
                "writeAmplification", 4.9, "peakRssBytes", 5e8)));
        // two read repeats a round, listed round 2 first: samples are ordered by round, then repeat
        for (int round = 2; round >= 1; round--) {
            for (int repeat = 1; repeat <= 2; repeat++) {
                r.add(new PhaseResult(PAIR, "ours", round, repeat, "reads", Map.of("avgMicros", 15.0,
                        "p50Micros", 12.0, "p90Micros", 20.0, "p99Micros", 60.0 + round * 20 + (repeat - 1) * 10,
                        "p999Micros", 200.0, "p9999Micros", 900.0, "maxMicros", 20_000.0, "gcPausesOver10ms", 2.0)));
                r.add(new PhaseResult(PAIR, "rocksdb", round, repeat, "reads", Map.of("avgMicros", 6.0,
                        "p50Micros", 5.0, "p90Micros", 8.0, "p99Micros", 15.0, "p999Micros", 40.0,
                        "p9999Micros", 100.0, "maxMicros", 2000.0, "gcPausesOver10ms", 0.0)));
            }
        }
        return r;
    }

    @Test
    void ratiosArePerSampleWithTheirMedianAndRange() {
        List<Ratio> ratios = Ratio.of(results());
        Ratio load = find(ratios, "load-1t", "recordsPerSecond");
        assertThat(load.perSample()).hasSize(2);
        assertThat(load.perSample().get(0)).isCloseTo(0.8, within(1e-9));
        assertThat(load.perSample().get(1)).isCloseTo(1.1, within(1e-9));
        assertThat(load.ratio()).isCloseTo(0.95, within(1e-9));
        assertThat(load.min()).isCloseTo(0.8, within(1e-9));
        assertThat(load.max()).isCloseTo(1.1, within(1e-9));
        assertThat(load.ours()).isEqualTo(63_000.0);
        assertThat(load.rocksdb()).isEqualTo(67_500.0);
        assertThat(load.higherIsBetter()).isTrue();

        Ratio p99 = find(ratios, "reads", "p99Micros");
        // each round's read repeats are samples of their own, in order of round, then repeat
        assertThat(p99.perSample()).containsExactly(80.0 / 15, 90.0 / 15, 100.0 / 15, 110.0 / 15);
        assertThat(p99.ratio()).isCloseTo((90.0 / 15 + 100.0 / 15) / 2, within(1e-9));
        assertThat(p99.higherIsBetter()).isFalse();
        // RocksDB had no long pause: no ratio, the values are still there
        Ratio gc = find(ratios, "reads", "gcPausesOver10ms");
        assertThat(gc.ratio()).isNaN();
        assertThat(gc.perSample()).isEmpty();
        assertThat(gc.ours()).isEqualTo(2.0);
        // not measured in these results: no row
        assertThat(ratios).noneMatch(r -> r.metric().equals("stallSeconds"));
        assertThat(Ratio.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(Ratio.median(List.of())).isNaN();
    }

    @Test
    void theTableShowsRatioRangeAndWriteAmplificationBesideTheLoad() {
        List<PhaseResult> results = results();
        String table = new Report(Map.of("rounds", 2), results, Ratio.of(results)).table();
        String loadRow = table.lines().filter(l -> l.startsWith("load-1t") && l.contains("records/s ")).findFirst()
                .orElseThrow();
        assertThat(loadRow).contains("63.0k", "67.5k", "0.95", "0.80..1.10", "higher", "4.70 / 4.90");
        String p99Row = table.lines().filter(l -> l.contains("get p99 us")).findFirst().orElseThrow();
        assertThat(p99Row).contains("95", "15.0", "6.33", "5.33..7.33", "lower");
        assertThat(table).contains(PAIR + ": ours / RocksDB per sample, median (min..max) over 2 round(s), and over "
                + "2 read repeat(s) in each for reads and scans");
    }

    @Test
    void theJsonHoldsSettingsRatiosAndResultsWithNaNAsNull() throws Exception {
        List<PhaseResult> results = results();
        Path file = dir.resolve("sub/report.json");
        new Report(Map.of("records", 1000), results, Ratio.of(results)).writeJson(file);
        JsonNode doc = new ObjectMapper().readTree(Files.readString(file));
        assertThat(doc.get("settings").get("records").asInt()).isEqualTo(1000);
        assertThat(doc.get("results")).hasSize(results.size());
        JsonNode load = null;
        JsonNode gc = null;
        for (JsonNode r : doc.get("ratios")) {
            if (r.get("metric").asText().equals("recordsPerSecond")) {
                load = r;
            }
            if (r.get("metric").asText().equals("gcPausesOver10ms")) {
                gc = r;
            }
        }
        assertThat(load).isNotNull();
        assertThat(load.get("pairing").asText()).isEqualTo(PAIR);
        assertThat(load.get("phase").asText()).isEqualTo("load-1t");
        assertThat(load.get("ratio").asDouble()).isCloseTo(0.95, within(1e-9));
        assertThat(load.get("min").asDouble()).isCloseTo(0.8, within(1e-9));
        assertThat(load.get("max").asDouble()).isCloseTo(1.1, within(1e-9));
        assertThat(load.get("perSample")).hasSize(2);
        assertThat(load.get("higherIsBetter").asBoolean()).isTrue();
        assertThat(gc.get("ratio").isNull()).isTrue();
    }

    @Test
    void thePlotHasOneSeriesPerSystemAndLabelledTicks() throws Exception {
        CategoryChart chart = LatencyPlot.chart(results());
        assertThat(chart.getSeriesMap()).containsOnlyKeys("ours binomial:k=6", "RocksDB universal (vs binomial:k=6)");
        assertThat(new ArrayList<Object>(chart.getSeriesMap().get("ours binomial:k=6").getXData()))
                .containsExactly("p50", "p90", "p99", "p99.9", "p99.99", "max");
        assertThat(chart.getStyler().getyAxisTickLabelsFormattingFunction().apply(2.0)).isEqualTo("100");
        Path png = dir.resolve("latency.png");
        LatencyPlot.write(results(), png);
        assertThat(Files.size(png)).isPositive();
    }

    @Test
    void aBadPairingSaysWhatWasWrong() {
        assertThatThrownBy(() -> Pairing.parse("binomial:k=6")).hasMessageContaining("OURS-POLICY/ROCKSDB-STYLE");
        assertThatThrownBy(() -> Pairing.parse("binomial:k=6/tiered")).hasMessageContaining("'tiered' is not a "
                + "RocksDB compaction style");
        assertThatThrownBy(() -> Pairing.parse("nosuch/leveled")).hasMessageContaining("nosuch/leveled");
        assertThat(Pairing.parseList(Pairing.DEFAULTS)).extracting(Pairing::toString).containsExactly(
                "binomial:k=6/universal", "tiered:size-ratio=4/universal", "leveled/leveled");
    }

    private static Ratio find(List<Ratio> ratios, String phase, String metric) {
        return ratios.stream().filter(r -> r.phase().equals(phase) && r.metric().equals(metric)).findFirst()
                .orElseThrow();
    }
}
