package io.lsmpolicies.merge.plot;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/** Writes a chart as a PNG file: the one way every plot of the project is saved. */
public final class PngFile {
    private PngFile() {
    }

    /**
     * Writes {@code chart} to {@code path} as a PNG, creating its parent directories; returns {@code path}.
     *
     * @param chart the chart
     * @param path  the PNG file to write
     * @return {@code path}
     * @throws IOException if the file cannot be written
     */
    public static Path write(Chart<?, ?> chart, Path path) throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(path)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        return path;
    }
}
