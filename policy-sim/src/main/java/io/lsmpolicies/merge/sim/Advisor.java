package io.lsmpolicies.merge.sim;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Ranks merge policies for one workload by their predicted cost in the model with reads (docs/policies.md, section
 * 6): every candidate runs in the {@link Simulator} on the workload's flush lengths and read counts, the exact
 * offline optimum ({@link OfflineOptimum}; a lower bound beyond its exact limit) is the yardstick, and the
 * candidate with the least {@code totalCost} is recommended. Pure: reads and writes nothing.
 */
public final class Advisor {

    private Advisor() {
    }

    /**
     * One candidate's predicted figures.
     *
     * @param label             the candidate's label, e.g. {@code binomial k=3}
     * @param spec              the policy's specification for {@code --policy}, e.g. {@code binomial:k=3}
     * @param result            the simulator's result (merge, read and total cost, write amplification,
     *                          transient space amplification, SSTable counts)
     * @param readAmplification SSTables a read probes, averaged over the reads (over the flushes when nothing is
     *                          read)
     * @param vsOptimum         {@code totalCost} / the optimum (an upper bound on the true ratio when the optimum is
     *                          a lower bound)
     */
    public record Ranked(String label, String spec, SimulationResult result, double readAmplification,
            double vsOptimum) {
    }

    /**
     * The advice.
     *
     * @param workload the workload advised on
     * @param optimum  the least total cost of any schedule (or a lower bound on it)
     * @param ranking  every candidate, cheapest predicted total cost first (ties: less transient space, then fewer
     *                 SSTables at most, then label)
     * @param reason   why the first is recommended, in one sentence
     */
    public record Advice(AdvisorWorkload workload, OptimalCost optimum, List<Ranked> ranking, String reason) {
        /**
         * Copies the ranking.
         *
         * @param workload the workload advised on
         * @param optimum  the least total cost of any schedule (or a lower bound on it)
         * @param ranking  every candidate, cheapest predicted total cost first (ties: less transient space, then fewer
         *                 SSTables at most, then label)
         * @param reason   why the first is recommended, in one sentence
         */
        public Advice {
            ranking = List.copyOf(ranking);
        }

        /** {@return the recommended candidate: the first of the ranking} */
        public Ranked recommended() {
            return ranking.get(0);
        }
    }

    /**
     * The default candidates: {@code adaptive} (default parameters) and the static grid of
     * {@link FamilyEvaluation#staticGrid()}, labelled as there.
     *
     * @return the candidates by label
     */
    public static Map<String, MergePolicy> candidates() {
        Map<String, MergePolicy> out = new LinkedHashMap<>();
        out.put("adaptive", MergePolicies.create("adaptive", Map.of()));
        out.putAll(FamilyEvaluation.staticGrid());
        return out;
    }

    /**
     * Runs every candidate on {@code workload} and ranks them.
     *
     * @param candidates label ({@code name} or {@code name param=value}) to policy; {@code adaptive} among them
     *                   prices a probe at its own {@code read-cost} parameter, so give it the workload's read cost
     *                   (as {@link #candidates(long)} does)
     * @param exactLimit the longest workload solved exactly ({@link OfflineOptimum#DEFAULT_EXACT_LIMIT})
     * @param workload   the workload
     * @return the advice
     * @throws IllegalArgumentException if there is no candidate or a candidate is not a stack policy
     */
    public static Advice advise(AdvisorWorkload workload, Map<String, MergePolicy> candidates, int exactLimit) {
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("no candidate policy to rank");
        }
        long[] lengths = workload.lengths();
        long[] reads = workload.reads();
        OptimalCost optimum = OfflineOptimum.minTotalCost(lengths, reads, workload.readCostBytes(), exactLimit);
        List<Ranked> ranked = new ArrayList<>();
        for (Map.Entry<String, MergePolicy> e : candidates.entrySet()) {
            long[] probes = new long[1];
            double[] countSum = new double[1];
            SimulationResult r = new Simulator(e.getValue(), FlushSizeSources.of(lengths, workload.source()),
                    ReadCountSources.of(reads, workload.source()), workload.readCostBytes(), 0)
                    .run(lengths.length, step -> {
                        probes[0] += step.reads() * step.componentCount();
                        countSum[0] += step.componentCount();
                    });
            long totalReads = workload.totalReads();
            double readAmp = totalReads > 0 ? (double) probes[0] / totalReads : countSum[0] / lengths.length;
            ranked.add(new Ranked(e.getKey(), spec(e.getKey()), r, readAmp, optimum.ratio(r.totalCost())));
        }
        ranked.sort(Comparator.comparingLong((Ranked x) -> x.result().totalCost())
                .thenComparingDouble(x -> x.result().transientSpaceAmplification())
                .thenComparingInt(x -> x.result().maxComponentCount())
                .thenComparing(Ranked::label));
        return new Advice(workload, optimum, ranked, reason(workload, optimum, ranked));
    }

    /**
     * {@link #candidates()} with {@code adaptive}'s {@code read-cost} set to {@code readCostBytes} (labelled
     * {@code adaptive read-cost=B} unless B is the default).
     *
     * @param readCostBytes the bytes one read's probe of one SSTable costs
     * @return the candidates by label
     */
    public static Map<String, MergePolicy> candidates(long readCostBytes) {
        Map<String, MergePolicy> out = candidates();
        if (readCostBytes != Simulator.DEFAULT_READ_COST_BYTES) {
            Map<String, MergePolicy> withCost = new LinkedHashMap<>();
            withCost.put("adaptive read-cost=" + readCostBytes,
                    MergePolicies.create("adaptive", Map.of("read-cost", String.valueOf(readCostBytes))));
            out.remove("adaptive");
            withCost.putAll(out);
            return withCost;
        }
        return out;
    }

    /** {@code name param=value} to the specification form {@code name:param=value}. */
    static String spec(String label) {
        return label.replaceFirst(" ", ":");
    }

    private static String reason(AdvisorWorkload w, OptimalCost optimum, List<Ranked> ranked) {
        Ranked best = ranked.get(0);
        SimulationResult r = best.result();
        StringBuilder s = new StringBuilder();
        s.append(best.label()).append(" has the least predicted total cost, ")
                .append(String.format(Locale.ROOT, "%.3f", best.vsOptimum())).append("x the ")
                .append(optimum.exact() ? "optimum" : "optimum's lower bound");
        if (ranked.size() > 1) {
            Ranked next = ranked.get(1);
            double dearer = best.result().totalCost() == 0 ? 0
                    : 100.0 * (next.result().totalCost() - r.totalCost()) / r.totalCost();
            s.append(String.format(Locale.ROOT, "; the next, %s, costs %.1f%% more", next.label(), dearer));
            if (dearer < 1.0) {
                s.append(" (a tie within the model's precision: choose by the other columns)");
            }
        }
        double readShare = r.totalCost() == 0 ? 0 : 100.0 * r.readCost() / r.totalCost();
        s.append(String.format(Locale.ROOT, "; reads are %.0f%% of its cost", readShare));
        if (w.totalReads() == 0) {
            s.append(" (this workload has no reads, so the fewest bytes written wins; an engine should still bound"
                    + " the SSTables a later read would probe)");
        } else if (readShare > 60) {
            s.append(" (read-heavy: it keeps about ")
                    .append(String.format(Locale.ROOT, "%.1f", best.readAmplification())).append(" SSTables a read)");
        } else if (readShare < 40) {
            s.append(" (write-heavy: model write amplification ")
                    .append(String.format(Locale.ROOT, "%.2f", r.modelWriteAmplification())).append(')');
        }
        return s.toString();
    }
}
