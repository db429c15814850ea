package io.lsmpolicies.bench.grid;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;

/** The grid's figures: one colour per system and policy across all figures, labelled log axes and points. */
class GridPlotsTest {
    @TempDir
    Path dir;

    /** A quick-preset-like run: our stack policies at k = 4, Tiered and Leveled, and the two peers. */
    static List<CellResult> run() {
        List<CellResult> out = new ArrayList<>();
        String[] cells = {"lsm:binomial:k=4", "lsm:minlatency:k=4", "lsm:bigtable:k=4", "lsm:tiered:size-ratio=4",
            "lsm:leveled:size-ratio=4", "rocksdb:leveled", "hyracks:prefix", "hyracks:binomial:k=4",
            "lsm:binomial:k=6"};
        double[] wa = {3.1, 2.9, 4.8, 2.2, 7.5, 6.1, 3.6, 3.3, 2.5};
        double[] ra = {2.4, 3.5, 3.3, 5.8, 1.9, 1.4, 4.1, 2.6, 2.9};
        for (int i = 0; i < cells.length; i++) {
            double[] curve = new double[300];
            for (int f = 0; f < curve.length; f++) {
                curve[f] = 1 + (wa[i] - 1) * (f + 1) / curve.length;
            }
            TraceSummary trace = new TraceSummary(300, 50_000_000L, (long) (wa[i] * 50_000_000L), wa[i], ra[i],
                    1.2 + i * 0.1, new long[300], curve);
            YcsbReport load = new YcsbReport(Map.of("OVERALL", Map.of("Throughput(ops/sec)", 10_000.0 + 1000 * i)));
            boolean modelled = cells[i].startsWith("lsm:") && !cells[i].contains("leveled");
            out.add(new CellResult(Cell.parse(cells[i], "none"), "ok", 10, load, load, trace,
                    modelled ? wa[i] * 0.97 : Double.NaN));
        }
        return out;
    }

    @Test
    void aSystemAndPolicyHasOneColourInEveryFigure() {
        Map<String, Chart<?, ?>> charts = GridPlots.charts(run());
        XYChart fig3 = (XYChart) charts.get("fig3-wa-vs-flushes-none.png");
        XYChart fig5 = (XYChart) charts.get("fig5-read-vs-write-none.png");
        CategoryChart fig6 = (CategoryChart) charts.get("fig6-transient-space-none.png");
        CategoryChart throughput = (CategoryChart) charts.get("throughput-none.png");
        XYChart fig11 = (XYChart) charts.get("fig11-model-vs-engine.png");
        for (String family : List.of("lsm:binomial", "lsm:minlatency", "rocksdb:leveled", "hyracks:prefix")) {
            Color c = lineColor(fig5, family);
            assertThat(c).as(family).isNotNull();
            assertThat(fig6.getSeriesMap().get(family).getFillColor()).as("fig6 " + family).isEqualTo(c);
            assertThat(throughput.getSeriesMap().get(family).getFillColor()).as("throughput " + family).isEqualTo(c);
            for (XYSeries s : fig3.getSeriesMap().values()) {
                if (s.getName().startsWith(family + ":") || s.getName().equals(family)) {
                    assertThat(s.getLineColor()).as("fig3 " + s.getName()).isEqualTo(c);
                }
            }
        }
        assertThat(fig11.getSeriesMap().get("lsm:minlatency").getMarkerColor())
                .isEqualTo(lineColor(fig5, "lsm:minlatency"));
        assertThat(lineColor(fig5, "lsm:binomial")).isNotEqualTo(lineColor(fig5, "hyracks:binomial"));
        // In Fig. 3 two cells of one family share the colour and differ by line style.
        assertThat(fig3.getSeriesMap().get("lsm:binomial:k=4").getLineStyle())
                .isNotEqualTo(fig3.getSeriesMap().get("lsm:binomial:k=6").getLineStyle());
    }

