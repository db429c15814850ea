package io.lsmpolicies.bench.grid;

import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;

/**
 * Places point labels on an XY chart so that they do not overlap: each label goes above its point if that space
 * is free, else below, else further above or below, trying {@link #TRIES} heights in turn (the last one is taken
 * if all are occupied). Overlap is judged on estimated text boxes: {@link #CHAR_PIXELS} per character and
 * {@link #LINE_PIXELS} high, converted to plot units with the axes' ranges and the plot's approximate size.
 */
final class PointLabels {
    static final double CHAR_PIXELS = 7;
    static final double LINE_PIXELS = 15;
    static final int TRIES = 8;

    /** A placed label: its centre and half extents, in plot units. */
    record Box(String text, double x, double y, double halfWidth, double halfHeight) {
        boolean overlaps(Box o) {
            return Math.abs(x - o.x) < halfWidth + o.halfWidth && Math.abs(y - o.y) < halfHeight + o.halfHeight;
        }
    }

    private final double xPerPixel;
    private final double yPerPixel;
    private final List<Box> placed = new ArrayList<>();

    /** For a plot of about {@code widthPixels} x {@code heightPixels} showing the given ranges (plot units). */
    PointLabels(double xMin, double xMax, double yMin, double yMax, double widthPixels, double heightPixels) {
        this.xPerPixel = (xMax - xMin) / widthPixels;
        this.yPerPixel = (yMax - yMin) / heightPixels;
    }

    /** Places {@code text} near point ({@code x}, {@code y}) and returns where. */
    Box place(String text, double x, double y) {
        double halfWidth = text.length() * CHAR_PIXELS * xPerPixel / 2;
        double halfHeight = LINE_PIXELS * yPerPixel / 2;
        Box box = null;
        for (int i = 0; i < TRIES; i++) {
            int step = i / 2 + 1; // above 1, below 1, above 2, below 2, ...
            double dy = (i % 2 == 0 ? 1 : -1) * (2 * step - 1) * 1.1 * halfHeight + (i % 2 == 0 ? 0.4 : -0.4)
                    * halfHeight;
            box = new Box(text, x, y + dy, halfWidth, halfHeight);
            if (placed.stream().noneMatch(box::overlaps)) {
                break;
            }
        }
        placed.add(box);
        return box;
    }

    /** Places {@code text} near the point and adds it to {@code chart}. */
    void add(XYChart chart, String text, double x, double y) {
        Box b = place(text, x, y);
        chart.addAnnotation(new AnnotationText(text, b.x(), b.y(), false));
    }
}
