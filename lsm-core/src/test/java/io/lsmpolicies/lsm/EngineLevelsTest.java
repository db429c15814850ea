package io.lsmpolicies.lsm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's support for key-partitioned levels, driven by small in-test policies (the leveled policies
 * themselves are tested in merge-policies on literal views): partial merges of a level's table with the
 * overlapping tables of the next level, trivial moves, output cuts by size, at grandparent boundaries and at
 * a cursor, reads that find one table per level, and the refusal of a job that would break a level's order.
 */
class EngineLevelsTest {
    @TempDir
    Path dir;

    private static final PolicyState NO_STATE = () -> new byte[] {0};

    /**
     * A minimal leveled policy: level 0 merges into level 1 once it holds two tables (with every overlapping
     * level-1 table); a level-1 table moves (trivially, if nothing in level 2 overlaps it) or merges into
     * level 2 once level 1 holds more than {@code l1Tables} tables, taking the smallest-keyed free table.
     */
    /** A test policy with a name and no state: only {@code decide} differs. */
    private abstract static class Stateless implements MergePolicy {
        private final String name;

        Stateless(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public PolicyParameters parameters() {
            return new PolicyParameters(name, Map.of());
        }

        @Override
        public PolicyState initialState() {
            return NO_STATE;
        }

        @Override
        public PolicyState decodeState(byte[] encoded) {
            return NO_STATE;
        }
    }

    private static final class TwoLevels extends Stateless {
        private final int l1Tables;
        private final Function<TreeView, OutputCut> cut;

        TwoLevels(int l1Tables, Function<TreeView, OutputCut> cut) {
            super("test-two-levels");
            this.l1Tables = l1Tables;
            this.cut = cut;
        }

        @Override
        public Decision decide(TreeView view, PolicyState state) {
            if (view.anyCompacting()) {
                return Decision.none(state);
            }
            List<SSTableInfo> l0 = tables(view, 0);
            if (l0.size() >= 2) {
                List<SSTableInfo> inputs = new ArrayList<>(l0);
                inputs.addAll(overlapping(tables(view, 1), l0));
                return Decision.of(new MergeJob(inputs, 1, cut.apply(view), MergeKind.REAL, "L0 full"), state);
            }
            List<SSTableInfo> l1 = tables(view, 1);
            if (l1.size() > l1Tables) {
                SSTableInfo pick = l1.get(0);
                List<SSTableInfo> below = overlapping(tables(view, 2), List.of(pick));
                if (below.isEmpty()) {
                    return Decision.of(new MergeJob(List.of(pick), 2, OutputCut.SINGLE_FILE, MergeKind.TRIVIAL_MOVE,
                            "no overlap below"), state);
                }
                List<SSTableInfo> inputs = new ArrayList<>(List.of(pick));
                inputs.addAll(below);
                return Decision.of(new MergeJob(inputs, 2, cut.apply(view), MergeKind.REAL, "L1 full"), state);
            }
            return Decision.none(state);
        }

        static List<SSTableInfo> tables(TreeView view, int level) {
            if (level >= view.levels().size()) {
                return List.of();
            }
            List<SSTableInfo> out = new ArrayList<>();
            for (SortedRun run : view.levels().get(level).runs()) {
                out.addAll(run.tables());
            }
            return out;
        }

        /** The tables of {@code level} overlapping the union key range of {@code with} (what the output spans). */
        static List<SSTableInfo> overlapping(List<SSTableInfo> level, List<SSTableInfo> with) {
            Key min = with.stream().map(SSTableInfo::minKey).min(Key::compareTo).orElseThrow();
            Key max = with.stream().map(SSTableInfo::maxKey).max(Key::compareTo).orElseThrow();
            List<SSTableInfo> out = new ArrayList<>();
            for (SSTableInfo t : level) {
                if (t.minKey().compareTo(max) <= 0 && min.compareTo(t.maxKey()) <= 0) {
                    out.add(t);
                }
            }
            return out;
        }
    }

    private static byte[] key(int i) {
        return String.format("key%08d", i).getBytes(UTF_8);
    }

