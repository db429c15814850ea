package io.lsmpolicies.bench.grid;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * YCSB's text report ({@code site.ycsb.Client}'s stdout): lines {@code [OP], METRIC, VALUE}, e.g. {@code
 * [OVERALL], Throughput(ops/sec), 9891.2} or {@code [INSERT], 99thPercentileLatency(us), 317}.
 *
 * @param metrics every value, by operation and metric name
 */
public record YcsbReport(Map<String, Map<String, Double>> metrics) {
    private static final Pattern LINE = Pattern.compile("^\\[([A-Z_-]+)\\], ([^,]+), (-?\\d+(?:\\.\\d+)?(?:E-?\\d+)?)$");

    /** Parses YCSB's stdout; lines that are not report lines are skipped. */
    public static YcsbReport parse(String stdout) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (String line : stdout.split("\n")) {
            Matcher m = LINE.matcher(line.strip());
            if (m.matches()) {
                out.computeIfAbsent(m.group(1), k -> new LinkedHashMap<>()).put(m.group(2).strip(),
                        Double.parseDouble(m.group(3)));
            }
        }
        return new YcsbReport(Map.copyOf(out));
    }

    /** The value of {@code metric} for {@code op}, NaN if YCSB did not report it. */
    public double get(String op, String metric) {
        return metrics.getOrDefault(op, Map.of()).getOrDefault(metric, Double.NaN);
    }

    /** Operations per second over the whole run. */
    public double throughput() {
        return get("OVERALL", "Throughput(ops/sec)");
    }

    /** Operations of {@code op} that returned OK. */
    public long ok(String op) {
        double v = get(op, "Return=OK");
        return Double.isNaN(v) ? 0 : (long) v;
    }

    /** Operations of {@code op} that did not return OK. */
    public long failed(String op) {
        long n = 0;
        for (Map.Entry<String, Double> e : metrics.getOrDefault(op, Map.of()).entrySet()) {
            if (e.getKey().startsWith("Return=") && !e.getKey().equals("Return=OK")) {
                n += e.getValue().longValue();
            }
        }
        return n;
    }

    /** The mean latency of {@code op} in microseconds, NaN if absent. */
    public double averageLatency(String op) {
        return get(op, "AverageLatency(us)");
    }

    /** The latency percentile {@code p} (50, 95, 99, 99.9) of {@code op} in microseconds, NaN if absent. */
    public double latency(String op, String p) {
        return get(op, (p.contains(".") ? p : p + "th") + "PercentileLatency(us)");
    }
}
