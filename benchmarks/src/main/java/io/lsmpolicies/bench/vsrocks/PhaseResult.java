package io.lsmpolicies.bench.vsrocks;

import java.util.Map;

/**
 * One system's measurements of one phase in one round.
 *
 * @param pairing the pairing ({@link Pairing#toString()})
 * @param side    {@code ours} or {@code rocksdb}
 * @param round   the round, from 1
 * @param repeat  the read repeat within the round, from 1 ({@code reads} and {@code scans} run on the round's
 *                loaded stores more than once, the systems alternating); 1 for loads
 * @param phase   {@code load-1t}, {@code load-4t}, ... (client threads), {@code reads} or {@code scans}
 * @param values  the measurements by name ({@link Metric}); NaN where not measured
 */
record PhaseResult(String pairing, String side, int round, int repeat, String phase, Map<String, Double> values) {

    PhaseResult {
        values = Map.copyOf(values);
    }

    /** The measurement {@code name}, or NaN if absent. */
    double value(String name) {
        Double v = values.get(name);
        return v == null ? Double.NaN : v;
    }

    /** The phase name of a load with {@code threads} client threads. */
    static String load(int threads) {
        return "load-" + threads + "t";
    }
}