    private StoreOptions options(MergePolicy policy) {
        return StoreOptions.builder().memtableBytes(16 * 1024).walMode(SyncMode.OFF).policy(policy)
                .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build()).maxKeyBytes(64).build();
    }

    /** Random puts and deletes of a small key space, checked against a map; level invariants after each flush. */
    private TreeMap<Integer, byte[]> load(LsmStore store, long seed, int ops) throws IOException {
        Random random = new Random(seed);
        TreeMap<Integer, byte[]> oracle = new TreeMap<>();
        for (int i = 0; i < ops; i++) {
            int k = random.nextInt(4000);
            if (random.nextInt(10) == 0) {
                store.delete(key(k));
                oracle.remove(k);
            } else {
                byte[] v = new byte[random.nextInt(120)];
                random.nextBytes(v);
                store.put(key(k), v);
                oracle.put(k, v);
            }
            if (i % 2000 == 1999) {
                store.flush();
                store.awaitMerges();
                assertLevelsSorted(store);
            }
        }
        store.flush();
        store.awaitMerges();
        assertLevelsSorted(store);
        return oracle;
    }

    private static void assertLevelsSorted(LsmStore store) {
        List<List<TableRecord>> levels = store.components().levels();
        for (int level = 1; level < levels.size(); level++) {
            List<TableRecord> tables = levels.get(level);
            for (int i = 1; i < tables.size(); i++) {
                assertThat(Arrays.compareUnsigned(tables.get(i - 1).maxKey(), tables.get(i).minKey()))
                        .as("level %d: table %d ends before table %d starts", level, tables.get(i - 1).fileNumber(),
                                tables.get(i).fileNumber()).isNegative();
            }
        }
    }

