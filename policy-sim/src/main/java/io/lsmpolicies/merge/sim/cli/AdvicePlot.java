package io.lsmpolicies.merge.sim.cli;

import io.lsmpolicies.merge.plot.BarCharts;
import io.lsmpolicies.merge.plot.PngFile;
import io.lsmpolicies.merge.sim.Advisor;
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
 * The advisor's comparison as a PNG: for the cheapest candidates (and {@code adaptive} wherever it ranks), one
 * stacked bar each of merge cost and read cost, both divided by the optimum, so a bar's height is its ratio to the
 * optimum (1 is the best any schedule can do). Every axis has labelled ticks: the candidates' labels under the
 * bars, ratios on the y axis.
 */
public final class AdvicePlot {
    /** Bars drawn at most (the ranking's head). */
    public static final int BARS = 20;

    private AdvicePlot() {
    }

    /** The chart for {@code advice}. */
    public static CategoryChart chart(Advisor.Advice advice) {
        List<Advisor.Ranked> shown = new ArrayList<>(advice.ranking().subList(0,
                Math.min(BARS, advice.ranking().size())));
        for (Advisor.Ranked r : advice.ranking()) {
            if (r.label().startsWith("adaptive") && !shown.contains(r)) {
                shown.add(r);
            }
        }
        double optimum = Math.max(1, advice.optimum().cost());
        List<String> labels = new ArrayList<>();
        List<Double> merge = new ArrayList<>();
        List<Double> read = new ArrayList<>();
        for (int i = 0; i < shown.size(); i++) {
            Advisor.Ranked r = shown.get(i);
            labels.add((advice.ranking().indexOf(r) + 1) + ". " + r.label());
            merge.add(r.result().mergeCost() / optimum);
            read.add(r.result().readCost() / optimum);
        }
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(700)
                .title(String.format(Locale.ROOT, "Predicted cost against the %s (%d flushes, %d reads): %s"
                                + " recommended",
                        advice.optimum().exact() ? "optimum" : "optimum's lower bound",
                        advice.workload().flushes(), advice.workload().totalReads(), advice.recommended().label()))
                .xAxisTitle("candidate, by rank (cheapest first)")
                .yAxisTitle("cost / optimum (merge cost + read cost; 1 = the optimum)")
                .build();
        chart.getStyler().setStacked(true);
        BarCharts.style(chart, Styler.LegendPosition.InsideNW, "0.00", new Color(0x1f77b4), new Color(0xff7f0e));
        chart.addSeries("merge cost / optimum", labels, merge);
        chart.addSeries("read cost / optimum", labels, read);
        return chart;
    }

    /** Writes the chart of {@code advice} to {@code path} as a PNG, creating parent directories. */
    public static void write(Advisor.Advice advice, Path path) {
        CategoryChart chart = chart(advice);
        try {
            PngFile.write(chart, path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + path + ": " + e.getMessage(), e);
        }
    }
}
