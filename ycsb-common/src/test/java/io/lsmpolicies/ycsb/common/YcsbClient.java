package io.lsmpolicies.ycsb.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs YCSB's own {@code site.ycsb.Client} in a child JVM, as {@code bin/ycsb-lsm} and the peers' launchers do
 * (same main class, DB class and exit-status property), on the test class path, and parses its text report: lines such as
 * {@code [READ], Return=OK, 1000} and {@code [VERIFY], Return=UNEXPECTED_STATE, 3}.
 */
public final class YcsbClient {
    /** The repository's workloads/ directory (tests run in the module directory). */
    public static final Path WORKLOADS = Path.of("..", "workloads").toAbsolutePath().normalize();
    private static final Pattern LINE = Pattern.compile("^\\[([A-Z-]+)\\], ([^,]+), (\\d+(?:\\.\\d+)?)$");

    /** A finished run: exit status, stdout and stderr, and the report's counters by operation and metric. */
    public record Result(int exit, String out, String err, Map<String, Map<String, Double>> report) {
        /** The counter {@code metric} (e.g. {@code Return=OK}, {@code Operations}) of {@code op}; 0 if absent. */
        public long count(String op, String metric) {
            return report.getOrDefault(op, Map.of()).getOrDefault(metric, 0.0).longValue();
        }

        /** The {@code Return=...} metrics of {@code op}, e.g. {@code {Return=OK=1000}}. */
        public Map<String, Long> returns(String op) {
            Map<String, Long> r = new LinkedHashMap<>();
            report.getOrDefault(op, Map.of()).forEach((k, v) -> {
                if (k.startsWith("Return=")) {
                    r.put(k, v.longValue());
                }
            });
            return r;
        }

        public String describe() {
            return "exit " + exit + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private YcsbClient() {
    }

    /**
     * {@code load} or run of {@code workload} on the YCSB DB class {@code db} (a binding on the caller's test class
     * path), with YCSB options {@code args}.
     */
    public static Result run(String db, boolean load, String workload, Path tmp, String... args) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-D" + BindingRuntime.EXIT_STATUS_PROPERTY + "=2", "-cp", System.getProperty("java.class.path"),
                "site.ycsb.Client", load ? "-load" : "-t", "-db", db,
                "-P", WORKLOADS.resolve(workload).toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(tmp, "ycsb", ".out");
        Path err = Files.createTempFile(tmp, "ycsb", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("YCSB did not finish in 120 s: " + Files.readString(err));
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        Map<String, Map<String, Double>> report = new LinkedHashMap<>();
        for (String line : stdout.split("\n")) {
            Matcher m = LINE.matcher(line.strip());
            if (m.matches()) {
                report.computeIfAbsent(m.group(1), k -> new LinkedHashMap<>()).put(m.group(2).strip(),
                        Double.parseDouble(m.group(3)));
            }
        }
        return new Result(p.exitValue(), stdout, Files.readString(err, StandardCharsets.UTF_8), report);
    }

    /**
     * The value YCSB's {@code CoreWorkload} writes into {@code field} of {@code key} when {@code dataintegrity} is
     * on (its private {@code buildDeterministicValue}, restated): the key, the field, then hash codes of the text
     * so far, cut to {@code length}.
     */
    public static String deterministic(String key, String field, int length) {
        StringBuilder sb = new StringBuilder(length);
        sb.append(key).append(':').append(field);
        while (sb.length() < length) {
            sb.append(':');
            sb.append(sb.toString().hashCode());
        }
        sb.setLength(length);
        return sb.toString();
    }
}
