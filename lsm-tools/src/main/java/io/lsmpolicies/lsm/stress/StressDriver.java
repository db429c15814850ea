package io.lsmpolicies.lsm.stress;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreVerifier;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The expected-state crash test (after RocksDB's {@code db_crashtest.py}): for each iteration a
 * {@link StressWorker} child writes to a store while recording what each key should hold, and is killed with
 * SIGKILL at a random moment (sometimes before its store is open); then the store is reopened and every key
 * checked against the {@link ExpectedState}: a key with nothing in flight holds exactly its expected value (or
 * is absent), a key with a write in flight holds the old or the new value. Each store takes several kills in a
 * row (the next child recovers what the last one left), with options drawn per store ({@link StressOptions}).
 *
 * <p>{@code bin/lsm-stress [--iterations N] [--kills-per-store K] [--seed S] [--dir D]}: prints each iteration's
 * seeds and a summary; exit status 1 on the first violation, with the key, what it held and what was expected.
 */
public final class StressDriver {
    /** One iteration's outcome, for the summary. */
    public record Summary(int iterations, int keysChecked, int pendingKeys, List<String> log) {
    }

    private StressDriver() {
    }

    public static void main(String[] args) throws Exception {
        int iterations = 25;
        int killsPerStore = 5;
        long seed = System.nanoTime();
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                case "--kills-per-store" -> killsPerStore = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: lsm-stress [--iterations N] [--kills-per-store K] [--seed S]"
                            + " [--dir D]");
                    System.exit(2);
                }
            }
        }
        Path root = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("lsm-stress");
        try {
            Summary s = run(root, iterations, killsPerStore, seed, System.out::println);
            System.out.printf("lsm-stress: %d kills, %d key checks (%d with a write in flight), no violation%n",
                    s.iterations(), s.keysChecked(), s.pendingKeys());
        } catch (AssertionError e) {
            System.out.println("lsm-stress: VIOLATION: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Runs {@code iterations} kills, {@code killsPerStore} per store, under {@code root}.
     *
     * @throws AssertionError naming the iteration, its seeds, the key and the values, at the first violation
     */
    public static Summary run(Path root, int iterations, int killsPerStore, long seed,
            java.util.function.Consumer<String> log) throws IOException, InterruptedException {
        Random random = new Random(seed);
        log.accept("lsm-stress: seed " + seed + " (rerun with --seed " + seed + ")");
        List<String> lines = new ArrayList<>();
        int checked = 0;
        int pending = 0;
        Path store = null;
        Path stateFile = null;
        long optionsSeed = 0;
        for (int i = 0; i < iterations; i++) {
            if (i % killsPerStore == 0) {
                optionsSeed = random.nextLong();
                store = root.resolve("store-" + i);
                stateFile = root.resolve("state-" + i);
                log.accept("store " + store.getFileName() + ": " + StressOptions.of(optionsSeed).description()
                        + " (options seed " + optionsSeed + ")");
            }
            long runSeed = random.nextLong();
            long delayMillis = random.nextInt(5) == 0 ? random.nextInt(400) : 300 + random.nextInt(1500);
            boolean ready = runAndKill(store, stateFile, optionsSeed, runSeed, delayMillis);
            int[] counts = check(store, stateFile, optionsSeed, "iteration " + i + " (run seed " + runSeed
                    + ", killed after " + delayMillis + " ms" + (ready ? "" : ", before the store was open") + ")");
            checked += counts[0];
            pending += counts[1];
            String line = "iteration " + i + ": killed after " + delayMillis + " ms" + (ready ? "" : " (in open)")
                    + ", " + counts[1] + " key(s) in flight, checked";
            lines.add(line);
            log.accept(line);
        }
        return new Summary(iterations, checked, pending, lines);
    }

    /** Starts a worker, kills it after {@code delayMillis}; whether it had opened its store by then. */
    private static boolean runAndKill(Path store, Path stateFile, long optionsSeed, long runSeed, long delayMillis)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                StressWorker.class.getName(), store.toString(), stateFile.toString(), Long.toString(optionsSeed),
                Long.toString(runSeed)).redirectErrorStream(true).start();
        boolean[] ready = new boolean[1];
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.equals("ready")) {
                        ready[0] = true;
                    } else if (!line.isBlank()) {
                        System.out.println("  worker: " + line);
                    }
                }
            } catch (IOException e) {
                // the worker is gone
            }
        });
        reader.start();
        if (p.waitFor(delayMillis, TimeUnit.MILLISECONDS)) {
            reader.join();
            throw new IllegalStateException("the worker exited by itself (status " + p.exitValue() + ")");
        }
        p.destroyForcibly();
        p.waitFor();
        reader.join();
        return ready[0];
    }

    /** Reopens the store and checks every key; returns {keys checked, keys in flight}. */
    private static int[] check(Path store, Path stateFile, long optionsSeed, String context) throws IOException {
        if (!Files.exists(stateFile)) {
            return new int[] {0, 0}; // killed before the worker created its state: nothing was written
        }
        StoreVerifier.Report report = StoreVerifier.verify(store);
        if (Files.exists(store.resolve("CURRENT")) && !report.ok()) {
            throw new AssertionError(context + ": verify found " + report.problems());
        }
        int inFlight = 0;
        try (ExpectedState state = ExpectedState.open(stateFile, StressOptions.KEYS);
             LsmStore lsm = LsmStore.open(store, StressOptions.of(optionsSeed).options())) {
            for (int k = 0; k < state.keys(); k++) {
                byte[] actual = lsm.get(ExpectedState.key(k));
                long expected = state.expected(k);
                long pending = state.pending(k);
                byte[] want = expected == ExpectedState.ABSENT ? null : ExpectedState.value(k, expected);
                if (Arrays.equals(actual, want)) {
                    if (pending != ExpectedState.NONE) {
                        inFlight++;
                    }
                    continue;
                }
                if (pending != ExpectedState.NONE) {
                    inFlight++;
                    byte[] next = pending == ExpectedState.DELETE ? null : ExpectedState.value(k, pending);
                    if (Arrays.equals(actual, next)) {
                        continue;
                    }
                }
                throw new AssertionError(context + ": key " + k + " holds " + describe(actual) + ", expected "
                        + describe(want) + (pending == ExpectedState.NONE ? "" : " or (in flight) "
                        + (pending == ExpectedState.DELETE ? "absent" : "value " + pending)));
            }
            // One operation is in flight at a kill (the worker has one thread), and a batch is atomic: of the keys in
            // flight whose old and new values differ, all landed or none did.
            Boolean batchLanded = null;
            for (int k = 0; k < state.keys(); k++) {
                long pendingId = state.pending(k);
                if (pendingId == ExpectedState.NONE) {
                    continue;
                }
                byte[] old = state.expected(k) == ExpectedState.ABSENT ? null : ExpectedState.value(k, state.expected(k));
                byte[] next = pendingId == ExpectedState.DELETE ? null : ExpectedState.value(k, pendingId);
                if (Arrays.equals(old, next)) {
                    continue;
                }
                boolean landed = Arrays.equals(lsm.get(ExpectedState.key(k)), next);
                if (batchLanded != null && batchLanded != landed) {
                    throw new AssertionError(context + ": a batch in flight landed in part (key " + k + ")");
                }
                batchLanded = landed;
            }
            // the writes in flight are settled now: whatever the store holds is what the next run builds on
            for (int k = 0; k < state.keys(); k++) {
                if (state.pending(k) != ExpectedState.NONE) {
                    byte[] actual = lsm.get(ExpectedState.key(k));
                    long pendingId = state.pending(k);
                    boolean landed = pendingId == ExpectedState.DELETE ? actual == null
                            : Arrays.equals(actual, ExpectedState.value(k, pendingId));
                    state.acknowledge(k, landed ? (pendingId == ExpectedState.DELETE ? ExpectedState.ABSENT
                            : pendingId) : state.expected(k));
                }
            }
        }
        return new int[] {StressOptions.KEYS, inFlight};
    }

    private static String describe(byte[] v) {
        return v == null ? "nothing" : v.length + " bytes " + Arrays.toString(Arrays.copyOf(v, Math.min(4, v.length)))
                + "...";
    }
}
