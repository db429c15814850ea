package io.lsmpolicies.merge.sim.leveled;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The picker benchmark's text table and CSV files.
 * <ul>
 *   <li>Per main workload, one row per contender: min / Q1 / mean / Q3 / max write amplification over the runs,
 *       the quartile deviation, and the mean numbers of real compactions and trivial moves.</li>
 *   <li>For the small workload, the same rows headed by the optimal search's, plus each contender's mean gap to the
 *       optimum of the same seed and how many seeds it beat the "optimum" on (possible only for a policy that
 *       moves outside the search's space: several files at once, cursor cuts, other level scores), then one line
 *       per seed for the search.</li>
 *   <li>{@code runs.csv} (one row per contender, workload and seed), {@code search.csv} (one row per seed, with the
 *       schedule's choices), {@code summary.csv} (the table's statistics) and, if any run failed,
 *       {@code failures.csv}.</li>
 * </ul>
 */
public final class BenchmarkReport {
    /** Label of the search in tables, CSV files and plots. */
    public static final String OPTIMAL = "optimal";

    private BenchmarkReport() {
    }

    /**
     * Prints the table.
     *
     * @param out where to print
     * @param r   the results
     */
    public static void print(PrintWriter out, BenchmarkResults r) {
        BenchmarkSettings s = r.settings();
        out.printf(Locale.ROOT, "Picker benchmark: %d runs per workload, %d operations of %d-byte entries; %s%n",
                s.runs(), s.operations(), s.entryBytes(), s.shape().describe());
        out.println("WA = (flush bytes + compaction output bytes) / ingested bytes (Wei et al., EDBT 2025, Sect. 3);"
                + " QD = (Q3 - Q1) / 2; compactions and moves are means per run.");
        for (BenchWorkload w : r.workloads()) {
            out.println();
            out.println(w.name());
            header(out, "");
            for (String c : r.contenders()) {
                row(out, c, r.summary(w, c), meanRuns(r, w, c), "");
            }
        }
        if (r.small() != null) {
            printSmall(out, r);
        }
        if (!r.failures().isEmpty()) {
            out.println();
            out.println(r.failures().size() + " runs failed (first of each contender shown):");
            List<String> shown = new ArrayList<>();
            for (BenchmarkResults.Failure f : r.failures()) {
                if (!shown.contains(f.contender())) {
                    shown.add(f.contender());
                    out.println("  " + f.contender() + " on " + f.workload() + " seed " + f.seed() + ": "
                            + f.message());
                }
            }
        }
        out.printf(Locale.ROOT, "%nTook %.1f s on %d threads.%n", r.seconds(), s.threads());
        out.flush();
    }

    private static void printSmall(PrintWriter out, BenchmarkResults r) {
        BenchmarkSettings s = r.settings();
        BenchWorkload w = r.small();
        out.println();
        out.printf(Locale.ROOT, "%s; %s; optimal search: %s strategy, node limit %d%n", w.name(), w.shape().describe(),
                s.trivialMoves().label(), s.nodeLimit());
        header(out, String.format(Locale.ROOT, " %9s %7s", "gap", "beat"));
        double[] optimum = r.optimalWriteAmplifications();
        long complete = r.searches().stream().filter(x -> x.result().complete()).count();
        row(out, OPTIMAL, optimum.length == 0 ? null : Summary.of(optimum), meanSearch(r),
                String.format(Locale.ROOT, "  (%d/%d searches complete)", complete, r.searches().size()));
        for (String c : r.contenders()) {
            double gap = 0;
            int n = 0;
            int beat = 0;
            for (BenchmarkResults.Search x : r.searches()) {
                BenchmarkResults.Run run = find(r, w, c, x.seed());
                if (run == null || !x.result().found()) {
                    continue;
                }
                double opt = x.result().writeAmplification();
                gap += (run.result().writeAmplification() - opt) / opt;
                n++;
                beat += run.result().writeAmplification() < opt - 1e-12 ? 1 : 0;
            }
            String extra = n == 0 ? "" : String.format(Locale.ROOT, " %+8.2f%% %3d/%-3d", 100 * gap / n, beat, n);
            row(out, c, r.summary(w, c), meanRuns(r, w, c), extra);
        }
        out.println();
        out.printf(Locale.ROOT, "%-6s %9s %9s %11s %8s  %s%n", "seed", "optimum", "complete", "nodes", "seconds",
                "best contender");
        for (BenchmarkResults.Search x : r.searches()) {
            BenchmarkResults.Run best = null;
            for (String c : r.contenders()) {
                BenchmarkResults.Run run = find(r, w, c, x.seed());
                if (run != null && (best == null
                        || run.result().writeAmplification() < best.result().writeAmplification())) {
                    best = run;
                }
            }
            out.printf(Locale.ROOT, "%-6d %9.4f %9s %11d %8.2f  %s%n", x.seed(), x.result().writeAmplification(),
                    x.result().complete() ? "yes" : "no", x.result().nodes(), x.seconds(),
                    best == null ? "-" : String.format(Locale.ROOT, "%s (%.4f)", best.contender(),
                            best.result().writeAmplification()));
        }
    }

    private static void header(PrintWriter out, String extra) {
        out.printf(Locale.ROOT, "%-28s %8s %8s %8s %8s %8s %8s %11s %7s%s%n", "contender", "min", "Q1", "mean", "Q3",
                "max", "QD", "compactions", "moves", extra);
    }

    private static void row(PrintWriter out, String label, Summary s, double[] counts, String extra) {
        if (s == null) {
            out.printf(Locale.ROOT, "%-28s %8s%n", label, "failed");
            return;
        }
        out.printf(Locale.ROOT, "%-28s %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f %11.1f %7.1f%s%n", label, s.min(), s.q1(),
                s.mean(), s.q3(), s.max(), s.quartileDeviation(), counts[0], counts[1], extra);
    }

    private static double[] meanRuns(BenchmarkResults r, BenchWorkload w, String c) {
        double[] sums = new double[2];
        int n = 0;
        for (BenchmarkResults.Run run : r.runs()) {
            if (run.workload().slug().equals(w.slug()) && run.contender().equals(c)) {
                sums[0] += run.result().compactions();
                sums[1] += run.result().trivialMoves();
                n++;
            }
        }
        return n == 0 ? sums : new double[] {sums[0] / n, sums[1] / n};
    }

    private static double[] meanSearch(BenchmarkResults r) {
        double[] sums = new double[2];
        int n = 0;
        for (BenchmarkResults.Search x : r.searches()) {
            if (x.result().found()) {
                sums[0] += x.result().compactions();
                sums[1] += x.result().trivialMoves();
                n++;
            }
        }
        return n == 0 ? sums : new double[] {sums[0] / n, sums[1] / n};
    }

    private static BenchmarkResults.Run find(BenchmarkResults r, BenchWorkload w, String c, long seed) {
        for (BenchmarkResults.Run run : r.runs()) {
            if (run.seed() == seed && run.contender().equals(c) && run.workload().slug().equals(w.slug())) {
                return run;
            }
        }
        return null;
    }

    /**
     * Writes the CSV files into {@code dir}, creating it; returns the files written.
     *
     * @param dir the directory
     * @param r   the results
     * @return the files written
     */
    public static List<Path> writeCsv(Path dir, BenchmarkResults r) {
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            written.add(write(dir.resolve("runs.csv"), out -> {
                out.println("workload,contender,seed,operations,ingested_bytes,flushes,flush_bytes,compaction_bytes,"
                        + "compaction_read_bytes,compactions,trivial_moves,levels,write_amplification,"
                        + "write_amplification_over_flushed");
                for (BenchmarkResults.Run run : r.runs()) {
                    ModelResult m = run.result();
                    out.printf(Locale.ROOT, "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.6f,%.6f%n", run.workload().slug(),
                            run.contender(), run.seed(), run.workload().spec().operations(), m.ingestedBytes(),
                            m.flushes(), m.flushBytes(), m.compactionBytes(), m.compactionReadBytes(), m.compactions(),
                            m.trivialMoves(), m.levels(), m.writeAmplification(), m.writeAmplificationOverFlushed());
                }
            }));
            if (!r.searches().isEmpty()) {
                written.add(write(dir.resolve("search.csv"), out -> {
                    out.println("workload,seed,ingested_bytes,flush_bytes,written_bytes,write_amplification,"
                            + "compactions,trivial_moves,nodes,leaves,pruned_by_bound,pruned_by_state,complete,"
                            + "seconds,choices");
                    for (BenchmarkResults.Search x : r.searches()) {
                        SearchResult s = x.result();
                        out.printf(Locale.ROOT, "%s,%d,%d,%d,%d,%.6f,%d,%d,%d,%d,%d,%d,%s,%.3f,\"%s\"%n",
                                x.workload().slug(), x.seed(), s.ingestedBytes(), s.flushBytes(), s.writtenBytes(),
                                s.writeAmplification(), s.compactions(), s.trivialMoves(), s.nodes(), s.leaves(),
                                s.prunedByBound(), s.prunedByState(), s.complete(), x.seconds(), s.choices());
                    }
                }));
            }
            written.add(write(dir.resolve("summary.csv"), out -> {
                out.println("workload,contender,runs,min,q1,mean,q3,max,quartile_deviation");
                List<BenchWorkload> all = new ArrayList<>(r.workloads());
                if (r.small() != null) {
                    all.add(r.small());
                    double[] opt = r.optimalWriteAmplifications();
                    if (opt.length > 0) {
                        summaryRow(out, r.small().slug(), OPTIMAL, Summary.of(opt));
                    }
                }
                for (BenchWorkload w : all) {
                    for (String c : r.contenders()) {
                        Summary s = r.summary(w, c);
                        if (s != null) {
                            summaryRow(out, w.slug(), c, s);
                        }
                    }
                }
            }));
            if (!r.failures().isEmpty()) {
                written.add(write(dir.resolve("failures.csv"), out -> {
                    out.println("workload,contender,seed,message");
                    for (BenchmarkResults.Failure f : r.failures()) {
                        out.printf(Locale.ROOT, "%s,%s,%d,\"%s\"%n", f.workload(), f.contender(), f.seed(),
                                f.message().replace("\"", "\"\""));
                    }
                }));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the benchmark's CSV files into " + dir + ": "
                    + e.getMessage(), e);
        }
        return written;
    }

    private static void summaryRow(PrintWriter out, String workload, String contender, Summary s) {
        out.printf(Locale.ROOT, "%s,%s,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f%n", workload, contender, s.count(), s.min(),
                s.q1(), s.mean(), s.q3(), s.max(), s.quartileDeviation());
    }

    private interface Body {
        void write(PrintWriter out);
    }

    private static Path write(Path file, Body body) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8); PrintWriter out = new PrintWriter(w)) {
            body.write(out);
            if (out.checkError()) {
                throw new IOException("write failed");
            }
        }
        return file;
    }
}
