package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.plot.SeriesColors;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BoxChart;
import org.knowm.xchart.BoxChartBuilder;
import org.knowm.xchart.style.BoxStyler;

/**
 * Box plots of write amplification per contender, one panel per workload (the small workload's panel starts with
 * the optimal search), like Figs. 6, 7 and 11 of Wei et al. (EDBT 2025). The box spans Q1..Q3 with the median
 * inside, as {@link Summary} computes them; XChart draws the whiskers at the furthest runs within 1.5 x IQR of
 * the box, so a lone far run shows beyond them (the table has the true min and max). Writes one PNG per panel
 * and a grid of all panels ({@code wa-boxplot.png}).
 */
public final class WaBoxPlot {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;

    private WaBoxPlot() {
    }

    /**
     * Writes the panels and the grid into {@code dir}; returns the files written.
     *
     * @param dir the directory
     * @param r   the results
     * @return the files written
     */
    public static List<Path> write(Path dir, BenchmarkResults r) {
        List<BoxChart> charts = new ArrayList<>();
        List<String> slugs = new ArrayList<>();
        List<String> keys = new ArrayList<>(r.contenders());
        keys.add(BenchmarkReport.OPTIMAL);
        SeriesColors colors = SeriesColors.of(keys); // one colour per contender in every panel
        for (BenchWorkload w : r.workloads()) {
            charts.add(chart(w.name(), r, w, false, colors));
            slugs.add(w.slug());
        }
        if (r.small() != null) {
            charts.add(chart(r.small().name(), r, r.small(), true, colors));
            slugs.add(r.small().slug());
        }
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            List<BufferedImage> images = new ArrayList<>();
            for (int i = 0; i < charts.size(); i++) {
                if (charts.get(i) == null) {
                    continue;
                }
                BufferedImage image = BitmapEncoder.getBufferedImage(charts.get(i));
                images.add(image);
                Path file = dir.resolve("wa-" + slugs.get(i) + ".png");
                ImageIO.write(image, "png", file.toFile());
                written.add(file);
            }
            if (!images.isEmpty()) {
                Path grid = dir.resolve("wa-boxplot.png");
                ImageIO.write(grid(images), "png", grid.toFile());
                written.add(grid);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the box plots into " + dir + ": " + e.getMessage(), e);
        }
        return written;
    }

    /** One panel, or null if no contender finished a run on {@code w}. */
    private static BoxChart chart(String title, BenchmarkResults r, BenchWorkload w, boolean withOptimum,
            SeriesColors colors) {
        BoxChart chart = new BoxChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .yAxisTitle("write amplification").build();
        BoxStyler st = chart.getStyler();
        st.setBoxplotCalCulationMethod(BoxStyler.BoxplotCalCulationMethod.N_LESS_1_PLUS_1);
        st.setLegendVisible(false);
        st.setPlotGridLinesVisible(true);
        st.setXAxisLabelRotation(30);
        st.setYAxisDecimalPattern("0.00");
        int series = 0;
        if (withOptimum) {
            double[] opt = r.optimalWriteAmplifications();
            if (opt.length > 0) {
                chart.addSeries(BenchmarkReport.OPTIMAL, opt).setFillColor(colors.of(BenchmarkReport.OPTIMAL));
                series++;
            }
        }
        for (String c : r.contenders()) {
            double[] wa = r.writeAmplifications(w, c);
            if (wa.length > 0) {
                chart.addSeries(c, wa).setFillColor(colors.of(c));
                series++;
            }
        }
        return series == 0 ? null : chart;
    }

    private static BufferedImage grid(List<BufferedImage> images) {
        int cols = images.size() == 1 ? 1 : 2;
        int rows = (images.size() + cols - 1) / cols;
        BufferedImage out = new BufferedImage(cols * WIDTH, rows * HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, out.getWidth(), out.getHeight());
        for (int i = 0; i < images.size(); i++) {
            g.drawImage(images.get(i), (i % cols) * WIDTH, (i / cols) * HEIGHT, null);
        }
        g.dispose();
        return out;
    }
}
