package io.lsmpolicies.merge.sim.cli;

import io.lsmpolicies.merge.plot.LogScale;
import io.lsmpolicies.merge.plot.PngFile;
import io.lsmpolicies.merge.plot.SeriesColors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Collects one running figure against flushes for several policies and draws them in one PNG: write
 * amplification ({@code --plot}, like Fig. 3 of Mao et al., VLDB Journal 2021) or cumulative total cost
 * ({@code --cost-plot}). Each series keeps at most about {@link #POINTS} evenly spaced points (plus the first and
 * last flush), so a million-flush run plots as quickly as a short one.
 */
final class FlushSeriesPlot {
    static final int POINTS = 2000;

    private final long flushes;
    private final long every;
    private final String title;
    private final String yAxis;
    private final List<Series> series = new ArrayList<>();

    private static final class Series {
        final String label;
        final boolean reference;
        double[] x;
        double[] y;
        int n;

        Series(String label, int capacity, boolean reference) {
            this.label = label;
            this.reference = reference;
            this.x = new double[capacity];
            this.y = new double[capacity];
        }
    }

    private FlushSeriesPlot(long flushes, String title, String yAxis) {
        this.flushes = flushes;
        this.every = Math.max(1, (flushes + POINTS - 1) / POINTS);
        this.title = title;
        this.yAxis = yAxis;
    }

    /** Running write amplification against flushes. */
    static FlushSeriesPlot writeAmplification(long flushes) {
        return new FlushSeriesPlot(flushes, "Write amplification against flushes", "write amplification");
    }

    /** Cumulative total cost (merge cost + read cost, in bytes) against flushes. */
    static FlushSeriesPlot cumulativeCost(long flushes) {
        return new FlushSeriesPlot(flushes, "Cumulative cost", "merge cost + read cost so far (bytes)");
    }

    /** Starts the series of the next policy. */
    void startSeries(String label) {
        series.add(new Series(label, (int) (flushes / every) + 3, false));
    }

    /** Starts a reference series (the optimum, say), drawn dashed. */
    void startReferenceSeries(String label) {
        series.add(new Series(label, (int) (flushes / every) + 3, true));
    }

    /** Offers one flush's running value; kept if it falls on the sampling grid. */
    void point(long flush, double value) {
        if (flush % every == 0 || flush == flushes || flush == 1) {
            Series s = series.get(series.size() - 1);
            s.x[s.n] = flush;
            s.y[s.n] = value;
            s.n++;
        }
    }

    /**
     * Whether the y axis is logarithmic: when the final values span more than two decades (Constant's write
     * amplification beside Binomial's, say), a linear axis would flatten every curve but one.
     */
    boolean logarithmic() {
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (Series s : series) {
            if (s.n > 0) {
                lo = Math.min(lo, s.y[s.n - 1]);
                hi = Math.max(hi, s.y[s.n - 1]);
            }
        }
        return hi > 100 * lo;
    }

    /**
     * The chart: one colour per policy ({@link SeriesColors}), reference series dashed; on a log y axis ({@link #logarithmic}) the values
     * are plotted as log10 with every tick labelled ({@link LogScale}).
     */
    XYChart chart(String subtitle) {
        boolean log = logarithmic();
        XYChart chart = new XYChartBuilder().width(1000).height(650)
                .title(title + " (" + subtitle + ")")
                .xAxisTitle("flushes").yAxisTitle(yAxis + (log ? " (log scale)" : ""))
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setPlotGridLinesVisible(true);
        LogScale.apply(chart, false, log);
        SeriesColors colors = SeriesColors.of(series.stream().map(s -> s.label).toList());
        for (Series s : series) {
            double[] y = Arrays.copyOf(s.y, s.n);
            XYSeries line = chart.addSeries(s.label, Arrays.copyOf(s.x, s.n), log ? LogScale.toLog(y, 1e-3) : y);
            line.setMarker(SeriesMarkers.NONE).setLineColor(colors.of(s.label));
            if (s.reference) {
                line.setLineStyle(SeriesLines.DASH_DASH);
            }
        }
        return chart;
    }

    /** Writes the PNG to {@code path}, creating parent directories. */
    void write(Path path, String subtitle) {
        XYChart chart = chart(subtitle);
        try {
            PngFile.write(chart, path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + path + ": " + e.getMessage(), e);
        }
    }
}
