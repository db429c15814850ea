package io.lsmpolicies.merge.sim.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.FlushSizes;
import io.lsmpolicies.merge.sim.OfflineOptimum;
import io.lsmpolicies.merge.sim.OptimalCost;
import io.lsmpolicies.merge.sim.ReadCountSources;
import io.lsmpolicies.merge.sim.ReadCounts;
import io.lsmpolicies.merge.sim.SimulationResult;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lsm-sim}: runs merge policies on a flush-size sequence in the model of Mao et al. and
 * reports write amplification, SSTable counts, merges and transient space amplification, and, with the reads
 * after each flush ({@code --reads}), the model's merge, read and total costs, as a table, JSON or CSV, with an
 * optional per-flush CSV trace and PNG plots of write amplification and of cumulative cost against flushes.
 */
@Command(name = "lsm-sim", mixinStandardHelpOptions = true, version = "lsm-sim 0.1.0",
        sortOptions = false, usageHelpWidth = 110,
        description = "Simulates LSM merge policies on a sequence of flush sizes (the model of Mao et al., "
                + "VLDB Journal 2021) and compares their write amplification and SSTable counts.",
        footer = {"", "Examples:",
                "  lsm-sim --policy binomial --param k=6 --flushes 24000 --flush-size constant:1 --format json",
                "  lsm-sim --all --param k=6 --flushes 100000 --flush-size uniform:90:110 --plot results/wa.png",
                "  lsm-sim --policy binomial:k=4 --policy binomial:k=8 --flushes 10000 --trace-out t.csv",
                "  lsm-sim --all --param k=4 --flushes 2000 --flush-size uniform:1000:2000 --reads phases:1000x0,1000x5"
                        + " --cost-plot cost.png",
                "  lsm-sim --all --param k=4 --flushes 500 --flush-size uniform:1:100 --reads constant:2 --read-cost 10"
                        + " --optimal --optimal-depth 4",
                "Exit status: 0 success, 2 bad arguments or input, 1 I/O failure."})
public final class LsmSim implements Callable<Integer> {

    enum Format { table, json, csv }

    @Spec
    private CommandSpec spec;

    @Option(names = "--policy", paramLabel = "NAME[:P=V,...]",
            description = "Policy to simulate, optionally with parameters; repeat to compare several.")
    private List<String> policies = new ArrayList<>();

    @Option(names = "--all", description = "Simulate every registered stack policy (leveled ones run in the engine).")
    private boolean all;

    @Option(names = "--param", paramLabel = "[POLICY.]P=V",
            description = "Parameter for every selected policy that has it (or, qualified, for one policy).")
    private List<String> params = new ArrayList<>();

    @Option(names = "--flushes", paramLabel = "N",
            description = "Number of flushes (default for trace:FILE: every size in the file).")
    private Long flushes;

    @Option(names = "--flush-size", paramLabel = "SOURCE", defaultValue = "constant:1",
            description = "constant:S, uniform:A:B, normal:MEAN:SD or trace:FILE (default: ${DEFAULT-VALUE}).")
    private String flushSize;

    @Option(names = "--reads", paramLabel = "SOURCE", defaultValue = "constant:0",
            description = "Reads after each flush: constant:R, phases:N1xR1,N2xR2,... (N1 flushes with R1 reads each,"
                    + " then N2 with R2, ...) or trace:FILE (one count per line) (default: ${DEFAULT-VALUE}).")
    private String reads;

