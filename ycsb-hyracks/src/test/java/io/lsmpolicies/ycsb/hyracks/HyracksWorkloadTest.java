package io.lsmpolicies.ycsb.hyracks;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.sim.FlushSizes;
import io.lsmpolicies.merge.sim.SimulationResult;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import io.lsmpolicies.ycsb.common.YcsbClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The binding through YCSB's own Client (a child JVM, as bin/ycsb-hyracks runs it), on AsterixDB's prefix policy
 * and on our Binomial through the adapter: a load of {@value #RECORDS} records with 128 KB memory components (some
 * 45 flushes and their merges), then workload A with {@code dataintegrity=true}, four client threads sharing one
 * index. YCSB's validation must count no error; both trace files must keep the contract; and Binomial's schedule in
 * Hyracks must be our simulator's on the trace's own flush sizes: the same final components (flush ranges, read
 * from the component files' names), the same number of merges, and the write amplification the simulator predicts
 * less what merging saves (Hyracks' outputs are smaller than the sum of their inputs: each component carries a few
 * pages of fixed overhead).
 */
@Timeout(200)
class HyracksWorkloadTest {
    private static final int RECORDS = 3000;
    private static final int OPERATIONS = 3000;
    private static final Pattern SUMMARY = Pattern.compile("(\\d+) flushes, (\\d+) merges");
    private static final Pattern COMPONENT_FILE = Pattern.compile("(\\d+)_(\\d+)_b");

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"prefix", "binomial:k=4"})
    void loadThenWorkloadAWithDataIntegrityKeepsTheTraceContract(String policy) throws Exception {
        Path dir = tmp.resolve("db");
        Path loadTrace = tmp.resolve("load.csv");
        Path runTrace = tmp.resolve("run.csv");
        String[] common = {"-p", "hyracks.dir=" + dir, "-p", "hyracks.memtable.size=128KB", "-p",
            "hyracks.policy=" + policy, "-p", "dataintegrity=true", "-p", "recordcount=" + RECORDS, "-p",
            "operationcount=" + OPERATIONS, "-threads", "4"};

        YcsbClient.Result load = YcsbClient.run(HyracksLsmDB.class.getName(), true, "workloada", tmp,
                concat(common, "-p", "bench.trace.file=" + loadTrace));
        assertThat(load.exit()).as(load.describe()).isZero();
        assertThat(load.returns("INSERT")).as(load.describe()).isEqualTo(Map.of("Return=OK", (long) RECORDS));
        assertThat(load.out()).as("stdout holds YCSB's report only").doesNotContain("WARN", "INFO", "ycsb-hyracks:");
        TraceCheck trace = TraceCheck.read(loadTrace);
        long merges = merges(load.err());
        assertThat(trace.flushes()).as("tens of flushes").hasSizeGreaterThanOrEqualTo(30);
        assertThat(merges).as("merges, %s", load.err()).isGreaterThanOrEqualTo(5);
        assertThat(trace.end().writtenBytes()).isGreaterThan(trace.end().flushedBytes());
        assertThat(SUMMARY.matcher(load.err()).results().map(m -> m.group(1)).toList())
                .containsExactly(Long.toString(trace.end().flushes()));

        if (policy.startsWith("binomial")) {
            int k = 4;
            assertThat(trace.flushes()).allSatisfy(r -> assertThat(r.components()).as("%s", r)
                    .isLessThanOrEqualTo(k + 1));
            List<List<String>> simulated = new ArrayList<>();
            SimulationResult sim = new Simulator(MergePolicies.parse(policy), sizes(trace.flushSizes()), 0)
                    .run(trace.flushes().size(), step -> simulated.add(ranges(step.view())));
            assertThat(componentFiles(dir)).as("the components on disk, oldest first")
                    .isEqualTo(simulated.get(simulated.size() - 1));
            assertThat(trace.end().components()).isEqualTo(simulated.get(simulated.size() - 1).size());
            assertThat(merges).as("merges, as the simulator's").isEqualTo(sim.merges());
            assertThat(trace.writeAmplification()).as("write amplification against the simulator's %s",
                    sim.writeAmplification())
                    .isLessThanOrEqualTo(sim.writeAmplification() * 1.0001)
                    .isGreaterThanOrEqualTo(sim.writeAmplification() * 0.9);
        }

        YcsbClient.Result run = YcsbClient.run(HyracksLsmDB.class.getName(), false, "workloada", tmp, concat(common, "-p", "bench.trace.file=" + runTrace));
        assertThat(run.exit()).as(run.describe()).isZero();
        long reads = run.count("READ", "Operations");
        long updates = run.count("UPDATE", "Operations");
        assertThat(reads + updates).isEqualTo(OPERATIONS);
        assertThat(reads).isGreaterThan(OPERATIONS / 4);
        assertThat(updates).isGreaterThan(OPERATIONS / 4);
        assertThat(run.returns("READ")).as(run.describe()).isEqualTo(Map.of("Return=OK", reads));
        assertThat(run.returns("UPDATE")).as(run.describe()).isEqualTo(Map.of("Return=OK", updates));
        // CoreWorkload checks every read against the value it wrote: OK, UNEXPECTED_STATE (wrong) or ERROR (empty).
        assertThat(run.returns("VERIFY")).as(run.describe()).isEqualTo(Map.of("Return=OK", reads));
        TraceCheck runs = TraceCheck.read(runTrace);
        assertThat(runs.flushes()).as("the run's updates were flushed").isNotEmpty();
        if (policy.startsWith("binomial")) {
            assertThat(runs.flushes()).allSatisfy(r -> assertThat(r.components()).isLessThanOrEqualTo(5));
        }
    }

    @Test
    void aBadPropertyMakesTheClientExitWithStatus2NamingIt() throws Exception {
        YcsbClient.Result r = YcsbClient.run(HyracksLsmDB.class.getName(), true, "workloada", tmp, "-p", "hyracks.dir=" + tmp.resolve("db"),
                "-p", "hyracks.device=nvme", "-p", "recordcount=10");
        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.err()).contains("hyracks.device: 'nvme' is not a device profile; accepted: ssd, hdd, none");
        assertThat(r.count("INSERT", "Operations")).isZero();
    }

    /** The merge count of the binding's summary line on stderr. */
    private static long merges(String stderr) {
        Matcher m = SUMMARY.matcher(stderr);
        assertThat(m.find()).as("summary line in %s", stderr).isTrue();
        return Long.parseLong(m.group(2));
    }

    /**
     * The disk components of the index, oldest first, as flush ranges from their B-tree file names
     * ({@code <first>_<last>_b}, Hyracks' flush sequence numbers from 0); files of a component merged into a wider
     * one (deleted lazily) are left out, as Hyracks' own recovery leaves them out.
     */
    private static List<String> componentFiles(Path dir) throws IOException {
        List<long[]> ranges = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir.resolve(HyracksTree.INDEX_DIR))) {
            for (Path f : files.toList()) {
                Matcher m = COMPONENT_FILE.matcher(f.getFileName().toString());
                if (m.matches()) {
                    ranges.add(new long[] {Long.parseLong(m.group(1)) + 1, Long.parseLong(m.group(2)) + 1});
                }
            }
        }
        List<long[]> live = ranges.stream().filter(r -> ranges.stream().noneMatch(o -> o != r && o[0] <= r[0]
                && r[1] <= o[1])).sorted((a, b) -> Long.compare(a[0], b[0])).toList();
        return live.stream().map(r -> r[0] + "-" + r[1]).toList();
    }

    /** The simulator's components, oldest first, as flush ranges. */
    private static List<String> ranges(TreeView view) {
        List<String> out = new ArrayList<>();
        for (SortedRun run : view.level0Runs()) {
            SSTableInfo t = run.first();
            out.add(0, t.minFlushIndex() + "-" + t.maxFlushIndex());
        }
        return out;
    }

    private static FlushSizes sizes(List<Long> sizes) {
        Iterator<Long> it = sizes.iterator();
        return new FlushSizes() {
            private long left = sizes.size();

            @Override
            public long next() {
                left--;
                return it.next();
            }

            @Override
            public long remaining() {
                return left;
            }

            @Override
            public String describe() {
                return "the trace's " + sizes.size() + " flush sizes";
            }
        };
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
