package io.lsmpolicies.bench.vsrocks;

import java.util.List;
import java.util.Locale;

/**
 * A measurement the report sets side by side, with the direction that is better for a system. The definitions
 * (the same for both systems; docs/performance.md has them in prose):
 * <ul>
 *   <li>{@code recordsPerSecond}: records / seconds from the first put to the last put's return (all client
 *       threads); {@code recordsPerSecondSettled}: records / seconds until, after the last put, the MemTable is
 *       flushed and no merge runs or is wanted;</li>
 *   <li>{@code writeAmplification}: (bytes of table files written by flushes + by merges) / (key + value bytes
 *       put), counted until merges settle;</li>
 *   <li>{@code stallSeconds}: time writers waited for a flush or merge; {@code tableBytes}: bytes of the live
 *       table files after merges settle; {@code dirBytes}: every file in the store's directory after close (WAL,
 *       manifest, logs included);</li>
 *   <li>{@code peakRssBytes}: the process's highest resident set size during the phase;</li>
 *   <li>{@code avgMicros} .. {@code maxMicros}: latency of single gets (HdrHistogram, 3 digits);
 *       {@code gcPausesOver10ms}: GC pauses above 10 ms during the timed gets ({@link GcPauses});</li>
 *   <li>{@code scansPerSecond}: scans / seconds spent in them.</li>
 * </ul>
 *
 * @param phase          the phase kind: {@code load}, {@code reads} or {@code scans}
 * @param key            the measurement's name in {@link PhaseResult#values()}
 * @param label          its name in the table
 * @param higherIsBetter whether a higher value is better for a system
 * @param unit           how values are printed: {@code count}, {@code bytes}, {@code micros}, {@code ratio}
 *                       or {@code seconds}
 */
record Metric(String phase, String key, String label, boolean higherIsBetter, String unit) {

    /** The rows of the report, in order. */
    static final List<Metric> ALL = List.of(
            new Metric("load", "recordsPerSecond", "records/s", true, "count"),
            new Metric("load", "recordsPerSecondSettled", "records/s incl. settle", true, "count"),
            new Metric("load", "writeAmplification", "write amplification", false, "ratio"),
            new Metric("load", "stallSeconds", "writer stall s", false, "seconds"),
            new Metric("load", "tableBytes", "table files", false, "bytes"),
            new Metric("load", "dirBytes", "directory", false, "bytes"),
            new Metric("load", "peakRssBytes", "peak RSS", false, "bytes"),
            new Metric("reads", "avgMicros", "get avg us", false, "micros"),
            new Metric("reads", "p50Micros", "get p50 us", false, "micros"),
            new Metric("reads", "p99Micros", "get p99 us", false, "micros"),
            new Metric("reads", "p999Micros", "get p99.9 us", false, "micros"),
            new Metric("reads", "maxMicros", "get max us", false, "micros"),
            new Metric("reads", "gcPausesOver10ms", "GC pauses > 10 ms", false, "count"),
            new Metric("reads", "components", "sorted runs per get", false, "count"),
            new Metric("reads", "peakRssBytes", "peak RSS", false, "bytes"),
            new Metric("scans", "scansPerSecond", "scans/s", true, "count"),
            new Metric("scans", "peakRssBytes", "peak RSS", false, "bytes"));

    /** Whether this metric belongs to phase {@code phase} ({@code load-4t} is a {@code load} phase). */
    boolean appliesTo(String phaseName) {
        return phaseName.equals(phase) || phaseName.startsWith(phase + "-");
    }

    /** {@code value} in this metric's unit, short. */
    String format(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        return switch (unit) {
            case "bytes" -> value >= 1e9 ? String.format(Locale.ROOT, "%.2f GB", value / 1e9)
                    : String.format(Locale.ROOT, "%.0f MB", value / 1e6);
            case "micros" -> String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
            case "ratio" -> String.format(Locale.ROOT, "%.2f", value);
            case "seconds" -> String.format(Locale.ROOT, "%.1f", value);
            default -> value >= 10_000 ? String.format(Locale.ROOT, "%.1fk", value / 1e3)
                    : String.format(Locale.ROOT, "%.0f", value);
        };
    }
}
