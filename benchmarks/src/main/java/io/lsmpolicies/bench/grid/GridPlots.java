package io.lsmpolicies.bench.grid;

import io.lsmpolicies.merge.plot.LogScale;
import io.lsmpolicies.merge.plot.PngFile;
import io.lsmpolicies.merge.plot.SeriesColors;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The grid's figures, after Mao et al. (VLDB Journal 2021, Sect. 4): write amplification against flushes (Fig. 3),
 * average read amplification against write amplification (Fig. 5), transient space amplification (Fig. 6), the
 * engine's write amplification against the simulator's (Fig. 11), and load throughput. One PNG per figure and
 * device profile; returns the files written.
 *
 * <p>Every figure of a run gives a system and policy ({@link #family}: {@code lsm:binomial}, {@code rocksdb:leveled})
 * the same colour ({@link SeriesColors}, built once from all the run's cells); cells of one family in one chart
 * differ by line style (Fig. 3) or by their point labels. Every axis has labelled ticks: the logarithmic ones of
 * Fig. 5 through {@link LogScale}. A point is labelled with its defining parameter ({@code k=4}), or with its
 * family and parameter where its series has that one point; {@link PointLabels} keeps the labels apart.
 */
final class GridPlots {
    /** Cells per Fig. 3 chart before it is split by the policies' k. */
    private static final int MAX_SERIES = 12;
    /** Line styles of the cells of one family within one Fig. 3 chart, in order. */
    private static final BasicStroke[] STROKES = {SeriesLines.SOLID, SeriesLines.DASH_DASH, SeriesLines.DOT_DOT,
        SeriesLines.DASH_DOT};
    /** The plot area of a 1000 x 650 chart, about, in pixels: with the legend inside, and with it outside. */
    private static final double PLOT_WIDTH = 920;
    private static final double PLOT_WIDTH_OUTSIDE_LEGEND = 770;
    private static final double PLOT_HEIGHT = 560;
    /** Where a read amplification of 0 (everything in the MemTable) is drawn on Fig. 5's log axis. */
    private static final double LOG_FLOOR = 1e-3;

    private GridPlots() {
    }

    static List<Path> write(List<CellResult> results, Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, Chart<?, ?>> e : charts(results).entrySet()) {
            files.add(save(e.getValue(), dir.resolve(e.getKey())));
        }
        return files;
    }

    /** The figures of {@code results} by file name, in the order they are written. */
    static Map<String, Chart<?, ?>> charts(List<CellResult> results) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        Map<String, List<CellResult>> byDevice = new TreeMap<>();
        List<String> families = new ArrayList<>();
        for (CellResult r : results) {
            if (r.ok()) {
                byDevice.computeIfAbsent(r.cell().device(), d -> new ArrayList<>()).add(r);
                families.add(family(r.cell()));
            }
        }
        SeriesColors colors = SeriesColors.of(families);
        for (Map.Entry<String, List<CellResult>> e : byDevice.entrySet()) {
            String device = e.getKey();
            List<CellResult> cells = e.getValue();
            for (Map.Entry<String, List<CellResult>> g : fig3Groups(cells).entrySet()) {
                charts.put("fig3-wa-vs-flushes" + (cells.size() > MAX_SERIES ? "-" + g.getKey() : "") + "-" + device
                        + ".png", writeAmplificationCurves(cells.size() > MAX_SERIES ? g.getKey() : "", g.getValue(),
                        device, colors));
            }
            charts.put("fig5-read-vs-write-" + device + ".png", readVersusWrite(cells, device, colors));
            charts.put("fig6-transient-space-" + device + ".png", transientSpace(cells, device, colors));
            charts.put("throughput-" + device + ".png", throughput(cells, device, colors));
        }
        List<CellResult> modelled = results.stream().filter(r -> r.ok() && !Double.isNaN(r.modelWriteAmplification()))
                .toList();
        if (!modelled.isEmpty()) {
            charts.put("fig11-model-vs-engine.png", modelAgainstEngine(modelled, colors));
        }
        return charts;
    }

    /** The colour key of a cell: its system and policy name, without parameters ({@code lsm:binomial}). */
    static String family(Cell c) {
        return c.system().label() + ":" + c.policy().split(":", 2)[0];
    }

    /**
     * A cell's defining parameter as the paper's series vary it ({@code k=4}, {@code size-ratio=4}; see
     * {@link Cell#parameter}), or "" if it has none. Tuning parameters are left out to keep labels short.
     */
    static String parameterLabel(Cell c) {
        double p = c.parameter();
        if (Double.isNaN(p)) {
            return "";
        }
        String value = p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p);
        String policy = c.policy();
        for (String name : new String[] {"k", "size-ratio", "max-components"}) {
            if (policy.matches(".*[:,]" + name + "=[^,]*.*")) {
                return name + "=" + value;
            }
        }
        return value;
    }

    /**
     * Labels each point of a series: with the cell's parameter, or with its family and parameter if the series has
     * one point (then nothing but the colour would say which it is). {@code x} and {@code y} are in plot units.
     */
    private static void labelPoints(XYChart chart, PointLabels labels, List<CellResult> cells, double[] x,
            double[] y) {
        for (int i = 0; i < cells.size(); i++) {
            Cell c = cells.get(i).cell();
            String text = cells.size() == 1 ? (family(c) + " " + parameterLabel(c)).trim() : parameterLabel(c);
            if (!text.isEmpty()) {
                labels.add(chart, text, x[i], y[i]);
            }
        }
    }

    /** Splits a large grid by k (stack policies), the rest (size ratios, peers) in one group. */
    private static Map<String, List<CellResult>> fig3Groups(List<CellResult> cells) {
        Map<String, List<CellResult>> groups = new TreeMap<>();
        for (CellResult r : cells) {
            String key = r.cell().simulatable() && !Double.isNaN(r.cell().parameter())
                    && r.cell().policy().contains("k=") ? String.format(Locale.ROOT, "k%02d",
                    (int) r.cell().parameter()) : "others";
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        if (cells.size() <= MAX_SERIES) {
            return Map.of("all", cells);
        }
        return groups;
    }

    private static XYChart writeAmplificationCurves(String group, List<CellResult> cells, String device,
            SeriesColors colors) {
        XYChart chart = new XYChartBuilder().width(1000).height(650)
                .title("Write amplification against flushes (" + device + (group.isEmpty() ? "" : ", " + group) + ")")
                .xAxisTitle("flushes").yAxisTitle("write amplification so far").build();
        style(chart.getStyler());
        chart.getStyler().setXAxisTickMarkSpacingHint(120);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        Map<String, Integer> seen = new TreeMap<>();
        for (CellResult r : cells) {
            double[] curve = r.trace().curve();
            int step = Math.max(1, curve.length / 1000);
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < curve.length; i += step) {
                x.add((double) (i + 1));
                y.add(curve[i]);
            }
            x.add((double) r.trace().flushes());
            y.add(r.trace().writeAmplification());
            int nth = seen.merge(family(r.cell()), 1, Integer::sum) - 1;
            XYSeries s = chart.addSeries(seriesName(r.cell()), x, y);
            s.setMarker(SeriesMarkers.NONE);
            s.setLineColor(colors.of(family(r.cell())));
            s.setLineStyle(STROKES[nth % STROKES.length]);
        }
        return chart;
    }

    private static XYChart readVersusWrite(List<CellResult> cells, String device, SeriesColors colors) {
        XYChart chart = new XYChartBuilder().width(1000).height(650)
                .title("Average read amplification against write amplification (" + device + ")")
                .xAxisTitle("write amplification (log scale)").yAxisTitle("average SSTables per point read (log scale)")
                .build();
        style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        LogScale.apply(chart, true, true);
        Map<String, List<CellResult>> byFamily = new TreeMap<>();
        for (CellResult r : cells) {
            byFamily.computeIfAbsent(family(r.cell()), f -> new ArrayList<>()).add(r);
        }
        double[] all = cells.stream().mapToDouble(r -> LogScale.toLog(r.trace().readAmplification(), LOG_FLOOR))
                .toArray();
        double[] allX = cells.stream().mapToDouble(r -> LogScale.toLog(r.trace().writeAmplification(), LOG_FLOOR))
                .toArray();
        PointLabels labels = padRange(chart, allX, all);
        for (Map.Entry<String, List<CellResult>> e : byFamily.entrySet()) {
            List<CellResult> pts = new ArrayList<>(e.getValue());
            pts.sort(Comparator.comparingDouble(r -> r.trace().writeAmplification()));
            double[] x = pts.stream().mapToDouble(r -> LogScale.toLog(r.trace().writeAmplification(), LOG_FLOOR))
                    .toArray();
            double[] y = pts.stream().mapToDouble(r -> LogScale.toLog(r.trace().readAmplification(), LOG_FLOOR))
                    .toArray();
            XYSeries s = chart.addSeries(e.getKey(), x, y);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setLineColor(colors.of(e.getKey()));
            s.setMarkerColor(colors.of(e.getKey()));
            labelPoints(chart, labels, pts, x, y);
        }
        return chart;
    }

    /**
     * Sets both axes to the data's range plus a margin, so that point labels stay inside the plot; returns the
     * placer of the labels for that range.
     */
    private static PointLabels padRange(XYChart chart, double[] x, double[] y) {
        double[] xr = range(x);
        double[] yr = range(y);
        double xm = Math.max(0.1, 0.08 * (xr[1] - xr[0]));
        double ym = Math.max(0.1, 0.1 * (yr[1] - yr[0]));
        chart.getStyler().setXAxisMin(xr[0] - xm).setXAxisMax(xr[1] + xm);
        chart.getStyler().setYAxisMin(yr[0] - ym).setYAxisMax(yr[1] + ym);
        return new PointLabels(xr[0] - xm, xr[1] + xm, yr[0] - ym, yr[1] + ym, PLOT_WIDTH_OUTSIDE_LEGEND,
                PLOT_HEIGHT);
    }

    private static double[] range(double[] values) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return values.length == 0 ? new double[] {0, 1} : new double[] {lo, hi};
    }

    private static CategoryChart transientSpace(List<CellResult> cells, String device, SeriesColors colors) {
        return bars("Transient space amplification (" + device + ")", "most SSTable bytes at once / bytes flushed",
                cells, r -> r.trace().transientSpaceAmplification(), colors);
    }

    private static CategoryChart throughput(List<CellResult> cells, String device, SeriesColors colors) {
        return bars("Load throughput (" + device + ", records/s, higher is better)", "records/s", cells,
                r -> r.load().throughput(), colors);
    }

    /**
     * One bar per cell, named on the x axis, coloured by its family: one series per family, holding its cells' values
     * and 0 elsewhere, drawn overlapped so that each bar keeps the full width.
     */
    private static CategoryChart bars(String title, String yTitle, List<CellResult> cells,
            java.util.function.ToDoubleFunction<CellResult> value, SeriesColors colors) {
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(650).title(title).xAxisTitle("")
                .yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setOverlapped(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setXAxisLabelRotation(60);
        List<String> names = barNames(cells);
        Map<String, List<Double>> byFamily = new TreeMap<>();
        for (int i = 0; i < cells.size(); i++) {
            List<Double> values = byFamily.computeIfAbsent(family(cells.get(i).cell()),
                    f -> new ArrayList<>(java.util.Collections.nCopies(cells.size(), 0.0)));
            values.set(i, value.applyAsDouble(cells.get(i)));
        }
        for (Map.Entry<String, List<Double>> e : byFamily.entrySet()) {
            chart.addSeries(e.getKey(), names, e.getValue()).setFillColor(colors.of(e.getKey()));
        }
        return chart;
    }

    /**
     * The bars' names: family and defining parameter ({@code lsm:leveled size-ratio=4}), short enough to leave
     * the plot its height; the whole cell names if the short ones would not tell two cells apart.
     */
    static List<String> barNames(List<CellResult> cells) {
        List<String> shortNames = cells.stream().map(r -> (family(r.cell()) + " " + parameterLabel(r.cell())).trim())
                .toList();
        return shortNames.stream().distinct().count() == shortNames.size() ? shortNames
                : cells.stream().map(r -> seriesName(r.cell())).toList();
    }

    private static XYChart modelAgainstEngine(List<CellResult> cells, SeriesColors colors) {
        XYChart chart = new XYChartBuilder().width(1000).height(650)
                .title("Observed against simulated final write amplification (same flush sizes)")
                .xAxisTitle("simulated write amplification").yAxisTitle("observed write amplification").build();
        style(chart.getStyler());
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        Map<String, List<CellResult>> byFamily = new TreeMap<>();
        double max = 1;
        for (CellResult r : cells) {
            byFamily.computeIfAbsent(family(r.cell()), f -> new ArrayList<>()).add(r);
            max = Math.max(max, Math.max(r.modelWriteAmplification(), r.trace().writeAmplification()));
        }
        chart.getStyler().setXAxisMin(0.0).setXAxisMax(max * 1.08).setYAxisMin(0.0).setYAxisMax(max * 1.08);
        PointLabels labels = new PointLabels(0, max * 1.08, 0, max * 1.08, PLOT_WIDTH, PLOT_HEIGHT);
        for (Map.Entry<String, List<CellResult>> e : byFamily.entrySet()) {
            double[] x = e.getValue().stream().mapToDouble(CellResult::modelWriteAmplification).toArray();
            double[] y = e.getValue().stream().mapToDouble(r -> r.trace().writeAmplification()).toArray();
            double r2 = ModelFit.rSquared(x, y);
            String name = e.getKey() + (Double.isNaN(r2) ? "" : String.format(Locale.ROOT, " (R^2 = %.4f)", r2));
            XYSeries s = chart.addSeries(name, x, y);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(colors.of(e.getKey()));
            labelPoints(chart, labels, e.getValue(), x, y);
        }
        chart.addSeries("observed = simulated", new double[] {0, max}, new double[] {0, max})
                .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line).setMarker(SeriesMarkers.NONE)
                .setLineColor(Color.GRAY);
        return chart;
    }

    private static String seriesName(Cell c) {
        return c.system().label() + ":" + c.policy();
    }

    private static void style(org.knowm.xchart.style.AxesChartStyler s) {
        s.setPlotGridLinesVisible(true);
        s.setAnnotationTextFontColor(Color.DARK_GRAY);
    }

    private static Path save(Chart<?, ?> chart, Path file) throws IOException {
        return PngFile.write(chart, file);
    }
}