    @Test
    void theColoursDoNotDependOnWhichCellsAFigureShows() {
        List<CellResult> all = run();
        List<CellResult> reversed = new ArrayList<>(all);
        java.util.Collections.reverse(reversed);
        XYChart a = (XYChart) GridPlots.charts(all).get("fig5-read-vs-write-none.png");
        XYChart b = (XYChart) GridPlots.charts(reversed).get("fig5-read-vs-write-none.png");
        for (String family : a.getSeriesMap().keySet()) {
            assertThat(lineColor(b, family)).as(family).isEqualTo(lineColor(a, family));
        }
    }

    @Test
    void fig5PlotsLogValuesWithLabelledTicks() throws IOException {
        XYChart fig5 = (XYChart) GridPlots.charts(run()).get("fig5-read-vs-write-none.png");
        assertThat(fig5.getStyler().getxAxisTickLabelsFormattingFunction()).isNotNull();
        assertThat(fig5.getStyler().getyAxisTickLabelsFormattingFunction()).isNotNull();
        assertThat(fig5.getStyler().isXAxisLogarithmic()).as("XChart's log axis labels only decades").isFalse();
        XYSeries rocksdb = fig5.getSeriesMap().get("rocksdb:leveled");
        assertThat(rocksdb.getXData()[0]).isCloseTo(Math.log10(6.1), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(fig5.getStyler().getxAxisTickLabelsFormattingFunction().apply(Math.log10(6.1))).isEqualTo("6.1");
        List<Path> files = GridPlots.write(run(), dir);
        for (Path f : files) {
            assertThat(Files.size(f)).as(f.toString()).isPositive();
        }
        String keep = System.getProperty("gridPlotsTest.out");
        if (keep != null) { // to look at the figures: -DgridPlotsTest.out=DIR
            Files.createDirectories(Path.of(keep));
            for (Path f : files) {
                Files.copy(f, Path.of(keep).resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static Color lineColor(XYChart chart, String series) {
        XYSeries s = chart.getSeriesMap().get(series);
        return s == null ? null : s.getLineColor();
    }

    @Test
    void pointLabelsOfClosePointsDoNotOverlap() {
        PointLabels labels = new PointLabels(0, 1, 0, 1, 800, 560);
        List<PointLabels.Box> boxes = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // four points 4 pixels apart, labels 20 characters wide
            boxes.add(labels.place("lsm:minlatency k=4 " + i, 0.5 + i * 0.005, 0.5));
        }
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                assertThat(boxes.get(i).overlaps(boxes.get(j))).as("%s and %s", boxes.get(i), boxes.get(j)).isFalse();
            }
        }
        assertThat(boxes.get(0).y()).as("the first goes above its point").isGreaterThan(0.5);
        assertThat(boxes.get(1).y()).as("the next below").isLessThan(0.5);
    }

    @Test
    void aLabelNamesTheDefiningParameterOnly() {
        assertThat(GridPlots.parameterLabel(Cell.parse(
                "lsm:leveled:size-ratio=4,l0-trigger=2,target-file-bytes=262144", "none"))).isEqualTo("size-ratio=4");
        assertThat(GridPlots.parameterLabel(Cell.parse("lsm:binomial:k=4", "none"))).isEqualTo("k=4");
        assertThat(GridPlots.parameterLabel(Cell.parse("hyracks:prefix", "none"))).isEmpty();
        assertThat(GridPlots.parameterLabel(Cell.parse("rocksdb:leveled:size-ratio=8", "none")))
                .isEqualTo("size-ratio=8");
    }

    @Test
    void barsAreNamedShortlyUnlessThatWouldMergeTwoCells() {
        List<CellResult> cells = run().subList(0, 2);
        assertThat(GridPlots.barNames(cells)).containsExactly("lsm:binomial k=4", "lsm:minlatency k=4");
        CellResult a = run().get(4); // lsm:leveled:size-ratio=4
        CellResult b = new CellResult(Cell.parse("lsm:leveled:size-ratio=4,l0-trigger=2", "none"), "ok", 1, a.load(),
                a.reads(), a.trace(), Double.NaN);
        assertThat(GridPlots.barNames(List.of(a, b))).containsExactly("lsm:leveled:size-ratio=4",
                "lsm:leveled:size-ratio=4,l0-trigger=2");
    }
}
