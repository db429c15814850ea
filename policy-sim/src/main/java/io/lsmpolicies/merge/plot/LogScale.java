package io.lsmpolicies.merge.plot;

import java.util.Locale;
import java.util.function.Function;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.XYStyler;

/**
 * A logarithmic axis whose every tick is labelled. XChart's own logarithmic axis labels only powers of ten, so a
 * range inside one decade (write amplification 3 to 9, say) shows no label at all. Instead the data are plotted
 * as {@code log10(value)} on a linear axis, whose ticks XChart always labels, and each tick label shows the value
 * {@code 10^tick} ({@link #label}): ticks at 0, 0.2, 0.4, ... read 1, 1.6, 2.5, 4, 6.3, 10.
 */
public final class LogScale {
    private LogScale() {
    }

    /**
     * {@return {@code log10} of each value; values at or below 0 are plotted at {@code floor}}
     *
     * @param values the values
     * @param floor  where values at or below 0 are plotted, a log10 value
     */
    public static double[] toLog(double[] values, double floor) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Math.log10(Math.max(floor, values[i]));
        }
        return out;
    }

    /**
     * {@return {@code log10(value)}, the value at or below 0 plotted at {@code floor}}
     *
     * @param value the value
     * @param floor where a value at or below 0 is plotted, a log10 value
     */
    public static double toLog(double value, double floor) {
        return Math.log10(Math.max(floor, value));
    }

    /**
     * The label of the tick at {@code log10Value}: {@code 10^log10Value} with two significant digits, without
     * trailing zeros or exponent below a million ({@code 1}, {@code 1.6}, {@code 25}, {@code 4000}), and as
     * {@code 1.5e6} from there. Never empty.
     *
     * @param log10Value the tick's position on the log axis
     * @return the label
     */
    public static String label(double log10Value) {
        double v = Math.pow(10, log10Value);
        if (!Double.isFinite(v) || v == 0) {
            return String.format(Locale.ROOT, "1e%.1f", log10Value);
        }
        double rounded = new java.math.BigDecimal(v).round(new java.math.MathContext(2)).doubleValue();
        if (rounded >= 1e6 || rounded < 1e-3) {
            return String.format(Locale.ROOT, "%.1e", rounded).replace(".0e", "e").replace("e+0", "e")
                    .replace("e+", "e").replace("e-0", "e-");
        }
        String s = new java.math.BigDecimal(Double.toString(rounded)).stripTrailingZeros().toPlainString();
        return s;
    }

    /** {@return the tick label function ({@link #label})} */
    public static Function<Double, String> labels() {
        return LogScale::label;
    }

    /**
     * Makes {@code chart}'s x and/or y axis a labelled log axis: its series must be given as {@link #toLog}.
     *
     * @param chart the chart
     * @param x     whether the x axis is a log axis
     * @param y     whether the y axis is a log axis
     */
    public static void apply(XYChart chart, boolean x, boolean y) {
        XYStyler s = chart.getStyler();
        if (x) {
            s.setxAxisTickLabelsFormattingFunction(labels());
        }
        if (y) {
            s.setyAxisTickLabelsFormattingFunction(labels());
        }
    }
}
