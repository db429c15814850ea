package io.lsmpolicies.merge.plot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

class LogScaleTest {
    @Test
    void everyTickOfALogAxisHasALabelThatReadsItsValue() {
        assertThat(LogScale.label(0)).isEqualTo("1");
        assertThat(LogScale.label(1)).isEqualTo("10");
        assertThat(LogScale.label(0.2)).isEqualTo("1.6");
        assertThat(LogScale.label(Math.log10(25))).isEqualTo("25");
        assertThat(LogScale.label(Math.log10(4000))).isEqualTo("4000");
        assertThat(LogScale.label(-1)).isEqualTo("0.1");
        assertThat(LogScale.label(7)).isEqualTo("1e7");
        // Inside one decade, where XChart's own log axis labels nothing: every tick a linear axis could place.
        for (double t = 0.3; t <= 0.95; t += 0.05) {
            String label = LogScale.label(t);
            assertThat(label).as("tick %s", t).isNotBlank();
            assertThat(Double.parseDouble(label)).as("tick %s", t)
                    .isCloseTo(Math.pow(10, t), org.assertj.core.data.Percentage.withPercentage(5));
        }
    }

    @Test
    void applyGivesTheAxisTheLabelsAndToLogTheValues() {
        XYChart chart = new XYChartBuilder().build();
        LogScale.apply(chart, true, false);
        assertThat(chart.getStyler().getxAxisTickLabelsFormattingFunction().apply(Math.log10(3.0))).isEqualTo("3");
        assertThat(chart.getStyler().getyAxisTickLabelsFormattingFunction()).isNull();
        assertThat(LogScale.toLog(new double[] {1, 100, 0}, 1e-3)).containsExactly(0, 2, -3);
    }
}
