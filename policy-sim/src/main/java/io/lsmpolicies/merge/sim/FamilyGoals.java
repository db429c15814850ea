package io.lsmpolicies.merge.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The goals of docs/policies.md (section 6.3) read off one evaluation of the trace families ({@link FamilyEvaluation}):
 * the tested policy's worst ratio to the optimum (goal: at most {@value #WORST_GOAL}), the families where it is more
 * than {@value #MARGIN_GOAL} above the best static policy of that family (goal: none), and the static policies within
 * {@value #STATIC_BOUND} times the optimum on every family (goal: none, so that no single static choice is safe).
 *
 * @param tested       the label of the policy under test
 * @param worst        its largest ratio over the families
 * @param worstFamily  the family of that ratio
 * @param misses       the families where it is more than {@link #MARGIN_GOAL} above the best static policy, in family
 *                     order
 * @param robust       the static policies within {@link #STATIC_BOUND} of the optimum on every family, in grid order
 * @param mostRobust   the static policy whose largest ratio over the families is least (the one to pick not knowing
 *                     the mix), with that ratio
 */
public record FamilyGoals(String tested, double worst, String worstFamily, List<Miss> misses, List<Ranked> robust,
        Ranked mostRobust) {
    /** The goal on the tested policy's worst ratio to the optimum. */
    public static final double WORST_GOAL = 1.3;
    /** The goal on the tested policy's distance above the best static policy of each family, as a fraction. */
    public static final double MARGIN_GOAL = 0.05;
    /** The ratio every static policy should exceed on some family. */
    public static final double STATIC_BOUND = 2;

    /**
     * A family where the tested policy is more than {@link #MARGIN_GOAL} above the best static policy.
     *
     * @param family the family's name
     * @param above  the tested ratio over the best static ratio, minus 1
     */
    public record Miss(String family, double above) {
    }

    /**
     * A static policy and its largest ratio over the families.
     *
     * @param label the policy's label in the grid
     * @param worst its largest ratio
     */
    public record Ranked(String label, double worst) {
    }

    /**
     * Copies the lists: a {@code FamilyGoals} does not change after it is built.
     *
     * @param tested      the label of the policy under test
     * @param worst       its largest ratio over the families
     * @param worstFamily the family of that ratio
     * @param misses      the families where it is more than {@link #MARGIN_GOAL} above the best static policy
     * @param robust      the static policies within {@link #STATIC_BOUND} of the optimum on every family
     * @param mostRobust  the static policy whose largest ratio over the families is least
     */
    public FamilyGoals {
        misses = List.copyOf(misses);
        robust = List.copyOf(robust);
    }

    /**
     * Reads the goals off {@code rows}.
     *
     * @param rows         one row per family, each with a ratio for {@code tested} and every static label
     * @param tested       the label of the policy under test
     * @param staticLabels the static policies' labels
     * @return the goals
     * @throws IllegalArgumentException if {@code rows} or {@code staticLabels} is empty
     */
    public static FamilyGoals of(List<FamilyEvaluation.Row> rows, String tested, List<String> staticLabels) {
        if (rows.isEmpty() || staticLabels.isEmpty()) {
            throw new IllegalArgumentException("goals need at least one family and one static policy");
        }
        double worst = 0;
        String worstFamily = "";
        List<Miss> misses = new ArrayList<>();
        for (FamilyEvaluation.Row row : rows) {
            double mine = row.ratios().get(tested);
            if (mine > worst) {
                worst = mine;
                worstFamily = row.family().name();
            }
            double best = row.ratios().get(row.best(staticLabels));
            if (mine > (1 + MARGIN_GOAL) * best) {
                misses.add(new Miss(row.family().name(), mine / best - 1));
            }
        }
        List<Ranked> robust = new ArrayList<>();
        Ranked mostRobust = null;
        for (String label : staticLabels) {
            double w = 0;
            for (FamilyEvaluation.Row row : rows) {
                w = Math.max(w, row.ratios().get(label));
            }
            Ranked r = new Ranked(label, w);
            if (w <= STATIC_BOUND) {
                robust.add(r);
            }
            if (mostRobust == null || w < mostRobust.worst()) {
                mostRobust = r;
            }
        }
        return new FamilyGoals(tested, worst, worstFamily, misses, robust, mostRobust);
    }

    /** {@return whether the worst ratio is within {@link #WORST_GOAL}} */
    public boolean worstMet() {
        return worst <= WORST_GOAL;
    }
}
