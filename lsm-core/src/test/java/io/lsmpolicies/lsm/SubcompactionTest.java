package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Merges split by key ({@link StoreOptions#subcompactions()}): the files of one merge are one component to the
 * policy, to reads, to the verifier and after a reopen; splitting changes no schedule and no answer; and a range that
 * fails takes every file of the merge with it.
 */
class SubcompactionTest {
    private static final int KEYS = 3000;

    @TempDir
    Path tmp;

    private static StoreOptions options(String policy, int subcompactions) {
        return options(policy, subcompactions, MergeOrder.FLUSH_THEN_MERGE);
    }

    private static StoreOptions options(String policy, int subcompactions, MergeOrder order) {
        return StoreOptions.builder().memtableBytes(64 * 1024).walMode(SyncMode.OFF).policy(policy)
                .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build()).maxKeyBytes(32)
                .subcompactions(subcompactions).subcompactionBytes(32 * 1024).mergeOrder(order).build();
    }

    /** Keys in scattered order (an odd multiplier is a bijection), so every flush spans the key space. */
    private static byte[] key(long n) {
        return String.format("k%016x", n * 0x9E3779B97F4A7C15L).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Writes three rounds over the keys (values that say the round, every seventh key deleted in the last), flushing
     * as the MemTable fills, and returns what the store must hold.
     */
    private static TreeMap<String, String> load(LsmStore store) throws IOException {
        TreeMap<String, String> model = new TreeMap<>();
        Random random = new Random(7);
        for (int round = 0; round < 3; round++) {
            for (long i = 0; i < KEYS; i++) {
                String k = new String(key(i), StandardCharsets.US_ASCII);
                if (round == 2 && i % 7 == 0) {
                    store.delete(key(i));
                    model.remove(k);
                    continue;
                }
                byte[] value = new byte[20 + random.nextInt(40)];
                Arrays.fill(value, (byte) ('a' + round));
                store.put(key(i), value);
                model.put(k, new String(value, StandardCharsets.US_ASCII));
            }
        }
        store.flush();
        store.awaitMerges();
        return model;
    }

    private static void assertHolds(LsmStore store, Map<String, String> model) throws IOException {
        for (long i = 0; i < KEYS; i++) {
            String k = new String(key(i), StandardCharsets.US_ASCII);
            byte[] v = store.get(key(i));
            assertThat(v == null ? null : new String(v, StandardCharsets.US_ASCII)).as("key %s", k)
                    .isEqualTo(model.get(k));
        }
        List<String> scanned = new ArrayList<>();
        try (StoreIterator it = store.scan(null, null)) {
            while (it.hasNext()) {
                var e = it.next();
                scanned.add(new String(e.key(), StandardCharsets.US_ASCII) + "="
                        + new String(e.value(), StandardCharsets.US_ASCII));
            }
        }
        assertThat(scanned).containsExactlyElementsOf(model.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList());
    }

    /** Each component's flushes, entries and data bytes, newest first: what the policy's schedule decides. */
    private static List<String> shape(ComponentSet set) {
        return set.level0Components().stream().map(c -> c.get(0).minFlushIndex() + ".." + c.get(0).maxFlushIndex()
                + ":" + c.stream().mapToLong(TableRecord::entries).sum() + "e/"
                + c.stream().mapToLong(TableRecord::dataBytes).sum() + "b").toList();
    }

    /** With {@link MergeOrder#MERGE_MEMTABLE} the merges that take the MemTable in (on the flush thread) split too. */
    @ParameterizedTest
    @EnumSource(MergeOrder.class)
    void aLargeMergeIsWrittenAsKeyDisjointFilesOfOneComponent(MergeOrder order) throws IOException {
        Path dir = tmp.resolve("split");
        TreeMap<String, String> model;
        List<String> shape;
        try (LsmStore store = LsmStore.open(dir, options("binomial:k=3", 2, order))) {
            model = load(store);
            ComponentSet set = store.components();
            List<List<TableRecord>> split = set.level0Components().stream().filter(c -> c.size() > 1).toList();
            assertThat(split).as("components written by split merges").isNotEmpty();
            for (List<TableRecord> c : split) {
                assertThat(c).hasSize(2);
                TableRecord low = c.get(0);
                TableRecord high = c.get(1);
                assertThat(high.minFlushIndex()).isEqualTo(low.minFlushIndex());
                assertThat(high.maxFlushIndex()).isEqualTo(low.maxFlushIndex());
                assertThat(Arrays.compareUnsigned(low.maxKey(), high.minKey())).as("disjoint, ascending").isNegative();
                long bytes = low.dataBytes() + high.dataBytes();
                assertThat(Math.min(low.dataBytes(), high.dataBytes())).as("the smaller range's share of %d bytes",
                        bytes).isGreaterThan(bytes / 3);
            }
            assertThat(store.metrics().tables().components()).as("components a read may probe")
                    .isEqualTo(set.level0Components().size()).isLessThan(set.tableCount());
            assertThat(set.level0Components().size()).as("binomial k = 3 keeps at most 3 components").isLessThanOrEqualTo(3);
            assertHolds(store, model);
            shape = shape(set);
        }
        assertThat(StoreVerifier.verify(dir).problems()).isEmpty();
        try (LsmStore reopened = LsmStore.open(dir, options("binomial:k=3", 2, order))) {
            assertThat(shape(reopened.components())).isEqualTo(shape);
            assertHolds(reopened, model);
        }
    }

    @ParameterizedTest
    @EnumSource(MergeOrder.class)
    void splittingChangesNeitherTheScheduleNorTheAnswers(MergeOrder order) throws IOException {
        int split = 0;
        for (String policy : EngineTestSupport.stackPolicySpecs()) {
            List<String> shapes = new ArrayList<>();
            for (int subcompactions : new int[] {1, 3}) {
                try (LsmStore store = LsmStore.open(tmp.resolve(policy.replace(':', '-') + "-" + subcompactions),
                        options(policy, subcompactions, order))) {
                    TreeMap<String, String> model = load(store);
                    ComponentSet set = store.components(); // before the reads, which adaptive may act on
                    shapes.add(String.join(" ", shape(set)));
                    split += subcompactions > 1 && set.tableCount() > set.level0Components().size() ? 1 : 0;
                    assertHolds(store, model);
                }
            }
            assertThat(shapes.get(1)).as(policy).isEqualTo(shapes.get(0));
        }
        assertThat(split).as("policies whose stores hold a split merge's files").isGreaterThanOrEqualTo(5);
    }

    /**
     * Keys written in ascending order, so that each flush holds its own key range and no input alone tells where
     * the middle is: the cuts still divide the bytes about evenly.
     */
    @Test
    void theRangesDivideTheBytesEvenlyWhenEachFlushHoldsItsOwnKeys() throws IOException {
        for (int ranges : new int[] {2, 3}) {
            try (LsmStore store = LsmStore.open(tmp.resolve("ordered-" + ranges), options("constant:k=100", ranges))) {
                byte[] value = new byte[40];
                for (int i = 0; i < 2 * KEYS; i++) {
                    store.put(String.format("k%08d", i).getBytes(StandardCharsets.US_ASCII), value);
                }
                store.compactAll();
                List<TableRecord> files = store.components().level0Components().get(0);
                assertThat(files).hasSize(ranges);
                long total = files.stream().mapToLong(TableRecord::dataBytes).sum();
                for (TableRecord f : files) {
                    assertThat(f.dataBytes()).as("a range's share of %d bytes in %d ranges", total, ranges)
                            .isBetween(total / ranges * 3 / 4, total / ranges * 5 / 4);
                }
            }
        }
    }

    @Test
    void aSnapshotKeepsItsVersionsWhateverRangeTheyFallIn() throws IOException {
        try (LsmStore store = LsmStore.open(tmp.resolve("snap"), options("constant:k=100", 2))) {
            TreeMap<String, String> before = load(store);
            Snapshot snapshot = store.snapshot();
            for (long i = 0; i < KEYS; i += 2) {
                store.put(key(i), "after".getBytes(StandardCharsets.US_ASCII));
            }
            store.compactAll();
            assertThat(store.components().level0Components()).hasSize(1);
            assertThat(store.components().level0Components().get(0)).as("one merge, two files").hasSize(2);
            for (long i = 0; i < KEYS; i++) {
                String k = new String(key(i), StandardCharsets.US_ASCII);
                byte[] v = store.get(key(i), snapshot);
                assertThat(v == null ? null : new String(v, StandardCharsets.US_ASCII)).isEqualTo(before.get(k));
            }
            snapshot.close();
        }
    }

    /**
     * Fails the n-th write of a merge split in two, for every n until the failure no longer hits a table: while it
     * does, the range that failed and the one that did not leave no file behind. Any failure, a table's or the
     * manifest's, loses nothing.
     */
    @Test
    void aRangeThatFailsTakesEveryFileOfItsMergeWithIt() throws IOException {
        int tableFailures = 0;
        for (long nth = 1; ; nth++) {
            Path dir = tmp.resolve("fail-" + nth);
            FaultInjector faults = new FaultInjector(tmp.resolve("trash-" + nth));
            TreeMap<String, String> model;
            List<Path> tablesBefore;
            Throwable failure;
            LsmStore store = LsmStore.open(dir, options("constant:k=100", 2), FileLayer.withFaults(faults));
            try {
                model = load(store);
                tablesBefore = tables(dir);
                faults.failNth(FileOp.WRITE, nth, false);
                failure = catchThrowable(store::compactAll);
                assertThat(failure).as("write %d of the merge fails", nth).isInstanceOf(IOException.class);
            } finally {
                store.close();
            }
            boolean inTable = causes(failure).anyMatch(e -> String.valueOf(e.getMessage()).contains(".sst"));
            if (inTable) {
                tableFailures++;
                assertThat(tables(dir)).as("write %d failed in a table: the tables are those before the merge", nth)
                        .containsExactlyInAnyOrderElementsOf(tablesBefore);
            }
            try (LsmStore reopened = LsmStore.open(dir, options("constant:k=100", 2))) {
                assertHolds(reopened, model);
            }
            if (!inTable) {
                break;
            }
        }
        assertThat(tableFailures).as("writes of the merge's tables failed").isGreaterThanOrEqualTo(2);
    }

    /**
     * As above for a flush that merges its MemTable into the one large component ({@link MergeOrder#MERGE_MEMTABLE},
     * Constant with k = 1), split in two on the flush thread: while the failing write hits a table, no file of the
     * merge is left and the tables are those before; the MemTable's records are in the log, so nothing is lost.
     */
    @Test
    void aMergingFlushWhoseRangeFailsLeavesNoFileAndLosesNothing() throws IOException {
        int tableFailures = 0;
        for (long nth = 1; ; nth++) {
            Path dir = tmp.resolve("flush-fail-" + nth);
            FaultInjector faults = new FaultInjector(tmp.resolve("flush-trash-" + nth));
            StoreOptions options = options("constant:k=1", 2, MergeOrder.MERGE_MEMTABLE).toBuilder()
                    .walMode(SyncMode.ASYNC).build();
            TreeMap<String, String> model;
            List<Path> tablesBefore;
            Throwable failure;
            LsmStore store = LsmStore.open(dir, options, FileLayer.withFaults(faults));
            try {
                model = load(store);
                tablesBefore = tables(dir);
                assertThat(store.components().level0Components()).hasSize(1);
                for (long i = 0; i < KEYS; i += 10) { // under a MemTable's worth: one flush, the one below
                    store.put(key(i), "last".getBytes(StandardCharsets.US_ASCII));
                    model.put(new String(key(i), StandardCharsets.US_ASCII), "last");
                }
                faults.failNth(FileOp.WRITE, nth, false);
                failure = catchThrowable(store::flush);
            } finally {
                catchThrowable(store::close); // a failed store may report its failure again
            }
            // the injected failure itself names the file (a failed manifest append leaves the written tables to
            // the reopen: whether the edit reached the log is not known)
            boolean inTable = failure != null && causes(failure).map(e -> String.valueOf(e.getMessage()))
                    .anyMatch(m -> m.startsWith("injected failure") && m.contains(".sst"));
            if (inTable) {
                tableFailures++;
                assertThat(tables(dir)).as("write %d failed in a table: the tables are those before the flush", nth)
                        .containsExactlyInAnyOrderElementsOf(tablesBefore);
            }
            try (LsmStore reopened = LsmStore.open(dir, options)) {
                assertHolds(reopened, model);
                // the reopen flushes the replayed log, and the policy may merge after it: until that merge and the
                // deletion of what it replaced end, its output and its inputs are files beside the store's tables
                reopened.awaitMerges();
                assertThat(tables(dir)).as("after the reopen, the files are the tables of the store")
                        .hasSize(reopened.components().tableCount());
                if (failure == null) {
                    assertThat(reopened.components().level0Components()).as("the flush merged all, split in two")
                            .singleElement().satisfies(c -> assertThat(c).hasSize(2));
                }
            }
            if (failure == null) {
                break;
            }
        }
        assertThat(tableFailures).as("writes of the merging flush's tables failed").isGreaterThanOrEqualTo(2);
    }

    private static Stream<Throwable> causes(Throwable e) {
        return Stream.iterate(e, x -> x != null, Throwable::getCause)
                .flatMap(x -> Stream.concat(Stream.of(x), Stream.of(x.getSuppressed())));
    }

    private static List<Path> tables(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".sst")).sorted().toList();
        }
    }
}
