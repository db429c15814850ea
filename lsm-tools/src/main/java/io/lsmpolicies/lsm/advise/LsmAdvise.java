package io.lsmpolicies.lsm.advise;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lsmpolicies.lsm.ByteSizes;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.sim.Advisor;
import io.lsmpolicies.merge.sim.AdvisorInputs;
import io.lsmpolicies.merge.sim.AdvisorWorkload;
import io.lsmpolicies.merge.sim.OfflineOptimum;
import io.lsmpolicies.merge.sim.ReadCountSources;
import io.lsmpolicies.merge.sim.ReadCounts;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.sim.cli.AdvicePlot;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm-advise}: which merge policy for a workload, and how far each is from the best possible. Reads a
 * store directory ({@link StoreWorkload}, never changing the store), a trace file or a YCSB workload file
 * ({@link AdvisorInputs}), ranks the candidates by predicted total cost ({@link Advisor}), prints the ranking and
 * the recommendation, and draws the comparison ({@link AdvicePlot}).
 *
 * <p>Exit status: 0 advice given; 1 the input could not be read (missing or damaged); 2 bad arguments or a
 * malformed input (the message names the flag, file and line).
 */
@Command(name = "lsm-advise", mixinStandardHelpOptions = true, version = "lsm-advise 0.1.0", usageHelpWidth = 110,
        description = "Ranks merge policies for a workload by predicted total cost (merge cost + read cost), against"
                + " the offline optimum, and recommends one.",
        footer = {"", "Examples:",
                "  lsm-advise --store /tmp/db",
                "  lsm-advise --trace flushes.txt --read-cost 4096 --plot advice.png",
                "  lsm-advise --ycsb workloads/workloada --records 100000 --memtable-bytes 4MB",
                "Exit status: 0 advice given, 1 input unreadable or damaged, 2 bad arguments or malformed input."})
public final class LsmAdvise implements Callable<Integer> {

    static final class Source {
        @Option(names = "--store", paramLabel = "DIR", description = "a store directory: its live SSTables' flush"
                + " intervals and sizes, and adaptive's read ledger if it has one (read only)")
        Path store;
        @Option(names = "--trace", paramLabel = "FILE", description = "one flush a line: LENGTH or LENGTH READS;"
                + " or a YCSB per-flush trace (bench.trace.file)")
        Path trace;
        @Option(names = "--ycsb", paramLabel = "FILE", description = "a YCSB workload file: load, then its"
                + " operations")
        Path ycsb;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--records", paramLabel = "N", description = "with --ycsb: records loaded (default: the"
            + " file's recordcount)")
    long records = -1;

    @Option(names = "--memtable-bytes", paramLabel = "SIZE", description = "with --ycsb: the MemTable size, e.g."
            + " 4MB (default: the engine's, ${DEFAULT-VALUE})")
    String memtableBytes = String.valueOf(StoreOptions.DEFAULT_MEMTABLE_BYTES);

    @Option(names = "--reads", paramLabel = "SPEC", description = "replace the read counts: constant:R,"
            + " phases:N1xR1,..., trace:FILE (reads after each flush)")
    String reads;

    @Option(names = "--read-cost", paramLabel = "B", description = "bytes one read pays to probe one SSTable"
            + " (default ${DEFAULT-VALUE})")
    long readCost = Simulator.DEFAULT_READ_COST_BYTES;

    @Option(names = "--policy", paramLabel = "SPEC", description = "rank these stack policies only (repeatable,"
            + " e.g. binomial:k=4); default: adaptive and the grid of every stack policy over k in 1..32")
    List<String> policies = new ArrayList<>();

    @Option(names = "--top", paramLabel = "N", description = "rows printed (default ${DEFAULT-VALUE}; 0: all)")
    int top = 15;

    @Option(names = "--format", paramLabel = "text|json", description = "output format (default"
            + " ${DEFAULT-VALUE})")
    String format = "text";

    @Option(names = "--plot", paramLabel = "FILE.png", description = "draw the comparison: each candidate's merge"
            + " and read cost over the optimum")
    Path plot;

