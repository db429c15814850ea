package io.lsmpolicies.merge.sim;

import java.nio.file.Path;
import java.util.NoSuchElementException;

/**
 * Parses read-count sources, the values of {@code bin/lsm-sim --reads}:
 * <ul>
 *   <li>{@code constant:R} &mdash; R reads after every flush;</li>
 *   <li>{@code phases:N1xR1,N2xR2,...} &mdash; N1 flushes with R1 reads each, then N2 flushes with R2, and so on;
 *       then no more (a run longer than the phases is refused);</li>
 *   <li>{@code trace:FILE} &mdash; one non-negative integer per line, the reads after each flush in order; blank
 *       lines and lines starting with {@code #} are skipped.</li>
 * </ul>
 * Malformed text is an {@link IllegalArgumentException} that quotes the value (and the trace line) at fault.
 */
public final class ReadCountSources {
    private ReadCountSources() {
    }

    /** {@return no reads at all: the cost is the merge cost alone} */
    public static ReadCounts none() {
        return constant(0);
    }

    /**
     * Parses {@code spec} (see the class comment).
     *
     * @param spec the source's text form
     * @return the source
     */
    public static ReadCounts parse(String spec) {
        int colon = spec.indexOf(':');
        String kind = colon < 0 ? spec : spec.substring(0, colon);
        String body = colon < 0 ? "" : spec.substring(colon + 1);
        switch (kind) {
            case "constant" -> {
                return constant(nonNegative(spec, "R", body));
            }
            case "phases" -> {
                return phases(spec, body);
            }
            case "trace" -> {
                if (body.isBlank()) {
                    throw new IllegalArgumentException("reads '" + spec + "': expected trace:FILE");
                }
                return trace(Path.of(body));
            }
            default -> throw new IllegalArgumentException("reads '" + spec + "': unknown source '" + kind
                    + "'; expected constant:R, phases:N1xR1,N2xR2,... or trace:FILE");
        }
    }

    /**
     * {@return r reads after every flush}
     *
     * @param reads the reads after every flush
     */
    public static ReadCounts constant(long reads) {
        if (reads < 0) {
            throw new IllegalArgumentException("reads must be >= 0, was " + reads);
        }
        String description = "constant:" + reads;
        return new ReadCounts() {
            @Override
            public long next() {
                return reads;
            }

            @Override
            public long remaining() {
                return Long.MAX_VALUE;
            }

            @Override
            public String describe() {
                return description;
            }
        };
    }

    /**
     * The counts {@code reads}, in order, then no more.
     *
     * @param reads       the counts, in order
     * @param description the source's text form
     * @return the source
     * @throws IllegalArgumentException if a count is negative
     */
    public static ReadCounts of(long[] reads, String description) {
        long[] all = reads.clone();
        for (int i = 0; i < all.length; i++) {
            if (all[i] < 0) {
                throw new IllegalArgumentException(description + ": flush " + (i + 1) + " has negative read count "
                        + all[i]);
            }
        }
        return new ReadCounts() {
            private int next;

            @Override
            public long next() {
                if (next == all.length) {
                    throw new NoSuchElementException(description + " has read counts for only " + all.length
                            + " flushes");
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

    private static ReadCounts phases(String spec, String body) {
        if (body.isBlank()) {
            throw new IllegalArgumentException("reads '" + spec + "': expected phases:N1xR1,N2xR2,...");
        }
        String[] parts = body.split(",", -1);
        long[] flushes = new long[parts.length];
        long[] reads = new long[parts.length];
        long total = 0;
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].strip();
            int x = part.indexOf('x');
            if (x < 0) {
                throw new IllegalArgumentException("reads '" + spec + "': phase " + (i + 1) + " '" + part
                        + "' is not NxR (N flushes with R reads each)");
            }
            flushes[i] = nonNegative(spec, "phase " + (i + 1) + " N", part.substring(0, x));
            reads[i] = nonNegative(spec, "phase " + (i + 1) + " R", part.substring(x + 1));
            if (flushes[i] == 0) {
                throw new IllegalArgumentException("reads '" + spec + "': phase " + (i + 1) + " '" + part
                        + "' has no flush (N must be >= 1)");
            }
            total += flushes[i];
            if (total < 0) {
                throw new IllegalArgumentException("reads '" + spec + "': the phases add up to more than 2^63-1 "
                        + "flushes");
            }
        }
        long sum = total;
        return new ReadCounts() {
            private int phase;
            private long usedInPhase;
            private long used;

            @Override
            public long next() {
                if (used == sum) {
                    throw new NoSuchElementException("reads '" + spec + "' has read counts for only " + sum
                            + " flushes");
                }
                while (usedInPhase == flushes[phase]) {
                    phase++;
                    usedInPhase = 0;
                }
                usedInPhase++;
                used++;
                return reads[phase];
            }

            @Override
            public long remaining() {
                return sum - used;
            }

            @Override
            public String describe() {
                return spec;
            }
        };
    }

    /**
     * {@return the counts listed in {@code file}; read and validated completely before the first one is returned}
     *
     * @param file the file, one count a line
     */
    public static ReadCounts trace(Path file) {
        return of(NumberFile.read(file, "reads 'trace:" + file + "'", "read count"), "trace:" + file);
    }

    private static long nonNegative(String spec, String what, String text) {
        try {
            long v = Long.parseLong(text.strip());
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("reads '" + spec + "': " + what + "='" + text
                + "' is not a non-negative integer");
    }
}
