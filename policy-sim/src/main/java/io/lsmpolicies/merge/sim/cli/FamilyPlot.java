package io.lsmpolicies.merge.sim.cli;

import io.lsmpolicies.merge.plot.BarCharts;
import io.lsmpolicies.merge.plot.PngFile;
import io.lsmpolicies.merge.sim.FamilyEvaluation;
import io.lsmpolicies.merge.sim.FamilyGoals;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The family table as a PNG: for every trace family, three bars of cost above the offline optimum (ratio - 1, in
 * per cent): the policy under test, the best static policy of that family (a different one per family, chosen
 * knowing the family), and the static policy whose worst family is least (one policy for all families, the choice a
 * user makes not knowing the mix). Families along the x axis, per cent on the y axis, both labelled.
 */
public final class FamilyPlot {
    private FamilyPlot() {
    }

    /**
     * The chart of one evaluation.
     *
     * @param rows         one row per family
     * @param goals        the goals read off {@code rows}
     * @param staticLabels the static policies' labels
     * @param caption      what was evaluated (trace lengths, seeds), for the title
     * @return the chart
     */
    public static CategoryChart chart(List<FamilyEvaluation.Row> rows, FamilyGoals goals, List<String> staticLabels,
            String caption) {
        List<String> families = new ArrayList<>();
        List<Double> tested = new ArrayList<>();
        List<Double> best = new ArrayList<>();
        List<Double> robust = new ArrayList<>();
        for (FamilyEvaluation.Row row : rows) {
            families.add(row.family().name());
            tested.add(percentAbove(row.ratios().get(goals.tested())));
            best.add(percentAbove(row.ratios().get(row.best(staticLabels))));
            robust.add(percentAbove(row.ratios().get(goals.mostRobust().label())));
        }
        CategoryChart chart = new CategoryChartBuilder().width(1400).height(800)
                .title(String.format(Locale.ROOT, "Cost above the offline optimum by trace family (%s); goal for %s: "
                        + "at most %.0f%%", caption, goals.tested(), 100 * (FamilyGoals.WORST_GOAL - 1)))
                .xAxisTitle("trace family (flush lengths / reads after each flush)")
                .yAxisTitle("total cost above the optimum, % (0 = the optimum)")
                .build();
        BarCharts.style(chart, Styler.LegendPosition.OutsideS, "0", new Color(0xd62728), new Color(0x2ca02c),
                new Color(0x7f7f7f));
        chart.addSeries(goals.tested(), families, tested);
        chart.addSeries("best static policy of each family (chosen knowing the family)", families, best);
        chart.addSeries(String.format(Locale.ROOT, "%s (the static policy with the least worst case, %.2fx)",
                goals.mostRobust().label(), goals.mostRobust().worst()), families, robust);
        return chart;
    }

    /**
     * Writes {@link #chart} to {@code path} as a PNG, creating parent directories.
     *
     * @param rows         one row per family
     * @param goals        the goals read off {@code rows}
     * @param staticLabels the static policies' labels
     * @param caption      what was evaluated, for the title
     * @param path         where to write
     */
    public static void write(List<FamilyEvaluation.Row> rows, FamilyGoals goals, List<String> staticLabels,
            String caption, Path path) {
        try {
            PngFile.write(chart(rows, goals, staticLabels, caption), path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + path + ": " + e.getMessage(), e);
        }
    }

    private static double percentAbove(double ratio) {
        return 100 * (ratio - 1);
    }
}
