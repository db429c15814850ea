package io.lsmpolicies.merge.sim.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

class FlushSeriesPlotTest {
    private static FlushSeriesPlot plot(double constantWa) {
        FlushSeriesPlot p = FlushSeriesPlot.writeAmplification(3);
        p.startSeries("binomial k=4");
        p.point(1, 1);
        p.point(2, 1.5);
        p.point(3, 2);
        p.startSeries("constant k=4");
        p.point(1, 1);
        p.point(2, 50);
        p.point(3, constantWa);
        return p;
    }

    @Test
    void aLogAxisPlotsLog10WithEveryTickLabelled() {
        FlushSeriesPlot p = plot(400);
        assertThat(p.logarithmic()).isTrue();
        XYChart chart = p.chart("test");
        assertThat(chart.getStyler().isYAxisLogarithmic()).as("XChart's own log axis labels only decades").isFalse();
        assertThat(chart.getSeriesMap().get("constant k=4").getYData()[2]).isCloseTo(Math.log10(400),
                org.assertj.core.data.Offset.offset(1e-12));
        assertThat(chart.getStyler().getyAxisTickLabelsFormattingFunction().apply(Math.log10(400))).isEqualTo("400");
    }

    @Test
    void aLinearAxisKeepsTheValues() {
        XYChart chart = plot(4).chart("test");
        assertThat(chart.getStyler().getyAxisTickLabelsFormattingFunction()).isNull();
        assertThat(chart.getSeriesMap().get("constant k=4").getYData()[2]).isEqualTo(4);
        assertThat(chart.getSeriesMap().get("constant k=4").getLineColor())
                .isNotEqualTo(chart.getSeriesMap().get("binomial k=4").getLineColor());
    }

    @Test
    void aReferenceSeriesIsDashedAndPoliciesAreSolid() {
        FlushSeriesPlot p = FlushSeriesPlot.cumulativeCost(2);
        p.startSeries("binomial k=4");
        p.point(1, 10);
        p.point(2, 30);
        p.startReferenceSeries("optimum of flushes 1..t");
        p.point(1, 10);
        p.point(2, 20);
        XYChart chart = p.chart("test");
        assertThat(chart.getSeriesMap().get("optimum of flushes 1..t").getLineStyle())
                .isEqualTo(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
        assertThat(chart.getSeriesMap().get("binomial k=4").getLineStyle())
                .isNotEqualTo(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
        assertThat(chart.getTitle()).startsWith("Cumulative cost (test)");
    }
}
