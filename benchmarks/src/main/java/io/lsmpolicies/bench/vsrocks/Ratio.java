package io.lsmpolicies.bench.vsrocks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One row of the report: a measurement of one phase of one pairing, ours against RocksDB's. Each sample (a round,
 * and for reads and scans each read repeat within it) gives one ratio, ours / RocksDB's, from the two systems'
 * results of that sample; the row gives their median and range.
 * Whether a ratio above 1 is good for us is {@code higherIsBetter} (throughput: yes; latency, memory, space,
 * write amplification: no).
 *
 * @param pairing        the pairing
 * @param phase          the phase
 * @param metric         the measurement's name
 * @param label          its name in the table
 * @param higherIsBetter whether a higher value is better for a system
 * @param ours           the median of our values over the samples
 * @param rocksdb        the median of RocksDB's values over the samples
 * @param ratio          the median of the per-sample ratios (NaN where no sample has both values, RocksDB's above 0)
 * @param min            the smallest per-sample ratio
 * @param max            the largest per-sample ratio
 * @param perSample      the per-sample ratios, in order of round, then repeat
 */
record Ratio(String pairing, String phase, String metric, String label, boolean higherIsBetter, double ours,
        double rocksdb, double ratio, double min, double max, List<Double> perSample) {

    Ratio {
        perSample = List.copyOf(perSample);
    }

    /** The rows of {@code results}: every pairing (in order of appearance), phase and applicable {@link Metric}. */
    static List<Ratio> of(List<PhaseResult> results) {
        Set<String> pairings = new LinkedHashSet<>();
        Set<String> phases = new LinkedHashSet<>();
        Set<List<Integer>> samples = new TreeSet<>(Comparator.<List<Integer>>comparingInt(k -> k.get(0))
                .thenComparingInt(k -> k.get(1)));
        for (PhaseResult r : results) {
            pairings.add(r.pairing());
            phases.add(r.phase());
            samples.add(List.of(r.round(), r.repeat()));
        }
        List<Ratio> rows = new ArrayList<>();
        for (String pairing : pairings) {
            for (String phase : phases) {
                for (Metric m : Metric.ALL) {
                    if (!m.appliesTo(phase)) {
                        continue;
                    }
                    List<Double> ours = new ArrayList<>();
                    List<Double> rocks = new ArrayList<>();
                    List<Double> ratios = new ArrayList<>();
                    for (List<Integer> sample : samples) {
                        double o = find(results, pairing, Side.OURS, sample, phase, m.key());
                        double k = find(results, pairing, Side.ROCKSDB, sample, phase, m.key());
                        if (!Double.isNaN(o)) {
                            ours.add(o);
                        }
                        if (!Double.isNaN(k)) {
                            rocks.add(k);
                        }
                        if (!Double.isNaN(o) && !Double.isNaN(k) && k > 0) {
                            ratios.add(o / k);
                        }
                    }
                    if (ours.isEmpty() && rocks.isEmpty()) {
                        continue;
                    }
                    rows.add(new Ratio(pairing, phase, m.key(), m.label(), m.higherIsBetter(), median(ours),
                            median(rocks), median(ratios), min(ratios), max(ratios), ratios));
                }
            }
        }
        return rows;
    }

    private static double find(List<PhaseResult> results, String pairing, Side side, List<Integer> sample,
            String phase, String key) {
        for (PhaseResult r : results) {
            if (r.pairing().equals(pairing) && r.side().equals(side.label()) && r.round() == sample.get(0)
                    && r.repeat() == sample.get(1) && r.phase().equals(phase)) {
                return r.value(key);
            }
        }
        return Double.NaN;
    }

    /** The median (the mean of the middle two for an even count); NaN for none. */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
