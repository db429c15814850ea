package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.events.EventListener;
import io.lsmpolicies.lsm.events.StoreEvent;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.TreeView;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine tells the policy the reads served between flushes (point reads and scans, each once), in both merge
 * orders; a read-aware policy then merges as the cost model says: a store that is read merges, one that is not
 * keeps its flushes apart.
 */
class EngineReadCountsTest {
    @TempDir
    Path tmp;

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
    }

    private static StoreOptions options(MergePolicy policy, MergeOrder order) {
        return StoreOptions.builder().memtableBytes(8 * 1024).walMode(SyncMode.ASYNC).policy(policy)
                .mergeOrder(order).build();
    }

    /** Loads ten MemTables' worth; with {@code readsPerFlush} > 0, that many gets and one scan after each flush. */
    private static StoreMetrics load(LsmStore store, int readsPerFlush) throws Exception {
        int perMemTable = 30; // under the 8 KiB budget (205 bytes each): only the explicit flush flushes
        for (int f = 0; f < 10; f++) {
            for (int i = 0; i < perMemTable; i++) {
                store.put(key(f * perMemTable + i), new byte[100]);
            }
            store.flush();
            for (int r = 0; r < readsPerFlush; r++) {
                store.get(key(r % ((f + 1) * perMemTable)));
            }
            if (readsPerFlush > 0) {
                store.scan(null, null).close();
            }
        }
        store.flush();
        store.awaitMerges();
        return store.metrics();
    }

    /** A policy that merges nothing and records the read counts it is told. */
    private static final class Counting implements MergePolicy {
        final MergePolicy inner = MergePolicies.parse("constant:k=1000");
        final List<Long> told = Collections.synchronizedList(new ArrayList<>());

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public io.lsmpolicies.merge.spi.PolicyParameters parameters() {
            return inner.parameters();
        }

        @Override
        public PolicyState initialState() {
            return inner.initialState();
        }

        @Override
        public PolicyState decodeState(byte[] encoded) {
            return inner.decodeState(encoded);
        }

        @Override
        public PolicyState onFlush(PolicyState state, TreeView view, long reads) {
            told.add(reads);
            return state;
        }

        @Override
        public io.lsmpolicies.merge.spi.Decision decide(TreeView view, PolicyState state) {
            return inner.decide(view, state);
        }
    }

    @Test
    void eachFlushTellsThePolicyTheReadsSinceThePreviousOneInBothMergeOrders() throws Exception {
        for (MergeOrder order : MergeOrder.values()) {
            Counting policy = new Counting();
            try (LsmStore store = LsmStore.open(tmp.resolve(order.name()), options(policy, order))) {
                load(store, 7);
            }
            // the first flush saw no read yet; each later one the 7 gets and 1 scan after the previous flush
            assertThat(policy.told).as("%s", order).hasSizeGreaterThanOrEqualTo(10);
            assertThat(policy.told.get(0)).as("%s", order).isZero();
            assertThat(policy.told.subList(1, 10)).as("%s", order).containsOnly(8L);
        }
    }

    @Test
    void aReadStoreMergesWhereAnUnreadOneKeepsItsFlushesApart() throws Exception {
        MergePolicy adaptive = MergePolicies.parse("adaptive");
        StoreMetrics unread;
        StoreMetrics read;
        List<StoreEvent> merges = Collections.synchronizedList(new ArrayList<>());
        try (LsmStore store = LsmStore.open(tmp.resolve("unread"), options(adaptive, MergeOrder.FLUSH_THEN_MERGE))) {
            unread = load(store, 0);
        }
        try (LsmStore store = LsmStore.open(tmp.resolve("read"), options(adaptive, MergeOrder.FLUSH_THEN_MERGE))) {
            EventListener l = e -> {
                if (e instanceof StoreEvent.Merge) {
                    merges.add(e);
                }
            };
            store.addEventListener(l);
            read = load(store, 2000);
        }
        assertThat(unread.merges().count()).as("no reads: no rent, no merge").isZero();
        assertThat(unread.tables().components()).isGreaterThanOrEqualTo(10);
        assertThat(read.merges().count()).as("reads make the extra tables' rent reach the merge's cost").isPositive();
        assertThat(read.tables().components()).isLessThan(unread.tables().components());
        assertThat(merges).isNotEmpty();
    }

    @Test
    void aReadOnlyPhaseMakesAdaptiveMergeWithoutAFlush() throws Exception {
        try (LsmStore store = LsmStore.open(tmp.resolve("c"), options(MergePolicies.parse("adaptive"),
                MergeOrder.FLUSH_THEN_MERGE))) {
            StoreMetrics loaded = load(store, 0);
            assertThat(loaded.merges().count()).isZero();
            assertThat(loaded.tables().components()).isGreaterThanOrEqualTo(10);
            // Workload C: reads only, so no flush would ever tell the policy of them.
            for (int r = 0; r < 3 * StoreStatistics.READS_PER_QUESTION; r++) {
                store.get(key(r % 300));
            }
            store.awaitMerges();
            StoreMetrics after = store.metrics();
            assertThat(after.flushes().count()).as("no flush in the read-only phase").isEqualTo(loaded.flushes().count());
            assertThat(after.merges().count()).as("the reads reached the policy between flushes").isPositive();
            assertThat(after.tables().components()).isLessThan(loaded.tables().components());
        }
    }

    @Test
    void aPolicyThatIgnoresReadsBetweenFlushesIsToldThemAllAtTheNextFlush() throws Exception {
        Counting policy = new Counting();
        try (LsmStore store = LsmStore.open(tmp.resolve("ignoring"), options(policy, MergeOrder.FLUSH_THEN_MERGE))) {
            store.put(key(1), new byte[10]);
            store.flush();
            long reads = 3 * StoreStatistics.READS_PER_QUESTION + 5;
            for (int r = 0; r < reads; r++) {
                store.get(key(1));
            }
            store.awaitMerges();
            store.put(key(2), new byte[10]);
            store.flush();
            assertThat(policy.told).containsExactly(0L, reads);
        }
    }
}
