package io.lsmpolicies.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary distribution runs on a JDK alone: a copy of the unpacked archive, away from the source tree, runs its
 * commands from {@code lib/} (no Maven Wrapper, no build), and every jar in {@code lib/} is accounted for in
 * {@code THIRD-PARTY.md}.
 */
class DistributionTest {
    @TempDir
    Path tmp;

    /** The unpacked archive the build assembled before the tests ({@code target/lsm-VERSION-bin/lsm-VERSION}). */
    private static Path unpacked() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("target"))) {
            Path dir = s.filter(p -> p.getFileName().toString().matches("lsm-.*-bin") && Files.isDirectory(p))
                    .findFirst().orElseThrow(() -> new AssertionError("no target/lsm-*-bin: assembled?"));
            try (Stream<Path> inner = Files.list(dir)) {
                return inner.findFirst().orElseThrow();
            }
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private record Run(int exit, String output) {
    }

    /** Runs {@code command} in {@code dir} with a PATH of the JDK and the system directories only. */
    private static Run run(Path dir, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> !k.equals("HOME") && !k.equals("LANG"));
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":/usr/bin:/bin");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        return new Run(p.exitValue(), out);
    }

    @Test
    void theCommandsRunFromTheArchiveAlone() throws Exception {
        Path home = tmp.resolve("lsm");
        copy(unpacked(), home);
        assertThat(home.resolve("pom.xml")).doesNotExist();
        assertThat(home.resolve("LICENSE")).exists();
        assertThat(home.resolve("NOTICE")).exists();
        assertThat(home.resolve("conf/lsm-node.conf")).exists();
        assertThat(home.resolve("workloads/workloada")).exists();

        Run version = run(tmp, home.resolve("bin/lsm-server").toString(), "--version");
        assertThat(version.exit()).as(version.output()).isZero();
        assertThat(version.output()).startsWith("lsm-server 0.");

        Path store = tmp.resolve("store");
        Run load = run(tmp, home.resolve("bin/lsm").toString(), "load", "--dir", store.toString(), "--records",
                "1000");
        assertThat(load.exit()).as(load.output()).isZero();
        Run stats = run(tmp, home.resolve("bin/lsm").toString(), "stats", "--dir", store.toString());
        assertThat(stats.exit()).as(stats.output()).isZero();
        assertThat(stats.output()).doesNotContain("building");

        Path plot = tmp.resolve("wa.png");
        Run sim = run(tmp, home.resolve("bin/lsm-sim").toString(), "--policy", "binomial:k=4", "--flushes", "100",
                "--plot", plot.toString());
        assertThat(sim.exit()).as(sim.output()).isZero();
        assertThat(plot).as("XChart draws PNG without its vector and PDF libraries").isNotEmptyFile();

        // YCSB's core is provided scope in ycsb-binding: lib/ must bring it for bin/ycsb-lsm.
        Run ycsb = run(tmp, home.resolve("bin/ycsb-lsm").toString(), "load", "-P", "workloada", "-p",
                "recordcount=100", "-p", "lsm.dir=" + tmp.resolve("ycsb-store"));
        assertThat(ycsb.exit()).as(ycsb.output()).isZero();
        assertThat(ycsb.output()).contains("[INSERT], Return=OK, 100");
        assertThat(home.resolve("data")).as("nothing ran the server").doesNotExist();
    }

    @Test
    void theYcsbBindingRunsFromItsArchiveWithYcsbsOwnCore() throws Exception {
        Path binding;
        try (Stream<Path> s = Files.list(Path.of("target"))) {
            binding = s.filter(p -> p.getFileName().toString().matches("lsm-.*-ycsb-binding") && Files.isDirectory(p))
                    .findFirst().orElseThrow(() -> new AssertionError("no target/lsm-*-ycsb-binding"))
                    .resolve("lsm-binding").toAbsolutePath();
        }
        List<String> jars;
        try (Stream<Path> s = Files.list(binding.resolve("lib"))) {
            jars = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(jars).anyMatch(j -> j.startsWith("ycsb-binding-")).anyMatch(j -> j.startsWith("lsm-core-"))
                .noneMatch(j -> j.startsWith("core-") || j.startsWith("htrace-") || j.contains("-asl-"));
        // What a stock YCSB 0.17.0 distribution's lib/ holds: its core and the libraries the core needs.
        List<String> ycsbLib = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            String name = Path.of(entry).getFileName().toString();
            if (name.equals("core-0.17.0.jar") || name.startsWith("htrace-core4-")
                    || name.startsWith("jackson-core-asl-") || name.startsWith("jackson-mapper-asl-")
                    || name.startsWith("HdrHistogram-")) {
                ycsbLib.add(entry);
            }
        }
        assertThat(ycsbLib).as("YCSB's core on this test's class path").hasSize(5);
        String classPath = String.join(java.io.File.pathSeparator, ycsbLib) + java.io.File.pathSeparator
                + binding.resolve("lib") + "/*";
        Path workload = unpacked().resolve("workloads/workloada").toAbsolutePath();
        Run load = run(tmp, Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath,
                "site.ycsb.Client", "-load", "-db", "io.lsmpolicies.ycsb.LsmDB", "-P", workload.toString(),
                "-p", "recordcount=200", "-p", "lsm.dir=" + tmp.resolve("ycsb-db"));
        assertThat(load.exit()).as(load.output()).isZero();
        assertThat(load.output()).contains("[INSERT], Operations, 200").contains("[INSERT], Return=OK, 200");
    }

    @Test
    void everyJarInLibIsListedInThirdParty() throws Exception {
        Path home = unpacked();
        TreeSet<String> jars;
        try (Stream<Path> s = Files.list(home.resolve("lib"))) {
            jars = s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
        String listed = Files.readString(home.resolve("THIRD-PARTY.md"), StandardCharsets.UTF_8);
        List<String> missing = new ArrayList<>();
        for (String jar : jars) {
            if (!listed.contains("`" + jar + "`")) {
                missing.add(jar);
            }
        }
        assertThat(missing).as("jars in lib/ that THIRD-PARTY.md does not list (distribution/src/dist/)").isEmpty();
    }
}
