package io.lsmpolicies.merge.sim;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares policies with the offline optimum on seeded {@link TraceFamily trace families}: for every family and seed
 * it simulates each policy ({@link Simulator}) and divides its {@code totalCost} by {@link OfflineOptimum#minTotalCost}
 * (exact for traces up to {@link OfflineOptimum#DEFAULT_EXACT_LIMIT} flushes); a policy's ratio on a family is the
 * mean over the seeds. {@link #staticGrid()} is the static competition: every registered stack policy but
 * {@code adaptive}, over a range of its main parameter.
 */
public final class FamilyEvaluation {
    /** The values the grid gives each policy's main integer parameter (clipped to its range). */
    static final int[] GRID_VALUES = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32};

    private FamilyEvaluation() {
    }

    /**
     * One family's outcome.
     *
     * @param family  the family
     * @param optimum the mean optimal total cost over the seeds, bytes
     * @param ratios  each policy's mean competitive ratio, by label, in the order given
     */
    public record Row(TraceFamily family, double optimum, Map<String, Double> ratios) {
        /**
         * {@return the label of the least ratio among {@code labels}}
         *
         * @param labels the labels of policies of this row
         */
        public String best(List<String> labels) {
            String best = null;
            for (String l : labels) {
                if (best == null || ratios.get(l) < ratios.get(best)) {
                    best = l;
                }
            }
            return best;
        }
    }

    /**
     * Every registered stack policy except {@code adaptive}, each over {@link #GRID_VALUES} of its first integer
     * parameter (its required one if any), the others at their defaults; a policy without an integer parameter once.
     * Labelled {@code name} or {@code name param=value}.
     *
     * @return the policies by label
     */
    public static Map<String, MergePolicy> staticGrid() {
        Map<String, MergePolicy> out = new LinkedHashMap<>();
        for (String name : MergePolicies.names(PolicyLayout.STACK)) {
            if (name.equals("adaptive")) {
                continue;
            }
            PolicyFactory f = MergePolicies.factory(name);
            ParameterSpec varied = null;
            for (ParameterSpec p : f.parameters()) {
                if (p.type() == ParameterSpec.Type.INT && (varied == null || (p.required() && !varied.required()))) {
                    varied = p;
                }
            }
            if (varied == null) {
                out.put(name, MergePolicies.create(name, Map.of()));
                continue;
            }
            for (int v : GRID_VALUES) {
                if (varied.accepts(v)) {
                    out.put(name + " " + varied.name() + "=" + v, MergePolicies.create(name, Map.of(varied.name(), v)));
                }
            }
        }
        return out;
    }

    /**
     * Runs every policy on {@code family}'s traces of {@code flushes} flushes for each seed.
     *
     * @param readCost the bytes of one SSTable probe
     * @param family   the trace family
     * @param flushes  the flushes of each trace
     * @param seeds    the seeds, one trace each
     * @param policies the policies by label
     * @return the family's row
     */
    public static Row evaluate(TraceFamily family, int flushes, long[] seeds, Map<String, MergePolicy> policies,
            long readCost) {
        Map<String, Double> sums = new LinkedHashMap<>();
        double optimumSum = 0;
        for (long seed : seeds) {
            long[][] trace = family.trace(flushes, seed);
            OptimalCost optimum = OfflineOptimum.minTotalCost(trace[0], trace[1], readCost,
                    OfflineOptimum.DEFAULT_EXACT_LIMIT);
            optimumSum += optimum.cost();
            for (Map.Entry<String, MergePolicy> e : policies.entrySet()) {
                SimulationResult r = new Simulator(e.getValue(), FlushSizeSources.of(trace[0], family.name()),
                        ReadCountSources.of(trace[1], family.name()), readCost, seed).run(flushes);
                sums.merge(e.getKey(), optimum.ratio(r.totalCost()), Double::sum);
            }
        }
        Map<String, Double> ratios = new LinkedHashMap<>();
        sums.forEach((k, v) -> ratios.put(k, v / seeds.length));
        return new Row(family, optimumSum / seeds.length, ratios);
    }

    /**
     * Runs every policy on {@code family}'s traces of each length in {@code horizons} for each seed, and averages: a
     * policy's ratio is its mean over the horizons of its mean over the seeds, so the best static policy of the row
     * is one policy chosen for all the horizons (a policy that does not know where the trace ends is matched with one
     * that does not either). A trace of fewer flushes is the start of a longer one of the same seed.
     *
     * @param family   the trace family
     * @param horizons the flushes of the traces, each {@code >= 1}, at least one
     * @param seeds    the seeds, one trace each per horizon
     * @param policies the policies by label
     * @param readCost the bytes of one SSTable probe
     * @return the family's row, its optimum the mean over the horizons
     * @throws IllegalArgumentException if {@code horizons} is empty
     */
    public static Row evaluate(TraceFamily family, int[] horizons, long[] seeds, Map<String, MergePolicy> policies,
            long readCost) {
        if (horizons.length == 0) {
            throw new IllegalArgumentException("family " + family.name() + ": no horizon to evaluate at");
        }
        Map<String, Double> sums = new LinkedHashMap<>();
        double optimumSum = 0;
        for (int n : horizons) {
            Row row = evaluate(family, n, seeds, policies, readCost);
            optimumSum += row.optimum();
            row.ratios().forEach((k, v) -> sums.merge(k, v, Double::sum));
        }
        Map<String, Double> ratios = new LinkedHashMap<>();
        sums.forEach((k, v) -> ratios.put(k, v / horizons.length));
        return new Row(family, optimumSum / horizons.length, ratios);
    }

    /**
     * {@return {@link #evaluate} for every family}
     *
     * @param families the trace families
     * @param flushes  the flushes of each trace
     * @param seeds    the seeds, one trace each
     * @param policies the policies by label
     * @param readCost the bytes of one SSTable probe
     */
    public static List<Row> evaluate(List<TraceFamily> families, int flushes, long[] seeds,
            Map<String, MergePolicy> policies, long readCost) {
        List<Row> rows = new ArrayList<>();
        for (TraceFamily f : families) {
            rows.add(evaluate(f, flushes, seeds, policies, readCost));
        }
        return rows;
    }

    /**
     * {@return {@link #evaluate(TraceFamily, int[], long[], Map, long)} for every family}
     *
     * @param families the trace families
     * @param horizons the flushes of the traces, each {@code >= 1}, at least one
     * @param seeds    the seeds, one trace each per horizon
     * @param policies the policies by label
     * @param readCost the bytes of one SSTable probe
     */
    public static List<Row> evaluate(List<TraceFamily> families, int[] horizons, long[] seeds,
            Map<String, MergePolicy> policies, long readCost) {
        List<Row> rows = new ArrayList<>();
        for (TraceFamily f : families) {
            rows.add(evaluate(f, horizons, seeds, policies, readCost));
        }
        return rows;
    }
}
