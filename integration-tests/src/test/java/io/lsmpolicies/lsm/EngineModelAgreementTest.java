package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.SortedRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Model agreement: for each stack policy, the SSTables the engine holds after every flush and the merges it
 * triggers are the simulator's stack when the simulator is fed the engine's own flush sizes, in both merge
 * orders.
 *
 * <p>The workload makes the comparison exact: unique keys (a merge drops nothing), flush t holds a seeded random
 * number of entries and is forced with {@code flush()}, then {@code awaitMerges()} lets the policy settle as the
 * simulator does after each flush; one merge thread; a reopen every {@value #REOPEN_EVERY} flushes (the schedule
 * continues from the policy state in the manifest). Policies see an SSTable's size as its data bytes (key and
 * value bytes, {@link TableRecord#dataBytes()}), which add up exactly under a merge of distinct keys, as the
 * model's sizes do; so the simulator is fed each flush's data bytes, and both sides are compared as lists, newest
 * first, of (data bytes, first flush, last flush): the flush ranges are the schedule, the sizes check that
 * nothing was lost or duplicated. (File sizes would not add up: each file has its own index, filter, metadata
 * and partly filled last page, and size-based policies such as Bigtable then part from the simulator within a
 * few dozen flushes.)
 */
class EngineModelAgreementTest {
    private static final int FLUSHES = 60;
    /** A reopen after every this many flushes: the schedule must continue from the manifest's policy state. */
    private static final int REOPEN_EVERY = 7;
    private static final long SEED = Long.getLong("lsm.test.seed", 0x5EED_0004L);
    private static final int VALUE_BYTES = 100;

    @TempDir
    Path dir;

    /** One SSTable as both sides see it. */
    private record Table(long size, long minFlush, long maxFlush) {
        @Override
        public String toString() {
            return size + "@" + (minFlush == maxFlush ? Long.toString(minFlush) : minFlush + "-" + maxFlush);
        }
    }

    static Stream<Arguments> cases() {
        return EngineTestSupport.stackPolicySpecs().stream()
                .flatMap(spec -> Stream.of(MergeOrder.values()).map(order -> Arguments.of(spec, order)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void theEngineRunsTheSimulatorsSchedule(String spec, MergeOrder order) throws IOException {
        long[] entries = flushSizes(new Random(SEED ^ spec.hashCode()));
        long[] dataBytes = LongStream.of(entries).map(n -> n * (key(0).length + VALUE_BYTES)).toArray();
        List<List<Table>> engine = runEngine(MergePolicies.parse(spec), order, entries);
        List<List<Table>> simulated = simulate(MergePolicies.parse(spec), dataBytes);
        for (int t = 1; t <= FLUSHES; t++) {
            assertThat(engine.get(t - 1)).as("%s, %s, seed %d: SSTables (data bytes@flushes, newest first) after "
                    + "flush %d", spec, order, SEED, t).containsExactlyElementsOf(simulated.get(t - 1));
        }
        boolean merged = engine.stream().flatMap(List::stream).anyMatch(x -> x.maxFlush() > x.minFlush());
        assertThat(merged).as("%s merged at least once", spec).isEqualTo(!spec.equals("no-merge"));
    }

    /** Entries per flush: 50 to 400, so that sizes vary and size-based policies have choices to make. */
    private static long[] flushSizes(Random random) {
        return LongStream.range(0, FLUSHES).map(i -> 50 + random.nextInt(351)).toArray();
    }

    /** Distinct keys of one length in scattered order (multiplication by an odd constant is a bijection). */
    private static byte[] key(long n) {
        return String.format("k%016x", n * 0x9E3779B97F4A7C15L).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Runs the engine: flush t holds {@code sizes[t-1]} new keys, forced by {@code flush()}; then the merges
     * settle. The MemTable budget is far above a flush, so no other flush happens. Reopens every
     * {@value #REOPEN_EVERY} flushes. Returns level 0 after every flush, newest first.
     */
    private List<List<Table>> runEngine(MergePolicy policy, MergeOrder order, long[] sizes) throws IOException {
        StoreOptions options = StoreOptions.builder().memtableBytes(8L << 20).walMode(SyncMode.OFF).policy(policy)
                .mergeOrder(order).mergeThreads(1)
                .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build()).maxKeyBytes(32).build();
        List<List<Table>> steps = new ArrayList<>();
        Path store = Files.createTempDirectory(dir, "engine");
        byte[] value = new byte[VALUE_BYTES];
        long n = 0;
        LsmStore lsm = LsmStore.open(store, options);
        try {
            int sessionStart = 0;
            for (int t = 1; t <= sizes.length; t++) {
                for (long i = 0; i < sizes[t - 1]; i++) {
                    lsm.put(key(n++), value);
                }
                lsm.flush();
                lsm.awaitMerges();
                assertThat(lsm.metrics().flushes().count()).as("flushes of this session after flush %d", t)
                        .isEqualTo(t - sessionStart);
                steps.add(lsm.components().level(0).stream()
                        .map(r -> new Table(r.dataBytes(), r.minFlushIndex(), r.maxFlushIndex())).toList());
                if (t % REOPEN_EVERY == 0) {
                    lsm.close();
                    lsm = LsmStore.open(store, options);
                    sessionStart = t;
                }
            }
        } finally {
            lsm.close();
        }
        return steps;
    }

    /** Runs the simulator on a trace file of {@code sizes}; returns its stack after every flush, newest first. */
    private List<List<Table>> simulate(MergePolicy policy, long[] sizes) throws IOException {
        Path trace = Files.createTempFile(dir, "trace", ".txt");
        Files.writeString(trace, LongStream.of(sizes).mapToObj(Long::toString).collect(Collectors.joining("\n")));
        List<List<Table>> stacks = new ArrayList<>();
        new Simulator(policy, FlushSizeSources.trace(trace), SEED).run(sizes.length, step -> stacks.add(
                step.view().level0Runs().stream().map(SortedRun::first)
                        .map(t -> new Table(t.bytes(), t.minFlushIndex(), t.maxFlushIndex())).toList()));
        return stacks;
    }
}
