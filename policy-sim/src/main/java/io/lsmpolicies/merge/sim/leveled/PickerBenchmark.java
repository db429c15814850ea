package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.MergePolicies;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/bench-pickers}: every file picker of the {@code leveled} policy (or any policy spec) on seeded
 * workloads in the key-level model, ten runs each, beside the optimal file-pick search on a small workload; a
 * table of min / Q1 / mean / Q3 / max write amplification, CSV files and box plots. See docs/pickers.md.
 */
@Command(name = "bench-pickers", mixinStandardHelpOptions = true, version = "bench-pickers 0.1.0",
        sortOptions = false, usageHelpWidth = 110,
        description = "Runs leveled file pickers on seeded workloads in a key-level LSM model and compares their "
                + "write amplification with each other and with an offline optimal file-pick search "
                + "(Wei et al., EDBT 2025).",
        footer = {"", "Sizes are in entries (operations for the MemTable); policies see bytes = entries x "
                + "--entry-bytes.",
                "Template placeholders: {picker} {size-ratio} {l0-trigger} {base-level-bytes} {target-file-bytes} "
                + "{memtable-bytes} {levels} {entry-bytes}.",
                "", "Examples:",
                "  bench-pickers                                   # every picker of leveled, default sizes",
                "  bench-pickers --pickers round-robin,min-overlapping-ratio --runs 3 --operations 50000",
                "  bench-pickers --policy 'full=full-leveling:size-ratio={size-ratio}' --out results/p2",
                "Exit status: 0 success, 1 some run failed or a file could not be written, 2 bad arguments."})
