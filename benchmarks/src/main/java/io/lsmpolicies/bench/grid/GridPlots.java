package io.lsmpolicies.bench.grid;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The grid's figures, after Mao et al. (VLDB Journal 2021, Sect. 4): write amplification against flushes (Fig. 3),
 * average read amplification against write amplification (Fig. 5), transient space amplification (Fig. 6), the
 * engine's write amplification against the simulator's (Fig. 11), and load throughput. One PNG per figure and
 * device profile; returns the files written.
 */
final class GridPlots {
    /** Cells per Fig. 3 chart before it is split by the policies' k. */
    private static final int MAX_SERIES = 12;
    private static final Color[] PALETTE = {new Color(0x4E79A7), new Color(0xF28E2B), new Color(0xE15759),
        new Color(0x76B7B2), new Color(0x59A14F), new Color(0xEDC948), new Color(0xB07AA1), new Color(0xFF9DA7),
        new Color(0x9C755F), new Color(0xBAB0AC), new Color(0x1F77B4), new Color(0x8C564B)};

    private GridPlots() {
    }

    static List<Path> write(List<CellResult> results, Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        Map<String, List<CellResult>> byDevice = new TreeMap<>();
        for (CellResult r : results) {
            if (r.ok()) {
                byDevice.computeIfAbsent(r.cell().device(), d -> new ArrayList<>()).add(r);
            }
        }
        for (Map.Entry<String, List<CellResult>> e : byDevice.entrySet()) {
            String device = e.getKey();
            List<CellResult> cells = e.getValue();
            for (Map.Entry<String, List<CellResult>> g : fig3Groups(cells).entrySet()) {
                files.add(save(writeAmplificationCurves(cells.size() > MAX_SERIES ? g.getKey() : "", g.getValue(),
                        device), dir.resolve("fig3-wa-vs-flushes" + (cells.size() > MAX_SERIES ? "-" + g.getKey()
                        : "") + "-" + device + ".png")));
            }
            files.add(save(readVersusWrite(cells, device), dir.resolve("fig5-read-vs-write-" + device + ".png")));
            files.add(save(transientSpace(cells, device), dir.resolve("fig6-transient-space-" + device + ".png")));
            files.add(save(throughput(cells, device), dir.resolve("throughput-" + device + ".png")));
        }
        List<CellResult> modelled = results.stream().filter(r -> r.ok() && !Double.isNaN(r.modelWriteAmplification()))
                .toList();
        if (!modelled.isEmpty()) {
            files.add(save(modelAgainstEngine(modelled), dir.resolve("fig11-model-vs-engine.png")));
        }
        return files;
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

    private static XYChart writeAmplificationCurves(String group, List<CellResult> cells, String device) {
        XYChart chart = new XYChartBuilder().width(1000).height(650)
                .title("Write amplification against flushes (" + device + (group.isEmpty() ? "" : ", " + group) + ")")
                .xAxisTitle("flushes").yAxisTitle("write amplification so far").build();
        style(chart.getStyler());
        chart.getStyler().setXAxisTickMarkSpacingHint(120);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
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
            chart.addSeries(seriesName(r.cell()), x, y).setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static XYChart readVersusWrite(List<CellResult> cells, String device) {
        XYChart chart = new XYChartBuilder().width(1000).height(650)
                .title("Average read amplification against write amplification (" + device + ")")
                .xAxisTitle("write amplification (log)").yAxisTitle("average SSTables per point read (log)").build();
        style(chart.getStyler());
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        Map<String, List<CellResult>> byFamily = new TreeMap<>();
        for (CellResult r : cells) {
            byFamily.computeIfAbsent(r.cell().system().label() + ":" + r.cell().policy().split(":", 2)[0], f -> new ArrayList<>())
                    .add(r);
        }
        for (Map.Entry<String, List<CellResult>> e : byFamily.entrySet()) {
            List<CellResult> pts = new ArrayList<>(e.getValue());
            pts.sort(Comparator.comparingDouble(r -> r.trace().writeAmplification()));
            List<Double> x = pts.stream().map(r -> r.trace().writeAmplification()).toList();
            List<Double> y = pts.stream().map(r -> Math.max(1e-3, r.trace().readAmplification())).toList();
            chart.addSeries(e.getKey(), x, y).setMarker(SeriesMarkers.CIRCLE);
        }
        return chart;
    }

    private static CategoryChart transientSpace(List<CellResult> cells, String device) {
        return bars("Transient space amplification (" + device + ")", "most SSTable bytes at once / bytes flushed",
                cells, r -> r.trace().transientSpaceAmplification());
    }

    private static CategoryChart throughput(List<CellResult> cells, String device) {
        return bars("Load throughput (" + device + ", records/s, higher is better)", "records/s", cells,
                r -> r.load().throughput());
    }

    /** One bar per cell. */
    private static CategoryChart bars(String title, String yTitle, List<CellResult> cells,
            java.util.function.ToDoubleFunction<CellResult> value) {
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(650).title(title).xAxisTitle("")
                .yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(60);
        chart.addSeries(yTitle, cells.stream().map(r -> seriesName(r.cell())).toList(),
                cells.stream().map(r -> value.applyAsDouble(r)).toList());
        return chart;
    }

    private static XYChart modelAgainstEngine(List<CellResult> cells) {
        XYChart chart = new XYChartBuilder().width(1000).height(650)
                .title("Observed against simulated final write amplification (same flush sizes)")
                .xAxisTitle("simulated write amplification").yAxisTitle("observed write amplification").build();
        style(chart.getStyler());
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        Map<String, List<CellResult>> byFamily = new LinkedHashMap<>();
        double max = 1;
        for (CellResult r : cells) {
            byFamily.computeIfAbsent(r.cell().system().label() + ":" + r.cell().policy().split(":", 2)[0], f -> new ArrayList<>())
                    .add(r);
            max = Math.max(max, Math.max(r.modelWriteAmplification(), r.trace().writeAmplification()));
        }
        for (Map.Entry<String, List<CellResult>> e : byFamily.entrySet()) {
            double[] x = e.getValue().stream().mapToDouble(CellResult::modelWriteAmplification).toArray();
            double[] y = e.getValue().stream().mapToDouble(r -> r.trace().writeAmplification()).toArray();
            double r2 = ModelFit.rSquared(x, y);
            String name = e.getKey() + (Double.isNaN(r2) ? "" : String.format(Locale.ROOT, " (R^2 = %.4f)", r2));
            chart.addSeries(name, x, y).setMarker(SeriesMarkers.CIRCLE);
        }
        chart.addSeries("observed = simulated", new double[] {1, max}, new double[] {1, max})
                .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line).setMarker(SeriesMarkers.NONE)
                .setLineColor(Color.GRAY);
        return chart;
    }

    private static String seriesName(Cell c) {
        return c.system().label() + ":" + c.policy();
    }

    private static void style(org.knowm.xchart.style.AxesChartStyler s) {
        s.setPlotGridLinesVisible(true);
        s.setSeriesColors(PALETTE);
    }

    private static Path save(Chart<?, ?> chart, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        return file;
    }
}
