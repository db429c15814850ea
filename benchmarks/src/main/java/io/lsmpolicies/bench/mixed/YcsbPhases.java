package io.lsmpolicies.bench.mixed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lsmpolicies.bench.grid.GridSystem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The three phases of {@code bin/bench-mixed} run by YCSB's own client ({@code site.ycsb.Client}, YCSB 0.17.0's
 * core) against our binding ({@code io.lsmpolicies.ycsb.EmbeddedLsmDB}), one child JVM per phase on the same store
 * directory: {@code -load} of {@code records} records with {@code workloads/workloadc}'s record shape (10 fields of
 * 100 bytes, hashed insert order); {@code -t} with {@code workloads/workloadc} ({@code reads} Zipfian reads, nothing
 * written); {@code -load} of {@code records} more ({@code insertstart = records}). Each child writes the store's
 * metrics ({@code lsm.metrics.file}: the binding flushes and waits for the merges before it closes), from which the
 * run's file-layer bytes, gets and tables probed are summed over the phases; a phase's wall time is its child's,
 * JVM start and the settling included. The policy's state survives between the phases in the store's manifest; reads
 * are counted in memory, so each phase's first flush after the reopen is told of no earlier reads.
 */
final class YcsbPhases {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path root;
    private final long records;
    private final long reads;
    private final long memtableBytes;
    private final long readCost;
    private final long timeoutSeconds;

    /**
     * @param root           the repository (workloads/ and the binding's target/ directory)
     * @param records        records per load
     * @param reads          workload C's reads
     * @param memtableBytes  the MemTable budget
     * @param readCost       the bytes a probe costs in the measured total
     * @param timeoutSeconds the longest one phase may take
     */
    YcsbPhases(Path root, long records, long reads, long memtableBytes, long readCost, long timeoutSeconds) {
        this.root = root;
        this.records = records;
        this.reads = reads;
        this.memtableBytes = memtableBytes;
        this.readCost = readCost;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** Runs the three phases with {@code policy} (our syntax), labelled {@code label}, in a fresh store {@code storeDir}. */
    PhaseRun run(Path storeDir, String label, String policy) throws IOException, InterruptedException {
        Files.createDirectories(storeDir);
        Path db = storeDir.resolve("db");
        long[] nanos = new long[3];
        long[] sums = new long[5]; // flushes, written, read, gets, probed
        String[][] phases = {
            {"-load", "insertstart=0", "insertcount=" + records, "recordcount=" + records},
            {"-t", "recordcount=" + records, "operationcount=" + reads},
            {"-load", "insertstart=" + records, "insertcount=" + records, "recordcount=" + 2 * records},
        };
        for (int i = 0; i < phases.length; i++) {
            Path metrics = storeDir.resolve("phase" + (i + 1) + ".json");
            Path log = storeDir.resolve("phase" + (i + 1) + ".log");
            List<String> command = command(policy, db, metrics, phases[i]);
            long start = System.nanoTime();
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new IOException(policy + ": YCSB phase " + (i + 1) + " took more than " + timeoutSeconds
                        + " s (log: " + log + ")");
            }
            nanos[i] = System.nanoTime() - start;
            if (p.exitValue() != 0 || !Files.exists(metrics)) {
                throw new IOException(policy + ": YCSB phase " + (i + 1) + " failed with exit status " + p.exitValue()
                        + ": " + tail(log));
            }
            add(sums, JSON.readTree(metrics.toFile()).path("metrics"));
        }
        return new PhaseRun(label, nanos, sums[0], sums[1], sums[2], sums[3], -1, sums[4], readCost);
    }

    private List<String> command(String policy, Path db, Path metrics, String[] phase) {
        List<String> c = new ArrayList<>();
        c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        c.addAll(List.of("-cp", GridSystem.LSM.classPath(root), "site.ycsb.Client", phase[0], "-db",
                GridSystem.LSM.dbClass(), "-P", root.resolve("workloads").resolve("workloadc").toString(), "-s"));
        List<String> props = new ArrayList<>(GridSystem.LSM.properties(policy, db, Long.toString(memtableBytes),
                "off", "none"));
        props.add("lsm.metrics.file=" + metrics);
        for (int i = 1; i < phase.length; i++) {
            props.add(phase[i]);
        }
        for (String prop : props) {
            c.add("-p");
            c.add(prop);
        }
        return c;
    }

    /** Adds one phase's flushes, file-layer bytes (flush and merge writes; merge and get reads), gets and probes. */
    private static void add(long[] sums, JsonNode m) {
        sums[0] += m.path("flushes").path("count").asLong();
        sums[1] += cause(m.path("io").path("bytesWrittenByCause"), "FLUSH")
                + cause(m.path("io").path("bytesWrittenByCause"), "MERGE");
        sums[2] += cause(m.path("io").path("bytesReadByCause"), "MERGE")
                + cause(m.path("io").path("bytesReadByCause"), "READ");
        long gets = m.path("reads").path("gets").asLong();
        sums[3] += gets;
        sums[4] += Math.round(m.path("reads").path("tablesProbedPerGet").asDouble() * gets);
    }

    private static long cause(JsonNode byCause, String name) {
        long sum = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = byCause.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equalsIgnoreCase(name)) {
                sum += e.getValue().asLong();
            }
        }
        return sum;
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "(no log)";
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }
}
