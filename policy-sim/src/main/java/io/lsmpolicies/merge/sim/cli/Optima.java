package io.lsmpolicies.merge.sim.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lsmpolicies.merge.sim.OptimalCost;
import io.lsmpolicies.merge.sim.SimulationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The offline optima asked for with {@code --optimal} and {@code --optimal-depth K}, and how each format shows
 * them beside a policy's result: {@code optimalCost} and {@code competitiveRatio} = totalCost / optimalCost;
 * {@code optimalDepthCost} and {@code optimalDepthRatio} = mergeCost / optimalDepthCost, with
 * {@code keepsDepthBound} saying whether the policy kept at most K SSTables itself. Where an optimum is only a
 * lower bound ({@code optimalBound} / {@code optimalDepthBound} say so), its ratios are upper bounds.
 *
 * @param total    the least total cost, or null if not asked for
 * @param prefixes the least total cost of the first t flushes at {@code [t - 1]} (as exact as {@code total}), or
 *                 null
 * @param depth    the least merge cost with at most {@code k} SSTables after every step, or null
 * @param k        the depth bound of {@code depth}
 */
record Optima(OptimalCost total, long[] prefixes, OptimalCost depth, int k) {

    /** The cost plot's label of {@link #prefixes}: every policy's cumulative cost stays on or above it. */
    String prefixLabel() {
        return total.exact() ? "optimum of flushes 1..t" : "lower bound on the optimum of flushes 1..t";
    }

    boolean any() {
        return total != null || depth != null;
    }

    /** Adds the optimum fields to one policy's JSON object. */
    void addTo(ObjectNode json, SimulationResult r) {
        if (total != null) {
            json.put("optimalCost", total.cost());
            json.put("optimalBound", total.describe());
            json.put("competitiveRatio", total.ratio(r.totalCost()));
        }
        if (depth != null) {
            json.put("optimalDepthK", k);
            json.put("optimalDepthCost", depth.cost());
            json.put("optimalDepthBound", depth.describe());
            json.put("optimalDepthRatio", depth.ratio(r.mergeCost()));
            json.put("keepsDepthBound", r.maxComponentCount() <= k);
        }
    }

    /** The extra CSV columns (empty when neither optimum was asked for). */
    String csvHeader() {
        List<String> cols = new ArrayList<>();
        if (total != null) {
            cols.add("optimal_cost,optimal_bound,competitive_ratio");
        }
        if (depth != null) {
            cols.add("optimal_depth_k,optimal_depth_cost,optimal_depth_bound,optimal_depth_ratio,keeps_depth_bound");
        }
        return cols.isEmpty() ? "" : "," + String.join(",", cols);
    }

    String csvRow(SimulationResult r) {
        StringBuilder b = new StringBuilder();
        if (total != null) {
            b.append(String.format(Locale.ROOT, ",%d,%s,%.6f", total.cost(), total.describe(),
                    total.ratio(r.totalCost())));
        }
        if (depth != null) {
            b.append(String.format(Locale.ROOT, ",%d,%d,%s,%.6f,%b", k, depth.cost(), depth.describe(),
                    depth.ratio(r.mergeCost()), r.maxComponentCount() <= k));
        }
        return b.toString();
    }

    /** The extra table columns' header. */
    String tableHeader() {
        return (total != null ? String.format(Locale.ROOT, " %10s", "vs optimum") : "")
                + (depth != null ? String.format(Locale.ROOT, " %12s", "vs depth-" + k) : "");
    }

    String tableCells(SimulationResult r) {
        return (total != null ? String.format(Locale.ROOT, " %10.3f", total.ratio(r.totalCost())) : "")
                + (depth != null ? String.format(Locale.ROOT, " %11.3f%s", depth.ratio(r.mergeCost()),
                        r.maxComponentCount() <= k ? " " : "*") : "");
    }

    /** Lines under the table saying what the optima are. */
    List<String> tableNotes() {
        List<String> notes = new ArrayList<>();
        if (total != null) {
            notes.add("optimum: least total cost of any schedule " + total.cost() + " (" + total.describe() + ");"
                    + " vs optimum = total cost / optimum" + (total.exact() ? "" : ", an upper bound on the ratio"));
        }
        if (depth != null) {
            notes.add("depth-" + k + " optimum: least merge cost with at most " + k + " SSTables after every flush "
                    + depth.cost() + " (" + depth.describe() + "); vs depth-" + k + " = merge cost / it"
                    + (depth.exact() ? "" : ", an upper bound on the ratio") + "; * = more than " + k
                    + " SSTables at some flush, so not held to the bound (its ratio may be below 1)");
        }
        return notes;
    }
}
