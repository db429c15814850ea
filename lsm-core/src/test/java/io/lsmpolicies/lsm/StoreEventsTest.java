package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.events.EventLog;
import io.lsmpolicies.lsm.events.StoreEvent;
import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.MergePolicies;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's events: what a load writes to the event log and hands to listeners (each flush, each merge with the
 * policy's reason, the close), the steps of a recovery, the failure that stops the store; a read-only open writes
 * no log.
 */
class StoreEventsTest {
    @TempDir
    Path tmp;

    private static StoreOptions options(String policy) {
        return StoreOptions.builder().memtableBytes(8 * 1024).walMode(SyncMode.ASYNC)
                .policy(MergePolicies.parse(policy)).build();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void load(LsmStore store, int n) throws IOException {
        load(store, 0, n);
    }

    private static void load(LsmStore store, int from, int n) throws IOException {
        for (int i = from; i < from + n; i++) {
            store.put(b(String.format("key%06d", i)), new byte[100]);
        }
    }

    private static <T extends StoreEvent> List<T> of(List<StoreEvent> events, Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Test
    void aLoadLogsEachFlushAndEachMergeWithItsReasonAndListenersHearTheSame() throws Exception {
        Path dir = tmp.resolve("s");
        List<StoreEvent> heard = Collections.synchronizedList(new ArrayList<>());
        StoreMetrics metrics;
        // merges after their flush, each an event of its own
        StoreOptions flushFirst = options("constant:k=2").toBuilder().mergeOrder(MergeOrder.FLUSH_THEN_MERGE).build();
        try (LsmStore store = LsmStore.open(dir, flushFirst)) {
            store.addEventListener(heard::add);
            load(store, 3000);
            store.flush();
            store.awaitMerges();
            metrics = store.metrics();
        }
        List<StoreEvent> logged = EventLog.read(dir).events();
        assertThat(logged.get(0)).isInstanceOfSatisfying(StoreEvent.Recovery.class,
                r -> assertThat(r.detail()).startsWith("created with policy constant"));
        assertThat(logged.get(logged.size() - 1)).isInstanceOf(StoreEvent.Closed.class);
        List<StoreEvent.Flush> flushes = of(logged, StoreEvent.Flush.class);
        assertThat(flushes).hasSize((int) metrics.flushes().count());
        for (int i = 0; i < flushes.size(); i++) {
            assertThat(flushes.get(i).flush()).isEqualTo(i + 1);
            assertThat(flushes.get(i).bytes()).isPositive();
        }
        List<StoreEvent.Merge> merges = of(logged, StoreEvent.Merge.class);
        assertThat(merges).hasSize((int) metrics.merges().count()).isNotEmpty();
        assertThat(merges).allSatisfy(m -> {
            assertThat(m.reason()).endsWith("> k=2: merge all");
            assertThat(m.inputs()).hasSize(3);
            assertThat(m.outputs()).hasSize(1);
            assertThat(m.outputBytes()).isPositive();
        });
        assertThat(merges.stream().mapToLong(StoreEvent.Merge::outputBytes).sum())
                .isEqualTo(metrics.merges().outputBytes());
        assertThat(heard).isEqualTo(logged.stream().filter(e -> !(e instanceof StoreEvent.Recovery)).toList());
    }

    @Test
    void aMergingFlushLogsTheMergesItFoldsInWithTheirReasons() throws Exception {
        Path dir = tmp.resolve("m");
        StoreOptions o = options("constant:k=2").toBuilder().mergeOrder(MergeOrder.MERGE_MEMTABLE).build();
        try (LsmStore store = LsmStore.open(dir, o)) {
            load(store, 3000);
        }
        List<StoreEvent> logged = EventLog.read(dir).events();
        List<StoreEvent.Merge> merges = of(logged, StoreEvent.Merge.class);
        assertThat(merges).isNotEmpty().allSatisfy(m -> assertThat(m.reason()).endsWith("merge all"));
        assertThat(of(logged, StoreEvent.Flush.class)).anySatisfy(f -> assertThat(f.mergedIn()).hasSize(2));
    }

    /**
     * {@link MergeOrder#MERGE_MEMTABLE_SMALL} with Constant k = 1 (every flush merges the whole store): while the
     * store holds at most 8 MemTables' bytes each flush folds its MemTable into the merge, then each flush writes its
     * own table and the merge thread merges it; every record reads back.
     */
    @Test
    void smallMergesTakeTheMemTableInAndLargeOnesRunAfterTheFlush() throws Exception {
        Path dir = tmp.resolve("s");
        StoreOptions o = options("constant:k=1").toBuilder().mergeOrder(MergeOrder.MERGE_MEMTABLE_SMALL).build();
        long bound = MergeOrder.SMALL_MERGE_MEMTABLES * o.memtableBytes();
        try (LsmStore store = LsmStore.open(dir, o)) {
            load(store, 3000);
            store.flush();
            store.awaitMerges();
            for (int i = 0; i < 3000; i++) {
                assertThat(store.get(b(String.format("key%06d", i)))).as("key %d", i).hasSize(100);
            }
            assertThat(store.components().tableCount()).isEqualTo(1);
        }
        List<StoreEvent> logged = EventLog.read(dir).events();
        List<StoreEvent.Flush> flushes = of(logged, StoreEvent.Flush.class);
        List<Long> folded = flushes.stream().filter(f -> !f.mergedIn().isEmpty()).map(StoreEvent.Flush::flush)
                .toList();
        List<Long> alone = flushes.stream().filter(f -> f.mergedIn().isEmpty() && f.flush() > 1)
                .map(StoreEvent.Flush::flush).toList();
        assertThat(folded).as("flushes folded into their merge").isNotEmpty();
        assertThat(alone).as("flushes merged after them").isNotEmpty();
        assertThat(folded.get(folded.size() - 1)).as("the store only grows: small merges first")
                .isLessThan(alone.get(0));
        List<StoreEvent.Merge> merges = of(logged, StoreEvent.Merge.class);
        // each merge after a flush of its own reads the flushed table and the store of more than the bound
        List<StoreEvent.Merge> after = merges.stream().filter(m -> m.inputs().size() == 2).toList();
        assertThat(after).hasSize(alone.size()).allSatisfy(m -> assertThat(m.inputBytes()).isGreaterThan(bound));
    }

    /**
     * {@link MergeOrder#MERGE_MEMTABLE_SMALL} with Tiered, size ratio 4, and 64 flushes of about half a MemTable each,
     * one at a time: flush 16's cascade (four tables of 1 flush into one of 4, four of 4 into one of 16) reads less
     * than the bound and is folded into the flush; flush 64's last merge (four tables of 16) reads more, so the
     * flush writes its MemTable alone and the merge thread writes the whole cascade as one table of the ten it
     * replaces: no table of 16 flushes is written only to be merged again. Every record reads back.
     */
    @Test
    void aCascadeAboveTheBoundIsWrittenOnceByTheMergeThread() throws Exception {
        Path dir = tmp.resolve("c");
        StoreOptions o = StoreOptions.builder().memtableBytes(64 * 1024).walMode(SyncMode.ASYNC)
                .policy(MergePolicies.parse("tiered:size-ratio=4")).mergeOrder(MergeOrder.MERGE_MEMTABLE_SMALL)
                .build();
        long bound = MergeOrder.SMALL_MERGE_MEMTABLES * o.memtableBytes();
        int perFlush = 300;
        int flushes = 64;
        try (LsmStore store = LsmStore.open(dir, o)) {
            for (int f = 0; f < flushes; f++) {
                load(store, f * perFlush, perFlush);
                store.flush();
                store.awaitMerges();
            }
            for (int i = 0; i < flushes * perFlush; i++) {
                assertThat(store.get(b(String.format("key%06d", i)))).as("key %d", i).hasSize(100);
            }
            assertThat(store.components().tableCount()).isEqualTo(1);
        }
        List<StoreEvent> logged = EventLog.read(dir).events();
        List<StoreEvent.Flush> flushed = of(logged, StoreEvent.Flush.class);
        assertThat(flushed).as("one flush per call, none of a full MemTable").hasSize(flushes);
        assertThat(flushed.get(15).mergedIn()).as("flush 16 folds its cascade").hasSize(6);
        assertThat(flushed.get(63).mergedIn()).as("flush 64 writes its MemTable alone").isEmpty();
        Set<Long> flushTables = flushed.stream().flatMap(f -> f.tables().stream()).collect(Collectors.toSet());
        List<StoreEvent.Merge> mergeThread = of(logged, StoreEvent.Merge.class).stream()
                .filter(m -> !flushTables.containsAll(m.outputs())).toList();
        assertThat(mergeThread).as("the merge thread's merges").singleElement().satisfies(m -> {
            assertThat(m.inputs()).hasSize(10);
            assertThat(m.inputBytes()).isGreaterThan(bound);
            assertThat(m.reason()).isEqualTo("tier 0 holds 4 SSTables; tier 1 holds 4 SSTables; tier 2 holds 4 SSTables");
        });
    }

    @Test
    void aRecoveryLogsTheReplayOfTheWritesNoTableHeld() throws Exception {
        Path dir = tmp.resolve("r");
        Path image = tmp.resolve("image");
        try (LsmStore store = LsmStore.open(dir, options("constant:k=4"))) {
            load(store, 20); // acknowledged and synced, in the log only
            Files.createDirectories(image);
            try (Stream<Path> files = Files.list(dir)) { // what a crash now would leave
                for (Path p : files.toList()) {
                    if (!p.getFileName().toString().equals(LsmStore.LOCK_FILE)) {
                        Files.copy(p, image.resolve(p.getFileName()));
                    }
                }
            }
        }
        try (LsmStore store = LsmStore.open(image, options("constant:k=4"))) {
            assertThat(store.get(b("key000019"))).isNotNull();
        }
        List<StoreEvent.Recovery> steps = of(EventLog.read(image).events(), StoreEvent.Recovery.class);
        assertThat(steps).extracting(StoreEvent.Recovery::step).containsSubsequence("opened", "log-replayed",
                "recovered");
        assertThat(steps).filteredOn(s -> s.step().equals("log-replayed")).singleElement()
                .satisfies(s -> assertThat(s.detail()).contains("20 writes no table held"));
    }

    @Test
    void theFailureThatStopsTheStoreIsLoggedOnce() throws Exception {
        Path dir = tmp.resolve("f");
        FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
        StoreOptions synced = options("constant:k=4").toBuilder().walMode(SyncMode.SYNC).build();
        try (LsmStore store = LsmStore.open(dir, synced, FileLayer.withFaults(faults))) {
            faults.failNth(FileOp.SYNC, 1, true);
            for (int i = 0; i < 3; i++) {
                try {
                    store.put(b("k" + i), b("v"));
                } catch (IOException expected) {
                    // the first fails with the injected fault, the others with the stopped store
                }
            }
            assertThat(store.writeFailure()).isPresent();
            faults.clearFailures();
        }
        List<StoreEvent.Failure> failures = of(EventLog.read(dir).events(), StoreEvent.Failure.class);
        assertThat(failures).singleElement().satisfies(f -> assertThat(f.error()).contains("injected"));
    }

    @Test
    void aReadOnlyOpenWritesNoEventLog() throws Exception {
        Path dir = tmp.resolve("ro");
        try (LsmStore store = LsmStore.open(dir, options("constant:k=4").toBuilder().eventLogBytes(0).build())) {
            load(store, 10);
        }
        assertThat(Files.exists(dir.resolve(EventLog.FILE))).isFalse();
        try (LsmStore store = LsmStore.openReadOnly(dir, options("constant:k=4"))) {
            assertThat(store.get(b("key000009"))).isNotNull();
        }
        assertThat(Files.exists(dir.resolve(EventLog.FILE))).isFalse();
    }
}
