package io.lsmpolicies.bench.vsrocks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.bench.BenchFiles;
import io.lsmpolicies.lsm.MergeOrder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One system's phases in a JVM of their own, so that the process's memory is that system's: {@code --mode load}
 * loads an empty directory with {@code --threads} client threads (after loading {@code --load-warmup} records into
 * a store of their own, deleted at once, so that the JIT has compiled the write path); {@code --mode read} opens a
 * loaded one and runs the point reads, then the scans. Each phase's measurements go to standard output as one line,
 * {@code RESULT {"phase":...,"values":{...}}}; everything else the systems log goes to standard error.
 * Started by {@link VsRocksDb}, not by hand.
 */
@Command(name = "bench-vs-rocksdb-child", mixinStandardHelpOptions = true,
        description = "One system's phases of bin/bench-vs-rocksdb (started by it).")
public final class BenchChild implements Callable<Integer> {
    /** The prefix of a result line on standard output. */
    static final String RESULT = "RESULT ";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--side", required = true, description = "ours or rocksdb")
    String side;

    @Option(names = "--pair", required = true, description = "OURS-POLICY/ROCKSDB-STYLE")
    String pair;

    @Option(names = "--dir", required = true)
    Path dir;

    @Option(names = "--mode", required = true, description = "load or read")
    String mode;

    @Option(names = "--threads", defaultValue = "1")
    int threads;

    @Option(names = "--records", required = true)
    long records;

    @Option(names = "--value-size", required = true)
    int valueSize;

    @Option(names = "--load-warmup", defaultValue = "0", description = "Records loaded into a store of their own, "
            + "then deleted, before the timed load")
    long loadWarmup;

    @Option(names = "--gets", defaultValue = "0")
    int gets;

    @Option(names = "--scan-starts", defaultValue = "UNIFORM", description = "UNIFORM or ZIPFIAN")
    ScanStarts scanStarts;

    @Option(names = "--scans", defaultValue = "0")
    int scans;

    @Option(names = "--subcompactions", defaultValue = "0",
            description = "Threads one compaction may be split across, both systems; 0: each one's default")
    int subcompactions;

    @Option(names = "--merge-order", description = "Our stack policies' merge order (default: the store's)")
    MergeOrder mergeOrder;

    @Option(names = "--page-bytes", defaultValue = "0", description = "Our page size; 0: fitted (the default)")
    int pageBytes;

    @Option(names = "--seed", defaultValue = "7")
    long seed;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the phases {@code args} ask for; the exit status (0: done). */
    static int run(String... args) {
        return new CommandLine(new BenchChild()).execute(args);
    }

    @Override
    public Integer call() throws Exception {
        Side s = Side.of(side);
        Tuning tuning = new Tuning(subcompactions, mergeOrder, pageBytes);
        Pairing pairing = Pairing.parse(pair);
        Workload work = new Workload(records, valueSize, gets, scans, seed, scanStarts);
        switch (mode) {
            case "load" -> {
                if (loadWarmup > 0) { // the same code loads a store of its own first: the JIT's warm-up
                    Path warm = dir.resolveSibling(dir.getFileName() + "-warmup");
                    BenchFiles.deleteTree(warm);
                    try (BenchStore store = s.open(pairing, warm, tuning)) {
                        new Workload(loadWarmup, valueSize, 0, 0, seed, ScanStarts.UNIFORM).load(store, threads);
                    } finally {
                        BenchFiles.deleteTree(warm);
                    }
                    BenchFiles.syncDisks();
                }
                Map<String, Double> values;
                try (BenchStore store = s.open(pairing, dir, tuning)) {
                    values = new LinkedHashMap<>(work.load(store, threads));
                }
                values.put("dirBytes", (double) directoryBytes(dir));
                print(PhaseResult.load(threads), values);
            }
            case "read" -> {
                try (BenchStore store = s.open(pairing, dir, tuning)) {
                    print("reads", work.reads(store));
                    print("scans", work.scans(store));
                }
            }
            default -> throw new IllegalArgumentException("--mode: '" + mode + "' is not accepted; accepted: load, read");
        }
        return 0;
    }

    private static void print(String phase, Map<String, Double> values) throws IOException {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("phase", phase);
        Map<String, Double> v = new LinkedHashMap<>(values);
        v.put("maxHeapBytes", (double) Runtime.getRuntime().maxMemory());
        line.put("values", v);
        System.out.println(RESULT + JSON.writeValueAsString(line));
        System.out.flush();
    }

    /**
     * The results in a child's standard output: one per {@link #RESULT} line (other lines are ignored), each
     * labelled with {@code pairing}, {@code side}, {@code round} and {@code repeat}. A value that is not a number
     * (NaN is written as the string {@code "NaN"}) is NaN.
     *
     * @throws IOException if a result line is not the JSON this class prints
     */
    static List<PhaseResult> parse(String stdout, String pairing, String side, int round, int repeat)
            throws IOException {
        List<PhaseResult> results = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            if (!line.startsWith(RESULT)) {
                continue;
            }
            JsonNode node = JSON.readTree(line.substring(RESULT.length()));
            JsonNode phase = node.get("phase");
            JsonNode values = node.get("values");
            if (phase == null || values == null || !values.isObject()) {
                throw new IOException("a result line without phase or values: " + line);
            }
            Map<String, Double> v = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = values.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                v.put(e.getKey(), e.getValue().isNumber() ? e.getValue().asDouble() : Double.NaN);
            }
            results.add(new PhaseResult(pairing, side, round, repeat, phase.asText(), v));
        }
        return results;
    }

    /** The bytes of every regular file under {@code root}. */
    static long directoryBytes(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // removed meanwhile
                }
            }).sum();
        }
    }
}
