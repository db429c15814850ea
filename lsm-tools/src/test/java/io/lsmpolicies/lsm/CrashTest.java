package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.lsmpolicies.lsm.cli.RecordValues;
import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.lsm.cli.YcsbKeys.KeyOrder;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.wal.SyncMode;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Crash tests: a child JVM runs {@code lsm load --wal sync} with a 64 KiB MemTable (a flush every few
 * hundred records, merges after most flushes) and is killed with SIGKILL ({@link Process#destroyForcibly()}) at a
 * random moment: during JVM start, while the store is created or recovers, or while it loads, flushes, merges and
 * writes its manifest. After each kill:
 * <ol>
 *   <li>{@link StoreVerifier} passes on the crash image as the child left it (orphans, a torn manifest record and
 *       a torn log tail are warnings);</li>
 *   <li>the manifest holds at most k + 1 tables: Binomial's schedule keeps at most k ({@code target(t)} is in
 *       [1, k]), and a flush may be installed before the merge it triggers (the next flush waits for it);</li>
 *   <li>then, unless the store is left for the next child to recover: {@link LsmStore#open} succeeds, and after
 *       its merges settle at most k tables remain;</li>
 *   <li>every record a killed child acknowledged (its last {@code {"acked": N}} line) holds that child's value,
 *       unless a later child may have overwritten it; a record a child may have written unacknowledged holds that
 *       child's value or an earlier one; nothing acknowledged is missing, and what exists is contiguous;</li>
 *   <li>after the store is closed, verify passes again with no warning at all.</li>
 * </ol>
 * One test kills children on fresh directories; the other reuses one directory: loads continue ({@code --start})
 * or overwrite earlier records with another seed, and half the time the test leaves the crash image to the next
 * child, whose open replays the log, so kills also land in recovery. Values are derivable:
 * {@link RecordValues#value}(seed, record, 0, 100).
 *
 * <p>Two more tests compare the last acknowledgement with what recovery finds: a load with four threads, killed;
 * and a load with one and with four threads whose device fills up (a child that runs the load on a fault-injecting
 * file layer, {@code DiskFullLoad}), which must exit by itself naming the cause.
 *
 * <p>The seed is printed; set {@code -Dlsm.crash.seed=S} to rerun the same choices (the kill moments still depend
 * on timing). 22 kills take about 30 s; the other tests about 10 s.
 */
class CrashTest {
    private static final int K = 3;
    private static final int VALUE_SIZE = 100;
    private static final long RECORDS = 1_000_000;
    private static final String DISK_FULL_LOAD = "io.lsmpolicies.lsm.cli.DiskFullLoad";
    private static final Pattern ACKED = Pattern.compile("\\{\"acked\": (\\d+)}");

    @TempDir
    Path tmp;

    private static long masterSeed() {
        String given = System.getProperty("lsm.crash.seed");
        return given != null ? Long.parseLong(given) : System.nanoTime();
    }

    /** The stack policy of the first two tests; its bound is checked at every crash. */
    private static final String BINOMIAL = "binomial:k=" + K;

    private static StoreOptions options(String policy) {
        return StoreOptions.builder().memtableBytes(64 << 10).walMode(SyncMode.SYNC).policy(policy).build();
    }

    /** A running child and the last acknowledgement it printed. */
    private record Child(Process process, AtomicLong acked, Thread reader, Path stderr) {
    }

    private Child start(Path dir, String policy, long seed, long startRecord, int index) throws IOException {
        return start(List.of("io.lsmpolicies.lsm.cli.Lsm"), dir, policy, seed, startRecord, index, 1);
    }

    /** Starts {@code main} (a main class and its first arguments) with a load's arguments after them. */
    private Child start(List<String> main, Path dir, String policy, long seed, long startRecord, int index,
            int threads) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path")));
        command.addAll(main);
        command.addAll(List.of("load", "--dir", dir.toString(), "--records", Long.toString(RECORDS), "--value-size",
                Integer.toString(VALUE_SIZE), "--key-order", "ordered", "--wal", "sync", "--memtable-size", "64KB",
                "--policy", policy, "--seed", Long.toString(seed), "--start", Long.toString(startRecord),
                "--threads", Integer.toString(threads)));
        Path stderr = tmp.resolve("child-" + index + ".err");
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        AtomicLong acked = new AtomicLong();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    Matcher m = ACKED.matcher(line);
                    if (m.matches()) {
                        acked.accumulateAndGet(Long.parseLong(m.group(1)), Math::max);
                    }
                }
            } catch (IOException e) {
                // the pipe closes when the child dies
            }
        }, "crash-child-stdout-" + index);
        reader.setDaemon(true);
        reader.start();
        return new Child(process, acked, reader, stderr);
    }

    /** Kills the child after {@code delayMillis} and returns how many records it acknowledged. */
    private long killAfter(Child child, long delayMillis) throws Exception {
        Thread.sleep(delayMillis);
        if (!child.process().isAlive()) {
            fail("the child exited by itself with status " + child.process().exitValue() + ":\n"
                    + Files.readString(child.stderr()));
        }
        child.process().destroyForcibly();
        assertThat(child.process().waitFor(30, TimeUnit.SECONDS)).as("the killed child ended").isTrue();
        child.reader().join(10_000);
        return child.acked().get();
    }

    /** One killed load: its seed, first record, and the records it acknowledged. */
    private record Run(long seed, long start, long acked) {
        long end() {
            return start + acked;
        }
    }

    /**
     * What the test knows of the store: for each record (index = record number), the seed of the load whose value
     * it held at the last check (exact: unacknowledged writes found present are adopted), and the loads killed
     * since then, oldest first.
     */
    private static final class Model {
        final List<Long> seedOf = new ArrayList<>();
        final List<Run> pending = new ArrayList<>();

        /** Every record below this is known to exist. */
        long knownEnd() {
            long end = seedOf.size();
            for (Run r : pending) {
                end = Math.max(end, r.end());
            }
            return end;
        }
    }

    /**
     * One kill: the child loads records from {@code startRecord} with {@code seed} and dies after the delay. The
     * crash image is verified; with {@code recover}, the test opens the store, checks it and closes it, otherwise
     * the next child recovers it (so a later kill may land in that recovery).
     */
    private String crashOnce(Path dir, Model model, long seed, long startRecord, long delayMillis, int index,
            boolean recover) throws Exception {
        return crashOnce(dir, BINOMIAL, model, seed, startRecord, delayMillis, index, recover);
    }

    /** As above with any policy; the table-count bound is checked for {@link #BINOMIAL} only. */
    private String crashOnce(Path dir, String policy, Model model, long seed, long startRecord, long delayMillis,
            int index, boolean recover) throws Exception {
        boolean bounded = policy.equals(BINOMIAL);
        Child child = start(dir, policy, seed, startRecord, index);
        long acked = killAfter(child, delayMillis);
        String line = String.format("crash %2d: seed=%d delay=%dms start=%d acked=%d", index, seed, delayMillis,
                startRecord, acked);
        if (!Files.exists(dir.resolve(StoreFiles.CURRENT))) {
            // Killed before the store existed (JVM start, or its creation): nothing can have been acknowledged.
            assertThat(acked).as(line).isZero();
            assertThat(model.knownEnd()).as(line).isZero();
            return line + " (killed before the store was created)";
        }
        model.pending.add(new Run(seed, startRecord, acked));
        StoreVerifier.Report crashed = StoreVerifier.verify(dir);
        assertThat(crashed.problems()).as(line + " verify of the crash image").isEmpty();
        int tablesAtCrash = Manifest.recover(dir).set().tableCount();
        if (bounded) {
            assertThat(tablesAtCrash).as(line + " tables in the manifest at the crash").isLessThanOrEqualTo(K + 1);
        }
        String image = String.format(" tables=%d unflushed-log-records=%d crash-image %s", tablesAtCrash,
                crashed.walRecords(), summarize(crashed.warnings()));
        if (!recover) {
            return line + image + "; left for the next child to recover";
        }
        int tablesAfter;
        long records;
        try (LsmStore store = LsmStore.open(dir, options(policy))) {
            store.awaitMerges();
            tablesAfter = store.components().tableCount();
            if (bounded) {
                assertThat(tablesAfter).as(line + " tables after recovery").isLessThanOrEqualTo(K);
            }
            EngineTestSupport.assertLevelInvariants(store, line);
            records = check(store, model, line);
        }
        StoreVerifier.Report closed = StoreVerifier.verify(dir);
        assertThat(closed.problems()).as(line + " verify after close").isEmpty();
        assertThat(closed.warnings()).as(line + " verify after close").isEmpty();
        return line + image + String.format("; recovered: records=%d tables=%d", records, tablesAfter);
    }

    /**
     * Checks every record against the model (see the class comment), then folds the pending runs into it; returns
     * the record count. A record acknowledged by a run holds that run's value unless a later run may have
     * overwritten it; a record a run may have written unacknowledged holds that run's value or an earlier one.
     */
    private static long check(LsmStore store, Model model, String line) throws IOException {
        List<Long> seedOf = model.seedOf;
        int known = seedOf.size();
        long record = 0;
        while (true) {
            List<Long> candidates = new ArrayList<>();
            boolean mustExist = false;
            for (int j = model.pending.size() - 1; j >= 0 && !mustExist; j--) {
                Run run = model.pending.get(j);
                if (record >= run.start() && record < run.end()) {
                    candidates.add(run.seed());
                    mustExist = true;
                } else if (record >= run.end()) {
                    candidates.add(run.seed()); // may have been written, unacknowledged
                }
            }
            if (!mustExist && record < known) {
                candidates.add(seedOf.get((int) record));
                mustExist = true;
            }
            byte[] value = store.get(YcsbKeys.key(record, KeyOrder.ORDERED));
            if (value == null) {
                assertThat(mustExist).as("%s: record %d was acknowledged but is missing", line, record).isFalse();
                break; // beyond everything known and acknowledged: the rest must be absent too (checked below)
            }
            long found = 0;
            boolean matched = false;
            for (long seed : candidates) {
                if (Arrays.equals(value, RecordValues.value(seed, record, 0, VALUE_SIZE))) {
                    found = seed;
                    matched = true;
                    break;
                }
            }
            assertThat(matched).as("%s: record %d holds the value of none of the loads %s that may have written it "
                    + "last", line, record, candidates).isTrue();
            set(seedOf, record, found);
            record++;
        }
        // Every load writes its records in order from a start within what existed: nothing follows the first gap.
        for (long r = record; r < record + 300; r++) {
            assertThat(store.get(YcsbKeys.key(r, KeyOrder.ORDERED))).as("%s: record %d after a gap", line, r).isNull();
        }
        long count = 0;
        try (StoreIterator it = store.scan(null, null)) {
            while (it.hasNext()) {
                it.next();
                count++;
            }
        }
        assertThat(count).as("%s: records in a full scan", line).isEqualTo(seedOf.size());
        model.pending.clear();
        return count;
    }

    private static void set(List<Long> seedOf, long record, long seed) {
        if (record < seedOf.size()) {
            seedOf.set((int) record, seed);
        } else {
            assertThat(record).isEqualTo(seedOf.size());
            seedOf.add(seed);
        }
    }

    private static String summarize(List<String> warnings) {
        long orphans = warnings.stream().filter(w -> w.contains("orphan")).count();
        long tornManifest = warnings.stream().filter(w -> w.startsWith("MANIFEST")).count();
        long tornLog = warnings.stream().filter(w -> w.contains(".log")).count();
        return "warnings={orphans=" + orphans + ", tornManifest=" + tornManifest + ", tornLog=" + tornLog + "}";
    }

    @Test
    void killedLoadsOnFreshDirectoriesLoseNoAcknowledgedRecord() throws Exception {
        long master = masterSeed();
        System.out.println("CrashTest fresh directories: -Dlsm.crash.seed=" + master);
        Random random = new Random(master);
        for (int i = 0; i < 6; i++) {
            long seed = random.nextLong();
            // The first kill lands in JVM start or store creation; the others while loading.
            long delay = i == 0 ? random.nextInt(400) : 500 + random.nextInt(1500);
            System.out.println(crashOnce(tmp.resolve("fresh-" + i), new Model(), seed, 0, delay, i, true));
        }
    }

    @Test
    void oneDirectoryKilledRepeatedlyRecoversEveryTime() throws Exception {
        long master = masterSeed();
        System.out.println("CrashTest one directory: -Dlsm.crash.seed=" + master);
        Random random = new Random(master);
        Path dir = tmp.resolve("reused");
        Model model = new Model();
        long baseSeed = random.nextLong();
        for (int i = 0; i < 16; i++) {
            long seed = baseSeed;
            long start = model.knownEnd();
            if (random.nextInt(4) == 0 && start > 0) {
                seed = random.nextLong(); // overwrite earlier records with new values
                start = random.nextInt((int) start);
            }
            // Early kills land in JVM start or in the open, which replays the log a previous kill left when the
            // test did not recover the store itself.
            long delay = random.nextInt(3) == 0 ? 250 + random.nextInt(400) : 500 + random.nextInt(1500);
            boolean recover = i == 15 || random.nextBoolean();
            System.out.println(crashOnce(dir, model, seed, start, delay, 100 + i, recover));
        }
    }

    /**
     * The leveled family (two pickers of {@code leveled}, and {@code universal}): two kills each on one directory,
     * recovered each time; verify (which checks that every level >= 1 is one sorted run) and the record checks
     * as above.
     */
    @Test
    void leveledPoliciesLoseNoAcknowledgedRecord() throws Exception {
        long master = masterSeed();
        System.out.println("CrashTest leveled: -Dlsm.crash.seed=" + master);
        Random random = new Random(master);
        int index = 200;
        for (String policy : EngineTestSupport.LEVELED_POLICY_SPECS) {
            Path dir = tmp.resolve("leveled-" + index);
            Model model = new Model();
            long seed = random.nextLong();
            for (int i = 0; i < 2; i++) {
                long delay = 700 + random.nextInt(1500);
                System.out.println(policy + ": " + crashOnce(dir, policy, model, seed, model.knownEnd(), delay,
                        index++, true));
            }
        }
    }

    /**
     * Checks a store one load of {@code seed} wrote from record 0: records 0 .. acked-1 all hold their values, and
     * every record there holds this load's value. Returns how many records the store holds.
     */
    private static long checkAcknowledged(LsmStore store, long seed, long acked, String line) throws IOException {
        for (long r = 0; r < acked; r++) {
            assertThat(store.get(YcsbKeys.key(r, KeyOrder.ORDERED))).as("%s: record %d was acknowledged", line, r)
                    .isEqualTo(RecordValues.value(seed, r, 0, VALUE_SIZE));
        }
        long count = 0;
        try (StoreIterator it = store.scan(null, null)) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                String key = new String(kv.key(), StandardCharsets.US_ASCII);
                long r = Long.parseLong(key.substring("user".length()));
                assertThat(kv.value()).as("%s: record %d", line, r).isEqualTo(RecordValues.value(seed, r, 0,
                        VALUE_SIZE));
                count++;
            }
        }
        return count;
    }

    /**
     * The final acknowledgement after the device fills up (a short write at a random write of the load, every
     * write after it failing: {@code DiskFullLoad}): the load exits 1 naming the cause, and its last
     * {@code {"acked": N}} line is what recovery finds: records 0 .. N-1, each with its value. With one thread
     * exactly N records (the put that failed never counts, and its record is not in the log); with four, a put
     * after the one that failed may have returned, so there may be more, never a hole below N. Regression: a put
     * that threw counted as returned, so the last line was one too high with one thread, and with four there were
     * holes below it.
     */
    @ParameterizedTest(name = "{0} thread(s)")
    @ValueSource(ints = {1, 4})
    void theFinalAcknowledgementAfterTheDeviceFillsUpIsWhatRecoveryFinds(int threads) throws Exception {
        long master = masterSeed();
        System.out.println("CrashTest disk full, " + threads + " thread(s): -Dlsm.crash.seed=" + master);
        Random random = new Random(master + threads);
        long seed = random.nextLong();
        long fullAt = 300 + random.nextInt(3000);
        Path dir = tmp.resolve("full-" + threads);
        Child child = start(List.of(DISK_FULL_LOAD, tmp.resolve("trash-" + threads).toString(),
                Long.toString(fullAt)), dir, BINOMIAL, seed, 0, 300 + threads, threads);
        assertThat(child.process().waitFor(120, TimeUnit.SECONDS)).as("the load stopped by itself").isTrue();
        child.reader().join(10_000);
        String err = Files.readString(child.stderr());
        assertThat(child.process().exitValue()).as(err).isEqualTo(1);
        assertThat(err).contains("No space left on device");
        long acked = child.acked().get();
        String line = String.format("disk full at write %d, %d thread(s): acked=%d", fullAt, threads, acked);
        assertThat(acked).as(line).isPositive();
        long records;
        try (LsmStore store = LsmStore.open(dir, options(BINOMIAL))) {
            records = checkAcknowledged(store, seed, acked, line);
        }
        if (threads == 1) {
            assertThat(records).as("%s: records recovered", line).isEqualTo(acked);
        } else {
            assertThat(records).as("%s: records recovered", line).isGreaterThanOrEqualTo(acked);
        }
        assertThat(StoreVerifier.verify(dir).problems()).as(line).isEmpty();
        System.out.println(line + "; recovered " + records + " records");
    }

    /** Kills of a load with four threads: every record below the last acknowledgement holds its value. */
    @Test
    void killedLoadsWithFourThreadsLoseNoAcknowledgedRecord() throws Exception {
        long master = masterSeed();
        System.out.println("CrashTest four threads: -Dlsm.crash.seed=" + master);
        Random random = new Random(master);
        for (int i = 0; i < 2; i++) {
            long seed = random.nextLong();
            Path dir = tmp.resolve("threads-" + i);
            long delay = 700 + random.nextInt(1500);
            Child child = start(List.of("io.lsmpolicies.lsm.cli.Lsm"), dir, BINOMIAL, seed, 0, 400 + i, 4);
            long acked = killAfter(child, delay);
            String line = String.format("kill %d, 4 threads: seed=%d delay=%dms acked=%d", i, seed, delay, acked);
            if (!Files.exists(dir.resolve(StoreFiles.CURRENT))) {
                assertThat(acked).as(line).isZero();
                continue;
            }
            long records;
            try (LsmStore store = LsmStore.open(dir, options(BINOMIAL))) {
                records = checkAcknowledged(store, seed, acked, line);
            }
            assertThat(records).as(line).isGreaterThanOrEqualTo(acked);
            System.out.println(line + "; recovered " + records + " records");
        }
    }
}
