package io.lsmpolicies.merge.sim.cli;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.sim.FamilyEvaluation;
import io.lsmpolicies.merge.sim.FamilyGoals;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.sim.TraceFamily;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/lsm-sim-families}: the table of docs/policies.md, section 6.3. For every standard {@link TraceFamily}, the
 * competitive ratio (total cost / offline optimum, mean over the seeds) of the policy under test ({@code adaptive} by
 * default) and of the best static policy of {@link FamilyEvaluation#staticGrid()}, then the goals: the policy's worst
 * ratio, the families where it is more than 5% above the best static policy, and the static policies that are
 * within 2x of the optimum on every family ({@link FamilyGoals}). {@code --seed-sets} repeats the evaluation on other
 * seeds and summarises the goals per set; {@code --plot} draws the table ({@link FamilyPlot}).
 */
@Command(name = "lsm-sim-families", mixinStandardHelpOptions = true,
        description = "Compare a policy (default adaptive) with the offline optimum and the best static policy on the "
                + "seeded trace families.")
public final class FamilyTable implements Callable<Integer> {
    @Option(names = "--policy", paramLabel = "NAME[:P=V,...]", defaultValue = "adaptive",
            description = "The policy under test (default: ${DEFAULT-VALUE}).")
    String policy;

    @Option(names = "--flushes", paramLabel = "N", defaultValue = "500",
            description = "Flushes per trace (default: ${DEFAULT-VALUE}; the optimum is exact up to 2000).")
    int flushes;

    @Option(names = "--horizons", paramLabel = "N,N,...", split = ",",
            description = "Average each policy's ratio over traces of these lengths (one static policy is then chosen "
                    + "for all of them), instead of --flushes.")
    int[] horizons;

    @Option(names = "--seeds", paramLabel = "S", defaultValue = "3",
            description = "Traces per family (default: ${DEFAULT-VALUE}).")
    int seeds;

    @Option(names = "--first-seed", paramLabel = "X", defaultValue = "1000",
            description = "Seeds X, X+1, ... (default: ${DEFAULT-VALUE}).")
    long firstSeed;

    @Option(names = "--seed-sets", paramLabel = "N", defaultValue = "1",
            description = "Also evaluate N - 1 more sets of --seeds seeds, set i starting at X + 1000 i, and summarise "
                    + "the goals per set: a check on seeds the rule was not chosen on (default: ${DEFAULT-VALUE}).")
    int seedSets;

    @Option(names = "--plot", paramLabel = "FILE.png",
            description = "Plot the first set's table: each family's cost above the optimum for the tested policy, "
                    + "the family's best static policy and the static policy with the least worst case.")
    Path plot;

    @Option(names = "--read-cost", paramLabel = "B", defaultValue = "4096",
            description = "Bytes of one SSTable probe (default: ${DEFAULT-VALUE}).")
    long readCost;

    /** How far apart the first seeds of two seed sets are. */
    static final int SEED_SET_STRIDE = 1000;

    private final PrintStream out;

    FamilyTable(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new FamilyTable(System.out)).execute(args));
    }

    @Override
    public Integer call() {
        if (flushes < 1 || seeds < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--flushes and --seeds must be >= 1");
        }
        if (seedSets < 1 || seedSets > 1 && seeds > SEED_SET_STRIDE) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--seed-sets must be >= 1, and with more "
                    + "than one set --seeds at most " + SEED_SET_STRIDE + " (the sets would overlap)");
        }
        int[] lengths = horizons == null ? new int[] {flushes} : horizons.clone();
        for (int n : lengths) {
            if (n < 1) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--horizons: every length must be >= 1, "
                        + "was " + n);
            }
        }
        MergePolicy tested = MergePolicies.parse(policy);
        Simulator.requireStack(tested);
        Map<String, MergePolicy> statics = FamilyEvaluation.staticGrid();
        Map<String, MergePolicy> all = new LinkedHashMap<>();
        all.put(policy, tested);
        all.putAll(statics);
        List<String> staticLabels = new ArrayList<>(statics.keySet());
        out.printf(Locale.ROOT, "%-18s %14s %9s  %-44s %9s %10s%n", "family", "optimum (MB)", policy.length() > 9
                ? "tested" : policy, "best static", "its ratio", "vs best");
        out.println("-".repeat(110));
        List<FamilyEvaluation.Row> rows = FamilyEvaluation.evaluate(TraceFamily.standard(), lengths, seedsOf(0), all,
                readCost);
        for (FamilyEvaluation.Row row : rows) {
            String best = row.best(staticLabels);
            double mine = row.ratios().get(policy);
            double theirs = row.ratios().get(best);
            out.printf(Locale.ROOT, "%-18s %14.1f %9.3f  %-44s %9.3f %+9.1f%%%n", row.family().name(),
                    row.optimum() / 1e6, mine,
                    best, theirs, 100 * (mine / theirs - 1));
        }
        out.println();
        FamilyGoals goals = FamilyGoals.of(rows, policy, staticLabels);
        out.printf(Locale.ROOT, "%s: worst ratio to the optimum %.3f (%s); goal <= %.1f: %s%n", policy, goals.worst(),
                goals.worstFamily(), FamilyGoals.WORST_GOAL, goals.worstMet() ? "met" : "missed");
        out.printf(Locale.ROOT, "%s: more than %.0f%% above the best static policy on %d of %d families%s%n", policy,
                100 * FamilyGoals.MARGIN_GOAL, goals.misses().size(), rows.size(), goals.misses().isEmpty() ? ""
                        : ": " + misses(goals));
        List<String> robust = new ArrayList<>();
        for (FamilyGoals.Ranked r : goals.robust()) {
            robust.add(String.format(Locale.ROOT, "%s (worst %.3f)", r.label(), r.worst()));
        }
        out.printf(Locale.ROOT, "static policies (%d in the grid) within %.0fx of the optimum on every family: %s"
                + " (least worst case: %s, %.3f)%n", staticLabels.size(), FamilyGoals.STATIC_BOUND,
                robust.isEmpty() ? "none" : String.join(", ", robust), goals.mostRobust().label(),
                goals.mostRobust().worst());
        String length = horizons == null ? flushes + " flushes per trace" : "traces of "
                + Arrays.stream(lengths).mapToObj(Integer::toString).collect(Collectors.joining(", "))
                + " flushes, each policy's ratio averaged over them";
        out.printf(Locale.ROOT, "%s, seeds %s, read cost %d bytes per probe; ratio = total cost / "
                + "exact offline optimum, mean over the seeds%n", length, seedRange(0), readCost);
        if (plot != null) {
            FamilyPlot.write(rows, goals, staticLabels, length + ", seeds " + seedRange(0), plot);
            out.println("plot: " + plot);
        }
        if (seedSets > 1) {
            seedSetSummary(goals, lengths, all, staticLabels);
        }
        return 0;
    }

    /** One line per seed set (the first one's goals already computed), then how many sets meet each goal. */
    private void seedSetSummary(FamilyGoals first, int[] lengths, Map<String, MergePolicy> all,
            List<String> staticLabels) {
        out.println();
        out.printf(Locale.ROOT, "%-14s %-32s %s%n", "seeds", "worst ratio (family)", "families more than "
                + Math.round(100 * FamilyGoals.MARGIN_GOAL) + "% above the best static policy");
        int worstMet = 0;
        int noMiss = 0;
        int misses = 0;
        int families = TraceFamily.standard().size();
        for (int set = 0; set < seedSets; set++) {
            FamilyGoals goals = first;
            if (set > 0) {
                goals = FamilyGoals.of(FamilyEvaluation.evaluate(TraceFamily.standard(), lengths, seedsOf(set), all,
                        readCost), policy, staticLabels);
            }
            worstMet += goals.worstMet() ? 1 : 0;
            noMiss += goals.misses().isEmpty() ? 1 : 0;
            misses += goals.misses().size();
            out.printf(Locale.ROOT, "%-14s %-32s %s%n", seedRange(set), String.format(Locale.ROOT, "%.3f (%s)%s",
                    goals.worst(), goals.worstFamily(), goals.worstMet() ? "" : " *"), goals.misses().isEmpty()
                    ? "none" : misses(goals));
        }
        out.printf(Locale.ROOT, "%s over %d seed sets: worst ratio <= %.1f in %d; within %.0f%% of the best static "
                + "policy on every family in %d (%d of %d family results more than %.0f%% above)%n", policy, seedSets,
                FamilyGoals.WORST_GOAL, worstMet, 100 * FamilyGoals.MARGIN_GOAL, noMiss, misses, seedSets * families,
                100 * FamilyGoals.MARGIN_GOAL);
    }

    private long[] seedsOf(int set) {
        long[] out = new long[seeds];
        for (int i = 0; i < seeds; i++) {
            out[i] = firstSeed + (long) SEED_SET_STRIDE * set + i;
        }
        return out;
    }

    private String seedRange(int set) {
        long from = firstSeed + (long) SEED_SET_STRIDE * set;
        return from + ".." + (from + seeds - 1);
    }

    private static String misses(FamilyGoals goals) {
        List<String> parts = new ArrayList<>();
        for (FamilyGoals.Miss m : goals.misses()) {
            parts.add(String.format(Locale.ROOT, "%s (%+.1f%%)", m.family(), 100 * m.above()));
        }
        return String.join(", ", parts);
    }
}
