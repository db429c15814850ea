package io.lsmpolicies.bench.vsrocks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The side-by-side report: the run's settings, every phase result, and the ratios ({@link Ratio}), as a text
 * table (one block per pairing) and as JSON.
 *
 * @param settings what the run was given
 * @param results  every system's result of every phase and round
 * @param ratios   the rows, from {@link Ratio#of}
 */
record Report(Map<String, Object> settings, List<PhaseResult> results, List<Ratio> ratios) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    Report {
        settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        results = List.copyOf(results);
        ratios = List.copyOf(ratios);
    }

    /**
     * The table: per pairing, one row per measurement with our median, RocksDB's, the median ratio ours /
     * RocksDB's with its range over the samples (rounds; for reads and scans, each read repeat of each round), which direction is better for us, and for the loads the write
     * amplification of both beside it.
     */
    String table() {
        StringBuilder b = new StringBuilder();
        String pairing = null;
        for (Ratio r : ratios) {
            if (!r.pairing().equals(pairing)) {
                pairing = r.pairing();
                b.append(String.format(Locale.ROOT, "%n%s: ours / RocksDB per sample, median (min..max) over %d "
                        + "round(s), and over %d read repeat(s) in each for reads and scans%n", pairing,
                        count(pairing, PhaseResult::round), count(pairing, PhaseResult::repeat)));
                b.append(String.format(Locale.ROOT, "%-8s %-24s %10s %10s %8s %14s %-7s %s%n", "phase",
                        "measurement", "ours", "RocksDB", "ratio", "range", "better", "WA ours / RocksDB"));
            }
            Metric m = metric(r);
            String wa = "";
            if (r.phase().startsWith("load")) {
                Ratio w = find(r.pairing(), r.phase(), "writeAmplification");
                wa = w == null ? "" : String.format(Locale.ROOT, "%.2f / %.2f", w.ours(), w.rocksdb());
            }
            b.append(String.format(Locale.ROOT, "%-8s %-24s %10s %10s %8s %14s %-7s %s%n", r.phase(), r.label(),
                    m.format(r.ours()), m.format(r.rocksdb()), ratio(r.ratio()),
                    Double.isNaN(r.min()) ? "-" : ratio(r.min()) + ".." + ratio(r.max()),
                    r.higherIsBetter() ? "higher" : "lower", wa));
        }
        return b.toString();
    }

    /** Writes the report as JSON to {@code file} (its directory created if needed). */
    void writeJson(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, json());
    }

    /** The report as one JSON object: {@code settings}, {@code ratios}, {@code results}. NaN is written as null. */
    String json() throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("settings", settings);
        doc.put("ratios", ratios.stream().map(Report::ratioJson).toList());
        doc.put("results", results.stream().map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pairing", r.pairing());
            m.put("side", r.side());
            m.put("round", r.round());
            m.put("repeat", r.repeat());
            m.put("phase", r.phase());
            Map<String, Object> values = new java.util.TreeMap<>();
            r.values().forEach((k, v) -> values.put(k, finite(v)));
            m.put("values", values);
            return m;
        }).toList());
        return JSON.writeValueAsString(doc);
    }

    private static Map<String, Object> ratioJson(Ratio r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pairing", r.pairing());
        m.put("phase", r.phase());
        m.put("metric", r.metric());
        m.put("higherIsBetter", r.higherIsBetter());
        m.put("ours", finite(r.ours()));
        m.put("rocksdb", finite(r.rocksdb()));
        m.put("ratio", finite(r.ratio()));
        m.put("min", finite(r.min()));
        m.put("max", finite(r.max()));
        m.put("perSample", r.perSample());
        return m;
    }

    private static Double finite(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? null : v;
    }

    private int count(String pairing, java.util.function.ToIntFunction<PhaseResult> key) {
        return (int) results.stream().filter(r -> r.pairing().equals(pairing)).mapToInt(key).distinct().count();
    }

    private Ratio find(String pairing, String phase, String metric) {
        for (Ratio r : ratios) {
            if (r.pairing().equals(pairing) && r.phase().equals(phase) && r.metric().equals(metric)) {
                return r;
            }
        }
        return null;
    }

    private static Metric metric(Ratio r) {
        for (Metric m : Metric.ALL) {
            if (m.key().equals(r.metric()) && m.appliesTo(r.phase())) {
                return m;
            }
        }
        throw new IllegalStateException("no metric " + r.metric());
    }

    private static String ratio(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }
}
