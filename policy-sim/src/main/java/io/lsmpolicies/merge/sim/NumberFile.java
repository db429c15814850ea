package io.lsmpolicies.merge.sim;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A trace file of non-negative integers, one per line (blank lines and lines starting with {@code #} skipped):
 * how the simulator reads recorded flush sizes and read counts.
 */
final class NumberFile {
    private NumberFile() {
    }

    /**
     * Every number in {@code file}, read and validated completely.
     *
     * @param label how errors name the file, e.g. {@code trace /tmp/t.txt}
     * @param noun  what one number is, e.g. {@code flush size}
     * @throws IllegalArgumentException naming the line if one is not a non-negative integer, or if there is none
     * @throws UncheckedIOException     if the file cannot be read
     */
    static long[] read(Path file, String label, String noun) {
        long[] values = new long[1024];
        int n = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long lineNumber = 0;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                long value;
                try {
                    value = Long.parseLong(text);
                } catch (NumberFormatException e) {
                    value = -1;
                }
                if (value < 0) {
                    throw new IllegalArgumentException(label + " line " + lineNumber + ": '"
                            + (text.length() <= 40 ? text : text.substring(0, 37) + "...")
                            + "' is not a non-negative integer " + noun);
                }
                if (n == values.length) {
                    values = Arrays.copyOf(values, n * 2);
                }
                values[n++] = value;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + label + ": " + e.getMessage(), e);
        }
        if (n == 0) {
            throw new IllegalArgumentException(label + " holds no " + noun);
        }
        return Arrays.copyOf(values, n);
    }
}