    @Option(names = "--optimal-exact-limit", paramLabel = "N", description = "solve the optimum exactly up to N"
            + " flushes (default ${DEFAULT-VALUE}, at most 4096); longer: a lower bound")
    int exactLimit = OfflineOptimum.DEFAULT_EXACT_LIMIT;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line; tests call {@code execute} on it. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new LsmAdvise());
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println("lsm-advise: " + e.getMessage());
            err.flush();
            return e instanceof IOException || e instanceof UncheckedIOException ? 1 : 2;
        });
        return cl;
    }

    @Override
    public Integer call() throws IOException {
        if (readCost < 0) {
            throw new IllegalArgumentException("--read-cost must be >= 0 bytes, was " + readCost);
        }
        if (exactLimit < 1 || exactLimit > OfflineOptimum.MAX_EXACT_LIMIT) {
            throw new IllegalArgumentException("--optimal-exact-limit must be in [1, " + OfflineOptimum.MAX_EXACT_LIMIT
                    + "], was " + exactLimit);
        }
        if (!format.equals("text") && !format.equals("json")) {
            throw new IllegalArgumentException("--format must be text or json, was '" + format + "'");
        }
        if (top < 0) {
            throw new IllegalArgumentException("--top must be >= 0, was " + top);
        }
        if (source.ycsb == null && (records >= 0 || !memtableBytes.equals(
                String.valueOf(StoreOptions.DEFAULT_MEMTABLE_BYTES)))) {
            throw new IllegalArgumentException("--records and --memtable-bytes go with --ycsb only");
        }
        AdvisorWorkload w = workload();
        Map<String, MergePolicy> candidates = candidates();
        Advisor.Advice advice = Advisor.advise(w, candidates, exactLimit);
        PrintWriter out = spec.commandLine().getOut();
        if (format.equals("json")) {
            out.println(json(advice));
        } else {
            out.print(text(advice, top));
        }
        out.flush();
        if (plot != null) {
            AdvicePlot.write(advice, plot);
        }
        return 0;
    }

    private AdvisorWorkload workload() throws IOException {
        AdvisorWorkload w;
        if (source.store != null) {
            w = StoreWorkload.read(source.store, readCost);
        } else if (source.trace != null) {
            w = AdvisorInputs.trace(source.trace, readCost);
        } else {
            long memtable;
            try {
                memtable = ByteSizes.parse(memtableBytes);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--memtable-bytes: " + e.getMessage(), e);
            }
            w = AdvisorInputs.ycsb(source.ycsb, records, memtable, readCost);
        }
        if (reads == null) {
            return w;
        }
        ReadCounts counts;
        try {
            counts = ReadCountSources.parse(reads);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--reads: " + e.getMessage(), e);
        }
        if (counts.remaining() < w.flushes()) {
            throw new IllegalArgumentException("--reads '" + reads + "' gives read counts for " + counts.remaining()
                    + " flushes, but the workload has " + w.flushes());
        }
        long[] r = new long[w.flushes()];
        for (int i = 0; i < r.length; i++) {
            r[i] = counts.next();
        }
        String note = w.notes().isEmpty() ? "" : w.notes() + "; ";
        return w.withReads(r, note + "read counts replaced by --reads " + reads);
    }

    private Map<String, MergePolicy> candidates() {
        if (policies.isEmpty()) {
            return Advisor.candidates(readCost);
        }
        Map<String, MergePolicy> out = new LinkedHashMap<>();
        for (String text : policies) {
            PolicySpec s = PolicySpec.parse(text);
            MergePolicy p;
            if (s.name().equals("adaptive") && !s.parameters().containsKey("read-cost")) {
                Map<String, String> withCost = new LinkedHashMap<>(s.parameters());
                withCost.put("read-cost", String.valueOf(readCost));
                p = MergePolicies.create(new PolicySpec(s.name(), withCost));
            } else {
                p = MergePolicies.create(s);
            }
            Simulator.requireStack(p);
            String label = s.parameters().isEmpty() ? s.name() : s.name() + " " + String.join(",",
                    s.parameters().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
            out.put(label, p);
        }
        return out;
    }

    /** The text report: the workload, the ranking's head, the optimum and the recommendation. */
    static String text(Advisor.Advice a, int top) {
        StringBuilder s = new StringBuilder();
        AdvisorWorkload w = a.workload();
        s.append(String.format(Locale.ROOT, "workload: %s: %d flushes, %d bytes flushed, %d reads, %d bytes a probe%n",
                w.source(), w.flushes(), w.flushedBytes(), w.totalReads(), w.readCostBytes()));
        if (!w.notes().isEmpty()) {
            s.append("  (").append(w.notes()).append(")\n");
        }
        s.append(String.format(Locale.ROOT, "optimum: %d bytes (%s): the least total cost of any schedule%n%n",
                a.optimum().cost(), a.optimum().describe()));
        s.append(String.format(Locale.ROOT, "%4s  %-44s %16s %9s %16s %16s %8s %8s %9s%n", "rank", "policy",
                "total cost", "vs opt", "merge cost", "read cost", "WA", "RA", "transient"));
        s.append("-".repeat(140)).append('\n');
        List<Advisor.Ranked> r = a.ranking();
        int shown = top == 0 ? r.size() : Math.min(top, r.size());
        for (int i = 0; i < r.size(); i++) {
            Advisor.Ranked x = r.get(i);
            if (i >= shown && !x.label().startsWith("adaptive")) {
                continue;
            }
            s.append(String.format(Locale.ROOT, "%4d  %-44s %16d %9.3f %16d %16d %8.3f %8.3f %9.3f%n", i + 1,
                    x.label(), x.result().totalCost(), x.vsOptimum(), x.result().mergeCost(), x.result().readCost(),
                    x.result().modelWriteAmplification(), x.readAmplification(),
                    x.result().transientSpaceAmplification()));
        }
        if (shown < r.size()) {
            s.append(String.format(Locale.ROOT, "  (%d more; --top 0 prints all)%n", r.size() - shown));
        }
        s.append('\n').append("total cost = merge cost + read cost (bytes, docs/policies.md section 6); vs opt ="
                + " total cost / optimum; WA = model write amplification; RA = SSTables a read probes (mean over"
                + " reads; over flushes if none); transient = most space during a merge / bytes flushed\n");
        s.append("recommended: ").append(a.recommended().spec()).append('\n');
        s.append("  because ").append(a.reason()).append('\n');
        return s.toString();
    }

    private static String json(Advisor.Advice a) {
        Map<String, Object> root = new LinkedHashMap<>();
        AdvisorWorkload w = a.workload();
        Map<String, Object> wl = new LinkedHashMap<>();
        wl.put("source", w.source());
        wl.put("flushes", w.flushes());
        wl.put("flushedBytes", w.flushedBytes());
        wl.put("reads", w.totalReads());
        wl.put("readCostBytes", w.readCostBytes());
        wl.put("notes", w.notes());
        root.put("workload", wl);
        root.put("optimalCost", a.optimum().cost());
        root.put("optimalBound", a.optimum().describe());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Advisor.Ranked x : a.ranking()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("policy", x.label());
            row.put("spec", x.spec());
            row.put("totalCost", x.result().totalCost());
            row.put("competitiveRatio", x.vsOptimum());
            row.put("mergeCost", x.result().mergeCost());
            row.put("readCost", x.result().readCost());
            row.put("modelWriteAmplification", x.result().modelWriteAmplification());
            row.put("writeAmplification", x.result().writeAmplification());
            row.put("readAmplification", x.readAmplification());
            row.put("transientSpaceAmplification", x.result().transientSpaceAmplification());
            row.put("maxComponentCount", x.result().maxComponentCount());
            rows.add(row);
        }
        root.put("ranking", rows);
        root.put("recommended", a.recommended().spec());
        root.put("reason", a.reason());
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
