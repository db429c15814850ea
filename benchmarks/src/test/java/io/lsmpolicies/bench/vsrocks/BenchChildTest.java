package io.lsmpolicies.bench.vsrocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child's command line and result lines, in-process: a load and then the reads and scans of each system,
 * printed by {@link BenchChild} and read back as the driver reads them.
 */
class BenchChildTest {
    private static final String PAIR = "tiered:size-ratio=4/universal";

    @TempDir
    Path dir;

    @Test
    void eachSystemsPhasesPrintResultsTheDriverReads() throws IOException {
        List<PhaseResult> ours = phases("ours");
        List<PhaseResult> rocks = phases("rocksdb");
        for (List<PhaseResult> side : List.of(ours, rocks)) {
            assertThat(side).extracting(PhaseResult::phase).containsExactly("load-2t", "reads", "scans");
            PhaseResult load = side.get(0);
            assertThat(load.value("recordsPerSecond")).isPositive();
            assertThat(load.value("dirBytes")).isGreaterThanOrEqualTo(load.value("tableBytes")).isPositive();
            assertThat(load.value("maxHeapBytes")).isPositive();
            assertThat(side.get(1).value("gets")).isEqualTo(300.0);
            assertThat(side.get(1).round()).isEqualTo(2);
        }
        assertThat(ours.get(0).side()).isEqualTo("ours");
        assertThat(rocks.get(0).pairing()).isEqualTo(PAIR);
        assertThat(ours.get(0).value("userBytes")).isEqualTo(rocks.get(0).value("userBytes"));
        assertThat(ours.get(2).value("recordsScanned")).isEqualTo(rocks.get(2).value("recordsScanned"));
    }

    @Test
    void aResultLineIsReadWithNaNAndOtherLinesAreIgnored() throws IOException {
        String out = "some log line\n" + BenchChild.RESULT + "{\"phase\":\"reads\",\"values\":{\"avgMicros\":12.5,"
                + "\"peakRssBytes\":\"NaN\"}}\n";
        List<PhaseResult> r = BenchChild.parse(out, PAIR, "ours", 1, 1);
        assertThat(r).hasSize(1);
        assertThat(r.get(0).value("avgMicros")).isEqualTo(12.5);
        assertThat(r.get(0).value("peakRssBytes")).isNaN();
        assertThatThrownBy(() -> BenchChild.parse(BenchChild.RESULT + "{\"phase\":\"reads\"}", PAIR, "ours", 1, 1))
                .hasMessageContaining("without phase or values");
    }

    private List<PhaseResult> phases(String side) throws IOException {
        Path store = dir.resolve(side);
        String out = child("--side", side, "--pair", PAIR, "--records", "2000", "--value-size", "100", "--mode",
                "load", "--threads", "2", "--dir", store.toString())
                + child("--side", side, "--pair", PAIR, "--records", "2000", "--value-size", "100", "--mode",
                "read", "--gets", "300", "--scans", "100", "--dir", store.toString());
        return BenchChild.parse(out, PAIR, side, 2, 1);
    }

    /** Runs the child in-process; its standard output. */
    private static String child(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status;
        try (PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            status = BenchChild.run(args);
        } finally {
            System.setOut(saved);
        }
        assertThat(status).as("exit status of " + String.join(" ", args)).isZero();
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
