package io.lsmpolicies.merge.plot;

import java.awt.Color;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.style.Styler;

/** The one look of the project's bar charts: labels under the bars turned, ticks on both axes, a y axis from 0. */
public final class BarCharts {
    private BarCharts() {
    }

    /**
     * Styles {@code chart}: x labels turned 60 degrees, horizontal grid lines, ticks and labels on both axes, the y
     * axis from 0 with {@code yPattern}, the legend at {@code legend}, and the series in {@code colors}' order.
     *
     * @param chart    the chart
     * @param legend   where the legend goes
     * @param yPattern the y axis labels' decimal pattern
     * @param colors   the series' colours, in the order the series are added
     */
    public static void style(CategoryChart chart, Styler.LegendPosition legend, String yPattern, Color... colors) {
        chart.getStyler().setXAxisLabelRotation(60);
        chart.getStyler().setLegendPosition(legend);
        chart.getStyler().setPlotGridHorizontalLinesVisible(true);
        chart.getStyler().setYAxisDecimalPattern(yPattern);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setXAxisTicksVisible(true);
        chart.getStyler().setYAxisTicksVisible(true);
        chart.getStyler().setSeriesColors(colors);
    }
}
