package io.lsmpolicies.merge.sim.cli;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.sim.FamilyEvaluation;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.sim.TraceFamily;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/lsm-sim-families}: the table of docs/policies.md, section 6.3. For every standard {@link TraceFamily}, the
 * competitive ratio (total cost / offline optimum, mean over the seeds) of the policy under test ({@code adaptive} by
 * default) and of the best static policy of {@link FamilyEvaluation#staticGrid()}, then the goals: the policy's worst
 * ratio, the families where it is more than 5% above the best static policy, and the static policies that are
 * within 2x of the optimum on every family.
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

    @Option(names = "--read-cost", paramLabel = "B", defaultValue = "4096",
            description = "Bytes of one SSTable probe (default: ${DEFAULT-VALUE}).")
    long readCost;

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
        long[] seedList = new long[seeds];
        for (int i = 0; i < seeds; i++) {
            seedList[i] = firstSeed + i;
        }
        List<String> staticLabels = new ArrayList<>(statics.keySet());
        List<FamilyEvaluation.Row> rows = new ArrayList<>();
        out.printf(Locale.ROOT, "%-18s %14s %9s  %-44s %9s %10s%n", "family", "optimum (MB)", policy.length() > 9
                ? "tested" : policy, "best static", "its ratio", "vs best");
        out.println("-".repeat(110));
        for (TraceFamily f : TraceFamily.standard()) {
            FamilyEvaluation.Row row = FamilyEvaluation.evaluate(f, lengths, seedList, all, readCost);
            rows.add(row);
            String best = row.best(staticLabels);
            double mine = row.ratios().get(policy);
            double theirs = row.ratios().get(best);
            out.printf(Locale.ROOT, "%-18s %14.1f %9.3f  %-44s %9.3f %+9.1f%%%n", f.name(), row.optimum() / 1e6, mine,
                    best, theirs, 100 * (mine / theirs - 1));
        }
        out.println();
        double worst = 0;
        String worstFamily = "";
        List<String> above5 = new ArrayList<>();
        for (FamilyEvaluation.Row row : rows) {
            double mine = row.ratios().get(policy);
            if (mine > worst) {
                worst = mine;
                worstFamily = row.family().name();
            }
            double best = row.ratios().get(row.best(staticLabels));
            if (mine > 1.05 * best) {
                above5.add(String.format(Locale.ROOT, "%s (%+.1f%%)", row.family().name(), 100 * (mine / best - 1)));
            }
        }
        out.printf(Locale.ROOT, "%s: worst ratio to the optimum %.3f (%s); goal <= 1.3: %s%n", policy, worst,
                worstFamily, worst <= 1.3 ? "met" : "missed");
        out.printf(Locale.ROOT, "%s: more than 5%% above the best static policy on %d of %d families%s%n", policy,
                above5.size(), rows.size(), above5.isEmpty() ? "" : ": " + String.join(", ", above5));
        List<String> neverAbove2 = new ArrayList<>();
        for (String label : staticLabels) {
            double w = 0;
            for (FamilyEvaluation.Row row : rows) {
                w = Math.max(w, row.ratios().get(label));
            }
            if (w <= 2) {
                neverAbove2.add(String.format(Locale.ROOT, "%s (worst %.3f)", label, w));
            }
        }
        out.printf(Locale.ROOT, "static policies (%d in the grid) within 2x of the optimum on every family: %s%n",
                staticLabels.size(), neverAbove2.isEmpty() ? "none" : String.join(", ", neverAbove2));
        String length = horizons == null ? flushes + " flushes per trace" : "traces of "
                + java.util.Arrays.stream(lengths).mapToObj(Integer::toString).collect(java.util.stream.Collectors
                        .joining(", ")) + " flushes, each policy's ratio averaged over them";
        out.printf(Locale.ROOT, "%s, seeds %d..%d, read cost %d bytes per probe; ratio = total cost / "
                + "exact offline optimum, mean over the seeds%n", length, firstSeed, firstSeed + seeds - 1, readCost);
        return 0;
    }
}
