package io.lsmpolicies.bench.vsrocks;

import io.lsmpolicies.merge.plot.LogScale;
import io.lsmpolicies.merge.plot.PngFile;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The plot of get latency percentiles: p50 .. p99.99 and the maximum on the x axis, microseconds on a labelled
 * logarithmic y axis ({@link LogScale}), one colour per pairing, ours solid with round markers and RocksDB dashed
 * with square ones. Each point is the median over every read phase (the rounds and their read repeats).
 */
final class LatencyPlot {
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0x9467bd), new Color(0xff7f0e), new Color(0x8c564b)};

    private LatencyPlot() {
    }

    /** The chart of {@code results}' read phases. */
    static CategoryChart chart(List<PhaseResult> results) {
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(650)
                .title("Get latency percentiles, ours against RocksDB (median over every read phase)")
                .xAxisTitle("percentile").yAxisTitle("latency (microseconds, log scale)").build();
        Styler s = chart.getStyler();
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        chart.getStyler().setPlotGridLinesVisible(true);
        chart.getStyler().setOverlapped(true); // every series' point of a percentile at the same x
        chart.getStyler().setyAxisTickLabelsFormattingFunction(LogScale.labels());
        s.setLegendPosition(Styler.LegendPosition.InsideNW);
        List<String> categories = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (String p : Workload.PERCENTILES.keySet()) {
            categories.add(label(p));
            keys.add(p + "Micros");
        }
        categories.add("max");
        keys.add("maxMicros");
        Set<String> pairings = new LinkedHashSet<>();
        results.forEach(r -> pairings.add(r.pairing()));
        int colour = 0;
        for (String pairing : pairings) {
            Color c = COLORS[colour++ % COLORS.length];
            Pairing p = Pairing.parse(pairing);
            for (Side side : Side.values()) {
                List<Double> y = new ArrayList<>();
                for (String key : keys) {
                    List<Double> values = new ArrayList<>();
                    for (PhaseResult r : results) {
                        if (r.pairing().equals(pairing) && r.side().equals(side.label()) && r.phase().equals("reads")
                                && !Double.isNaN(r.value(key))) {
                            values.add(r.value(key));
                        }
                    }
                    y.add(values.isEmpty() ? Double.NaN : LogScale.toLog(Ratio.median(values), 1e-3));
                }
                if (y.stream().allMatch(v -> v.isNaN())) {
                    continue;
                }
                String name = side == Side.OURS ? "ours " + p.ours() : "RocksDB " + p.rocksdb() + " (vs " + p.ours()
                        + ")";
                CategorySeries series = chart.addSeries(name, categories, y);
                series.setLineColor(c);
                series.setMarkerColor(c);
                series.setLineStyle(side == Side.OURS ? SeriesLines.SOLID : new BasicStroke(2f,
                        BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {6f, 4f}, 0f));
                series.setMarker(side == Side.OURS ? SeriesMarkers.CIRCLE : SeriesMarkers.SQUARE);
            }
        }
        return chart;
    }

    /** Writes the chart as PNG to {@code file} (its directory created if needed). */
    static void write(List<PhaseResult> results, Path file) throws IOException {
        PngFile.write(chart(results), file);
    }

    private static String label(String key) {
        return Map.of("p50", "p50", "p90", "p90", "p99", "p99", "p999", "p99.9", "p9999", "p99.99")
                .getOrDefault(key, key);
    }
}