    @Option(names = "--read-cost", paramLabel = "B", defaultValue = "4096",
            description = "Bytes one read's probe of one SSTable costs (default: ${DEFAULT-VALUE}).")
    private long readCost;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of random flush sizes (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--format", defaultValue = "table",
            description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private Format format;

    @Option(names = "--trace-out", paramLabel = "FILE.csv", description = "Write one CSV row per flush and policy.")
    private Path traceOut;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Plot write amplification against flushes.")
    private Path plot;

    @Option(names = "--cost-plot", paramLabel = "FILE.png",
            description = "Plot cumulative total cost (merge cost + read cost) against flushes; with --optimal also "
                    + "the optimum of the first t flushes, below every policy's curve.")
    private Path costPlot;

    @Option(names = "--optimal",
            description = "Also compute the offline optimum (least total cost of any schedule on these flushes and "
                    + "reads) and each policy's competitive ratio, total cost / optimum.")
    private boolean optimal;

    @Option(names = "--optimal-depth", paramLabel = "K",
            description = "Also compute the least merge cost of any schedule with at most K SSTables after every "
                    + "flush (reads ignored) and each policy's merge cost / it.")
    private Integer optimalDepth;

    @Option(names = "--optimal-exact-limit", paramLabel = "N",
            defaultValue = "" + OfflineOptimum.DEFAULT_EXACT_LIMIT,
            description = "Solve the optima exactly up to N flushes (at most " + OfflineOptimum.MAX_EXACT_LIMIT
                    + "; time grows as N^3); longer runs get a labelled lower bound from blocks of about N flushes "
                    + "(default: ${DEFAULT-VALUE}).")
    private int exactLimit;

    @Option(names = "--list", description = "List the policies and their parameters, then exit.")
    private boolean list;

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(args));
    }

    /** The configured command line (error handling included); tests call {@code execute} on it. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new LsmSim());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (e instanceof IllegalArgumentException || e instanceof java.util.NoSuchElementException) {
                err.println("lsm-sim: " + e.getMessage());
                err.flush();
                return 2;
            }
            if (e instanceof UncheckedIOException) {
                err.println("lsm-sim: " + e.getMessage());
                err.flush();
                return 1;
            }
            throw e;
        });
        return cl;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (list) {
            listPolicies(out);
            return 0;
        }
        List<String> selected = new ArrayList<>(policies);
        if (all) {
            selected.addAll(MergePolicies.names(PolicyLayout.STACK));
        }
        if (selected.isEmpty()) {
            throw new IllegalArgumentException("no policy selected: give --policy NAME (see --list) or --all");
        }
        if (readCost < 0) {
            throw new IllegalArgumentException("--read-cost must be >= 0 bytes, was " + readCost);
        }
        // A policy that weighs reads (adaptive) prices a probe as the simulator does, unless told otherwise.
        List<MergePolicy> runs = PolicySelection.resolve(selected, params,
                Map.of("read-cost", Long.toString(readCost)));
        if (optimalDepth != null && optimalDepth < 1) {
            throw new IllegalArgumentException("--optimal-depth must be >= 1 SSTables, was " + optimalDepth);
        }
        if (exactLimit < 1 || exactLimit > OfflineOptimum.MAX_EXACT_LIMIT) {
            throw new IllegalArgumentException("--optimal-exact-limit must be in [1, " + OfflineOptimum.MAX_EXACT_LIMIT
                    + "] flushes, was " + exactLimit);
        }
        long n = flushCount();
        long readsGiven = readCounts().remaining();
        if (readsGiven < n) {
            throw new IllegalArgumentException("--reads '" + reads + "' gives read counts for only " + readsGiven
                    + " flushes, but " + n + " flushes are simulated");
        }
        List<String> labels = labels(runs);
        List<SimulationResult> results = new ArrayList<>();
        List<Double> seconds = new ArrayList<>();
        FlushSeriesPlot chart = plot == null ? null : FlushSeriesPlot.writeAmplification(n);
        FlushSeriesPlot costChart = costPlot == null ? null : FlushSeriesPlot.cumulativeCost(n);
        try (TraceCsv trace = traceOut == null ? null : new TraceCsv(traceOut)) {
            for (int i = 0; i < runs.size(); i++) {
                String label = labels.get(i);
                if (chart != null) {
                    chart.startSeries(label);
                }
                if (costChart != null) {
                    costChart.startSeries(label);
                }
                Simulator simulator = new Simulator(runs.get(i), FlushSizeSources.parse(flushSize, seed), readCounts(),
                        readCost, seed);
                long start = System.nanoTime();
                boolean perFlush = trace != null || chart != null || costChart != null;
                SimulationResult r = !perFlush ? simulator.run(n) : simulator.run(n, step -> {
                    if (trace != null) {
                        trace.row(label, step);
                    }
                    if (chart != null) {
                        chart.point(step.flush(), step.writeAmplification());
                    }
                    if (costChart != null) {
                        costChart.point(step.flush(), step.totalCost());
                    }
                });
                seconds.add((System.nanoTime() - start) / 1e9);
                results.add(r);
            }
        }
        if (chart != null) {
            chart.write(plot, flushSize + ", " + n + " flushes");
        }
        Optima optima = optima(n);
        if (costChart != null) {
            if (optima.prefixes() != null) {
                costChart.startReferenceSeries(optima.prefixLabel());
                long[] prefixes = optima.prefixes();
                for (int t = 0; t < prefixes.length; t++) {
                    costChart.point(t + 1, prefixes[t]);
                }
            }
            costChart.write(costPlot, flushSize + "; reads " + reads + "; " + readCost + " B per probe");
        }
        switch (format) {
            case table -> ResultTable.print(out, results, labels, seconds, optima);
            case json -> printJson(out, results, optima);
            case csv -> printCsv(out, results, optima);
        }
        out.flush();
        return 0;
    }

    private long flushCount() {
        if (flushes != null) {
            if (flushes < 1) {
                throw new IllegalArgumentException("--flushes must be >= 1, was " + flushes);
            }
            return flushes;
        }
        FlushSizes sizes = FlushSizeSources.parse(flushSize, seed);
        if (sizes.remaining() == Long.MAX_VALUE) {
            throw new IllegalArgumentException("--flushes N is required unless --flush-size is trace:FILE");
        }
        return sizes.remaining();
    }

    /**
     * The {@code --reads} source, checked to cover the run.
     *
     * @throws IllegalArgumentException naming {@code --reads} and its value if it is malformed
     */
    private ReadCounts readCounts() {
        try {
            return ReadCountSources.parse(reads);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + e.getMessage(), e);
        }
    }

    private static List<String> labels(List<MergePolicy> runs) {
        List<String> labels = new ArrayList<>();
        for (MergePolicy p : runs) {
            labels.add(PolicySelection.label(p));
        }
        for (int i = 0; i < labels.size(); i++) {
            if (labels.indexOf(labels.get(i)) != labels.lastIndexOf(labels.get(i))) {
                labels.set(i, runs.get(i).name() + " " + runs.get(i).parameters());
            }
        }
        return labels;
    }

    /** The optima asked for, on the same flush sizes and reads the policies ran on. */
    private Optima optima(long n) {
        if (!optimal && optimalDepth == null) {
            return new Optima(null, null, null, 0);
        }
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("--optimal and --optimal-depth take at most " + (Integer.MAX_VALUE - 8)
                    + " flushes, not " + n);
        }
        FlushSizes sizes = FlushSizeSources.parse(flushSize, seed);
        ReadCounts readCounts = readCounts();
        long[] l = new long[(int) n];
        long[] r = new long[(int) n];
        for (int t = 0; t < n; t++) {
            l[t] = sizes.next();
            r[t] = readCounts.next();
        }
        long[] prefixes = optimal ? OfflineOptimum.minTotalCostOfPrefixes(l, r, readCost, exactLimit) : null;
        OptimalCost total = optimal ? OfflineOptimum.totalOf(prefixes, exactLimit) : null;
        return new Optima(total, prefixes,
                optimalDepth == null ? null : OfflineOptimum.minMergeCostWithDepth(l, optimalDepth, exactLimit),
                optimalDepth == null ? 0 : optimalDepth);
    }

    private static void printJson(PrintWriter out, List<SimulationResult> results, Optima optima) throws Exception {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        List<ObjectNode> nodes = new ArrayList<>();
        for (SimulationResult r : results) {
            ObjectNode node = mapper.valueToTree(r);
            optima.addTo(node, r);
            nodes.add(node);
        }
        out.println(mapper.writeValueAsString(nodes.size() == 1 ? nodes.get(0) : nodes));
    }

    private static void printCsv(PrintWriter out, List<SimulationResult> results, Optima optima) {
        out.println("policy,parameters,flush_size,seed,flushes,flushed_bytes,merge_output_bytes,write_amplification,"
                + "model_write_amplification,average_component_count,max_component_count,merges,"
                + "transient_space_amplification,reads,read_cost_bytes,merge_cost,read_cost,total_cost"
                + optima.csvHeader());
        for (int i = 0; i < results.size(); i++) {
            SimulationResult r = results.get(i);
            StringBuilder params = new StringBuilder();
            r.parameters().forEach((k, v) -> params.append(params.length() == 0 ? "" : ";").append(k).append('=')
                    .append(v));
            out.println(String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%d,%d,%.6f,%.6f,%.6f,%d,%d,%.6f,%s,%d,%d,%d,%d",
                    r.policy(), params, r.flushSize(), r.seed(), r.flushes(), r.flushedBytes(), r.mergeOutputBytes(),
                    r.writeAmplification(), r.modelWriteAmplification(), r.averageComponentCount(),
                    r.maxComponentCount(), r.merges(), r.transientSpaceAmplification(), csv(r.reads()),
                    r.readCostBytes(), r.mergeCost(), r.readCost(), r.totalCost()) + optima.csvRow(r));
        }
    }

    private static String csv(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    private static void listPolicies(PrintWriter out) {
        for (PolicyFactory f : MergePolicies.factories().values()) {
            out.println(f.name() + " - " + f.description()
                    + (f.layout() == PolicyLayout.STACK ? "" : " [leveled: runs in the engine, not simulated]"));
            for (ParameterSpec p : f.parameters()) {
                out.println("    " + p.name() + "  " + p.accepted()
                        + (p.required() ? ", required" : ", default " + p.defaultValue()) + "  " + p.description());
            }
        }
    }
}