    private static void assertMatches(LsmStore store, TreeMap<Integer, byte[]> oracle) throws IOException {
        for (int k = 0; k < 4000; k++) {
            byte[] expected = oracle.get(k);
            assertThat(store.get(key(k))).as("key %d", k).isEqualTo(expected);
        }
        List<Integer> scanned = new ArrayList<>();
        try (StoreIterator it = store.scan(null, null)) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                int k = Integer.parseInt(new String(kv.key(), UTF_8).substring(3));
                assertThat(kv.value()).isEqualTo(oracle.get(k));
                scanned.add(k);
            }
        }
        assertThat(scanned).containsExactlyElementsOf(oracle.keySet());
    }

    @Test
    void partialMergesAndTrivialMovesKeepEveryLevelSortedAndReadsExact() throws IOException {
        MergePolicy policy = new TwoLevels(3, v -> new OutputCut.ByTargetSize(8 * 1024));
        TreeMap<Integer, byte[]> oracle;
        try (LsmStore store = LsmStore.open(dir, options(policy))) {
            oracle = load(store, 11, 40_000);
            assertThat(store.components().level(2)).as("level 2 reached").isNotEmpty();
            assertThat(store.components().level(1).size()).isLessThanOrEqualTo(3);
            assertMatches(store, oracle);
            assertThat(store.metrics().reads().tablesProbedPerGet()).as("at most one table per level is probed")
                    .isLessThanOrEqualTo(3.0);
        }
        try (LsmStore store = LsmStore.open(dir, options(policy))) {
            assertMatches(store, oracle);
        }
        assertThat(StoreVerifier.verify(dir).ok()).isTrue();
    }

    @Test
    void aTrivialMoveRewritesNothing() throws IOException {
        MergePolicy policy = new TwoLevels(0, v -> OutputCut.SINGLE_FILE);
        try (LsmStore store = LsmStore.open(dir, options(policy))) {
            for (int i = 0; i < 200; i++) {
                store.put(key(i), new byte[50]);
            }
            store.flush();
            for (int i = 1000; i < 1200; i++) {
                store.put(key(i), new byte[50]);
            }
            store.flush();
            store.awaitMerges();
            // Each batch spans two MemTables: two level-0 tables merge into one level-1 table, which then
            // moves to level 2 untouched (the two batches' key ranges are disjoint).
            assertThat(store.components().level(0)).isEmpty();
            assertThat(store.components().level(1)).isEmpty();
            List<TableRecord> l2 = store.components().level(2);
            assertThat(l2).hasSize(2);
            long mergeBytes = store.ioStats().bytesWritten(io.lsmpolicies.lsm.io.IoCause.MERGE);
            assertThat(mergeBytes).as("only the level-0 merges wrote")
                    .isEqualTo(l2.get(0).fileBytes() + l2.get(1).fileBytes());
            assertThat(store.metrics().merges().count()).as("trivial moves are not merges").isEqualTo(2);
            assertThat(store.get(key(1100))).hasSize(50);
        }
    }

    @Test
    void outputsAreCutBySizeAtGrandparentBoundariesAndAtTheCursor() throws IOException {
        // By size: many level-1 tables of about the target.
        try (LsmStore store = LsmStore.open(dir.resolve("size"),
                options(new TwoLevels(1000, v -> new OutputCut.ByTargetSize(4096))))) {
            load(store, 5, 6000);
            List<TableRecord> l1 = store.components().level(1);
            assertThat(l1.size()).isGreaterThan(5);
            for (TableRecord t : l1.subList(0, l1.size() - 1)) {
                // The target bounds the leaves; index, filter, metadata pages and the trailer come on top.
                assertThat(t.fileBytes()).isBetween(4096L, 4096L + 6 * 1024);
            }
        }
        // At the cursor: the single output is cut exactly where the cursor key starts.
        byte[] cursor = key(2000);
        try (LsmStore store = LsmStore.open(dir.resolve("cursor"),
                options(new TwoLevels(1000, v -> new OutputCut.AtCursor(1L << 40, Key.of(cursor)))))) {
            for (int i = 0; i < 4000; i += 2) {
                store.put(key(i), new byte[10]);
            }
            store.flush();
            for (int i = 1; i < 4000; i += 2) {
                store.put(key(i), new byte[10]);
            }
            store.flush();
            store.awaitMerges();
            List<TableRecord> l1 = store.components().level(1);
            assertThat(l1).as("a table starts at the cursor").anyMatch(t -> Arrays.equals(t.minKey(), cursor));
            assertThat(l1).as("no table spans the cursor").noneMatch(t -> Arrays.compareUnsigned(t.minKey(), cursor) < 0
                    && Arrays.compareUnsigned(t.maxKey(), cursor) >= 0);
        }
    }

    @Test
    void aJobThatWouldOverlapTablesOfItsLevelIsRefusedAndStopsWrites() throws IOException {
        // A policy that merges level 0 into level 1 but forgets the overlapping level-1 tables.
        MergePolicy forgetful = new Stateless("forgetful") {
            @Override
            public Decision decide(TreeView view, PolicyState state) {
                List<SSTableInfo> l0 = TwoLevels.tables(view, 0);
                if (view.anyCompacting() || l0.isEmpty()) {
                    return Decision.none(state);
                }
                return Decision.of(new MergeJob(l0, 1, OutputCut.SINGLE_FILE, MergeKind.REAL, "forgetful"), state);
            }
        };
        try (LsmStore store = LsmStore.open(dir, options(forgetful))) {
            store.put(key(1), new byte[1]);
            store.put(key(9), new byte[1]);
            store.flush();
            store.awaitMerges();
            assertThat(store.components().level(1)).hasSize(1);
            store.put(key(5), new byte[1]);
            // The refused job fails in the background, possibly before flush() returns: then flush() reports the
            // failure itself (it waits for its flush, and the failure stops flushing), otherwise awaitMerges does.
            assertThatThrownBy(() -> {
                store.flush();
                store.awaitMerges();
            }).isInstanceOf(IOException.class).hasStackTraceContaining("overlapping in level 1");
            assertThatThrownBy(() -> store.put(key(6), new byte[1])).as("writes stop")
                    .isInstanceOf(IOException.class).hasStackTraceContaining("overlapping in level 1");
            assertThat(store.get(key(5))).as("reads go on").hasSize(1);
            assertThat(store.get(key(9))).hasSize(1);
        }
    }
}
