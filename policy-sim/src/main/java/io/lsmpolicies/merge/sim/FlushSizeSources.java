package io.lsmpolicies.merge.sim;

import java.nio.file.Path;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

/**
 * Parses flush-size sources. The text forms:
 * <ul>
 *   <li>{@code constant:S} &mdash; every flush is S bytes;</li>
 *   <li>{@code uniform:A:B} &mdash; integers drawn uniformly from [A, B], both inclusive;</li>
 *   <li>{@code normal:MEAN:SD} &mdash; normal samples rounded to integers; negative samples become 0;</li>
 *   <li>{@code trace:FILE} &mdash; one non-negative integer per line; blank lines and lines starting with
 *       {@code #} are skipped.</li>
 * </ul>
 * Random sources draw from a {@link SplittableRandom} seeded with the given seed, so a run is reproducible.
 * Malformed text is an {@link IllegalArgumentException} that quotes the value (and the trace line) at fault.
 */
public final class FlushSizeSources {
    private FlushSizeSources() {
    }

    /**
     * Parses {@code spec} (see the class comment).
     *
     * @param spec the source's text form
     * @param seed the seed of a random source
     * @return the source
     */
    public static FlushSizes parse(String spec, long seed) {
        String[] parts = spec.split(":", -1);
        String kind = parts[0];
        switch (kind) {
            case "constant" -> {
                expectParts(spec, parts, 2, "constant:S");
                return constant(nonNegativeLong(spec, "S", parts[1]));
            }
            case "uniform" -> {
                expectParts(spec, parts, 3, "uniform:A:B");
                long a = nonNegativeLong(spec, "A", parts[1]);
                long b = nonNegativeLong(spec, "B", parts[2]);
                if (a > b) {
                    throw new IllegalArgumentException("flush size '" + spec + "': A=" + a + " exceeds B=" + b);
                }
                if (b == Long.MAX_VALUE) {
                    throw new IllegalArgumentException("flush size '" + spec + "': B must be below 2^63-1");
                }
                return uniform(a, b, seed);
            }
            case "normal" -> {
                expectParts(spec, parts, 3, "normal:MEAN:SD");
                double mean = nonNegativeDouble(spec, "MEAN", parts[1]);
                double sd = nonNegativeDouble(spec, "SD", parts[2]);
                return normal(mean, sd, seed);
            }
            case "trace" -> {
                if (parts.length < 2 || spec.substring(6).isBlank()) {
                    throw new IllegalArgumentException("flush size '" + spec + "': expected trace:FILE");
                }
                return trace(Path.of(spec.substring("trace:".length())));
            }
            default -> throw new IllegalArgumentException("flush size '" + spec + "': unknown source '" + kind
                    + "'; expected constant:S, uniform:A:B, normal:MEAN:SD or trace:FILE");
        }
    }

    /**
     * {@return every flush {@code size} bytes}
     *
     * @param size the bytes of every flush
     */
    public static FlushSizes constant(long size) {
        if (size < 0) {
            throw new IllegalArgumentException("flush size must be >= 0, was " + size);
        }
        return new Endless("constant:" + size) {
            @Override
            public long next() {
                return size;
            }
        };
    }

    /**
     * {@return uniform integers in [a, b]}
     *
     * @param a    the smallest size
     * @param b    the largest size
     * @param seed the seed
     */
    public static FlushSizes uniform(long a, long b, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return new Endless("uniform:" + a + ":" + b) {
            @Override
            public long next() {
                return random.nextLong(a, b + 1);
            }
        };
    }

    /**
     * {@return rounded normal samples, negative ones clamped to 0}
     *
     * @param mean the mean size
     * @param sd   the standard deviation
     * @param seed the seed
     */
    public static FlushSizes normal(double mean, double sd, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return new Endless("normal:" + mean + ":" + sd) {
            @Override
            public long next() {
                return Math.max(0L, Math.round(mean + sd * random.nextGaussian()));
            }
        };
    }

    /**
     * {@return the sizes listed in {@code file}; read and validated completely before the first one is returned}
     *
     * @param file the file, one size a line
     */
    public static FlushSizes trace(Path file) {
        return of(NumberFile.read(file, "trace " + file, "flush size"), "trace:" + file);
    }

    /**
     * The sizes {@code sizes}, in order, then no more (e.g. the flush sizes an engine recorded).
     *
     * @param description the source's text form
     * @param sizes       the sizes, in order
     * @return the source
     * @throws IllegalArgumentException if a size is negative
     */
    public static FlushSizes of(long[] sizes, String description) {
        long[] all = sizes.clone();
        for (int i = 0; i < all.length; i++) {
            if (all[i] < 0) {
                throw new IllegalArgumentException(description + ": flush " + (i + 1) + " has negative size "
                        + all[i]);
            }
        }
        return new FlushSizes() {
            private int next;

            @Override
            public long next() {
                if (next == all.length) {
                    throw new NoSuchElementException(description + " has only " + all.length + " flush sizes");
                }
                return all[next++];
            }

            @Override
            public long remaining() {
                return all.length - next;
            }

            @Override
            public String describe() {
                return description;
            }
        };
    }

    private abstract static class Endless implements FlushSizes {
        private final String description;

        Endless(String description) {
            this.description = description;
        }

        @Override
        public long remaining() {
            return Long.MAX_VALUE;
        }

        @Override
        public String describe() {
            return description;
        }
    }

    private static void expectParts(String spec, String[] parts, int n, String form) {
        if (parts.length != n) {
            throw new IllegalArgumentException("flush size '" + spec + "': expected " + form);
        }
    }

    private static long nonNegativeLong(String spec, String what, String text) {
        try {
            long v = Long.parseLong(text.strip());
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("flush size '" + spec + "': " + what + "='" + text
                + "' is not a non-negative integer");
    }

    private static double nonNegativeDouble(String spec, String what, String text) {
        try {
            double v = Double.parseDouble(text.strip());
            if (v >= 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("flush size '" + spec + "': " + what + "='" + text
                + "' is not a non-negative number");
    }

}