public final class PickerBenchmark implements Callable<Integer> {
    /** The default spec template: one {@code leveled} policy per picker, sized as the model's tree. */
    public static final String DEFAULT_TEMPLATE = "leveled:picker={picker},size-ratio={size-ratio},"
            + "l0-trigger={l0-trigger},base-level-bytes={base-level-bytes},target-file-bytes={target-file-bytes}";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z0-9-]+)}");

    @Spec
    private CommandSpec spec;

    @Option(names = "--policy-name", defaultValue = "leveled", description = "Policy whose pickers are compared "
            + "(default: ${DEFAULT-VALUE}).")
    private String policyName;

    @Option(names = "--picker-parameter", defaultValue = "picker", description = "Its picker parameter "
            + "(default: ${DEFAULT-VALUE}).")
    private String pickerParameter;

    @Option(names = "--pickers", split = ",", paramLabel = "NAME", description = "Pickers to run (default: every "
            + "choice the parameter accepts).")
    private List<String> pickers;

    @Option(names = "--template", defaultValue = DEFAULT_TEMPLATE, paramLabel = "SPEC",
            description = "Policy spec per picker, with placeholders (default: ${DEFAULT-VALUE}).")
    private String template;

    @Option(names = "--policy", paramLabel = "[LABEL=]SPEC", description = "Another contender (placeholders allowed);"
            + " repeatable.")
    private List<String> extra = new ArrayList<>();

    @Option(names = "--no-pickers", description = "Run only the --policy contenders.")
    private boolean noPickers;

    @Option(names = "--runs", defaultValue = "10",
            description = "Seeded runs per workload (default: ${DEFAULT-VALUE}).")
    private int runs;

    @Option(names = "--seed", defaultValue = "1",
            description = "First seed; run i uses seed + i (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--threads", description = "Worker threads (default: min(2, cores)).")
    private Integer threads;

    @Option(names = "--entry-bytes", defaultValue = "1024",
            description = "Bytes per entry (default: ${DEFAULT-VALUE}).")
    private long entryBytes;

    @Option(names = "--operations", defaultValue = "200000",
            description = "Operations per workload (default: ${DEFAULT-VALUE}).")
    private int operations;

    @Option(names = "--memtable", defaultValue = "2500",
            description = "Operations per MemTable (default: ${DEFAULT-VALUE}).")
    private int memtable;

    @Option(names = "--target-file", defaultValue = "2500",
            description = "Target file entries (default: ${DEFAULT-VALUE}).")
    private int targetFile;

    @Option(names = "--base-level", defaultValue = "10000",
            description = "Level-1 target entries (default: ${DEFAULT-VALUE}).")
    private long baseLevel;

    @Option(names = "--size-ratio", defaultValue = "4", description = "Size ratio T (default: ${DEFAULT-VALUE}).")
    private int sizeRatio;

    @Option(names = "--l0-trigger", defaultValue = "4",
            description = "Level-0 files that trigger a compaction (default: ${DEFAULT-VALUE}).")
    private int l0Trigger;

    @Option(names = "--levels", defaultValue = "7",
            description = "Levels of the search's scoring, level 0 included (default: ${DEFAULT-VALUE}).")
    private int levels;

    @Option(names = "--updates", defaultValue = "0.5",
            description = "Update share of the update workloads (default: ${DEFAULT-VALUE}).")
    private double updates;

    @Option(names = "--deletes", defaultValue = "0", description = "Delete share of every main workload, for the "
            + "tombstone pickers (default: ${DEFAULT-VALUE}).")
    private double deletes;

    @Option(names = "--zipf-theta", defaultValue = "0.99",
            description = "Zipfian skew, in (0, 1) (default: ${DEFAULT-VALUE}).")
    private double zipfTheta;

    @Option(names = "--small-operations", defaultValue = "600",
            description = "Operations of the small workload (default: ${DEFAULT-VALUE}).")
    private int smallOperations;

    @Option(names = "--small-memtable", defaultValue = "25",
            description = "Its MemTable operations (default: ${DEFAULT-VALUE}).")
    private int smallMemtable;

    @Option(names = "--small-target-file", defaultValue = "25",
            description = "Its target file entries (default: ${DEFAULT-VALUE}).")
    private int smallTargetFile;

    @Option(names = "--small-base-level", defaultValue = "100",
            description = "Its level-1 target entries (default: ${DEFAULT-VALUE}).")
    private long smallBaseLevel;

    @Option(names = "--small-updates", defaultValue = "0.5",
            description = "Its update share (default: ${DEFAULT-VALUE}).")
    private double smallUpdates;

    @Option(names = "--small-distribution", defaultValue = "uniform", description = "Its update distribution: "
            + "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private UpdateDistribution smallDistribution;

    @Option(names = "--no-search", description = "Skip the small workload and the optimal search.")
    private boolean noSearch;

    @Option(names = "--trivial-moves", defaultValue = "skip", paramLabel = "STRATEGY", description = "Where files "
            + "can move trivially, the search tries: skip = only those, skip-first = the first of them, non-skip = "
            + "every file (default: ${DEFAULT-VALUE}).")
    private String trivialMoves;

    @Option(names = "--node-limit", defaultValue = "2000000",
            description = "Search node limit per seed (default: ${DEFAULT-VALUE}).")
    private long nodeLimit;

    @Option(names = "--out", defaultValue = "results/pickers", description = "Folder for CSV files and plots "
            + "(default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--list", description = "Print the contenders and their specs, then exit.")
    private boolean list;

    /**
     * Runs the command line (see the class comment) and exits with its status.
     *
     * @param args the command-line arguments
     */
    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(args));
    }

    /** {@return the configured command line (error handling included); tests call {@code execute} on it} */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new PickerBenchmark());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println("bench-pickers: " + e.getMessage());
            err.flush();
            if (e instanceof IllegalArgumentException) {
                return 2;
            }
            if (e instanceof UncheckedIOException) {
                return 1;
            }
            throw e;
        });
        return cl;
    }

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        BenchmarkSettings.Builder b = BenchmarkSettings.builder().entryBytes(entryBytes).runs(runs).seed(seed)
                .operations(operations)
                .shape(new TreeShape(memtable, targetFile, baseLevel, sizeRatio, l0Trigger, levels))
                .updateFraction(updates).deleteFraction(deletes).zipfTheta(zipfTheta).smallOperations(smallOperations)
                .smallShape(new TreeShape(smallMemtable, smallTargetFile, smallBaseLevel, sizeRatio, l0Trigger, levels))
                .smallUpdateFraction(smallUpdates).smallDistribution(smallDistribution).search(!noSearch)
                .trivialMoves(TrivialMoves.of(trivialMoves)).nodeLimit(nodeLimit);
        if (threads != null) {
            b.threads(threads);
        }
        BenchmarkSettings settings = b.build();
        List<Contender> contenders = contenders(settings, stderr);
        if (list) {
            for (Contender c : contenders) {
                stdout.println(c.label() + "  " + c.source());
            }
            stdout.flush();
            return 0;
        }
        BenchmarkResults results = BenchmarkRun.run(settings, contenders, line -> {
            stderr.println(line);
            stderr.flush();
        });
        BenchmarkReport.print(stdout, results);
        List<Path> files = new ArrayList<>(BenchmarkReport.writeCsv(out, results));
        files.addAll(WaBoxPlot.write(out, results));
        stdout.println("Wrote " + files.size() + " files into " + out + ": "
                + String.join(", ", files.stream().map(p -> p.getFileName().toString()).toList()));
        stdout.flush();
        return results.failures().isEmpty() ? 0 : 1;
    }

    /** The contenders: one per picker (from the template), then the --policy ones; each checked once. */
    private List<Contender> contenders(BenchmarkSettings settings, PrintWriter stderr) {
        List<Contender> out = new ArrayList<>();
        if (!noPickers) {
            if (!template.contains("{picker}")) {
                throw new IllegalArgumentException("--template must contain {picker}: " + template);
            }
            List<String> names = pickers;
            if (names == null) {
                try {
                    names = PickerDiscovery.discover(policyName, pickerParameter);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(e.getMessage() + "; give --no-pickers --policy SPEC to run "
                            + "other policies", e);
                }
                stderr.println("bench-pickers: the pickers of " + policyName + ": " + String.join(", ", names));
            }
            for (String name : names) {
                Contender c = fromTemplate(name, template.replace("{picker}", name), settings);
                try {
                    ModelRunner.requireRealMerges(c.make(settings.shape()), c.label());
                    c.make(settings.smallShape());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("picker " + name + ": " + e.getMessage(), e);
                }
                out.add(c);
            }
        }
        for (String text : extra) {
            int eq = text.indexOf('=');
            int colon = text.indexOf(':');
            boolean labelled = eq > 0 && (colon < 0 || eq < colon);
            String label = labelled ? text.substring(0, eq) : text.contains(":") ? text.substring(0, colon) : text;
            Contender c = fromTemplate(label, labelled ? text.substring(eq + 1) : text, settings);
            // The model runs real merges and trivial moves only: refuse delayed compaction (vct > 0) here, as a bad
            // argument, rather than in every run.
            ModelRunner.requireRealMerges(c.make(settings.shape()), label);
            out.add(c);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no contender to run: give pickers, or --policy SPEC");
        }
        List<String> labels = out.stream().map(Contender::label).toList();
        if (labels.stream().distinct().count() != labels.size()) {
            throw new IllegalArgumentException("two contenders share a label: " + labels + "; label them LABEL=SPEC");
        }
        return out;
    }

    private static Contender fromTemplate(String label, String specTemplate, BenchmarkSettings settings) {
        return new Contender(label, fill(specTemplate, settings.shape().placeholders(settings.entryBytes())),
                shape -> MergePolicies.parse(fill(specTemplate, shape.placeholders(settings.entryBytes()))));
    }

    /** {@code template} with each {@code {name}} replaced by its value. */
    static String fill(String template, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String v = values.get(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException("unknown placeholder {" + m.group(1) + "} in '" + template
                        + "'; known: " + values.keySet());
            }
            m.appendReplacement(b, Matcher.quoteReplacement(v));
        }
        m.appendTail(b);
        return b.toString();
    }
}
