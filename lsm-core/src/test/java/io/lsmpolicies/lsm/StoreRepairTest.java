package io.lsmpolicies.lsm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.MergePolicies;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A store that lost CURRENT or its manifest: open refuses it and deletes nothing; {@link StoreRepair} rebuilds it
 * with every acknowledged write; damaged tables are set aside, not deleted.
 */
class StoreRepairTest {
    @TempDir
    Path tmp;

    private static StoreOptions options(String policy) {
        return StoreOptions.builder().memtableBytes(16 * 1024).walMode(SyncMode.SYNC)
                .policy(MergePolicies.parse(policy))
                .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build()).maxKeyBytes(64).build();
    }

    /**
     * A crash image of a store with flushed tables, finished merges and writes only in the log: random puts and
     * deletes of a small key space (so tables overlap in keys and versions), merges awaited, then a few more
     * writes that stay in the MemTable. Returns what every acknowledged write left (null: deleted).
     */
    private TreeMap<String, String> crashImage(String policy, Path image) throws IOException {
        return crashImage(options(policy), image);
    }

    private TreeMap<String, String> crashImage(StoreOptions options, Path image) throws IOException {
        Path live = tmp.resolve("live");
        TreeMap<String, String> model = new TreeMap<>();
        Random random = new Random(7);
        try (LsmStore store = LsmStore.open(live, options)) {
            for (int i = 0; i < 3000; i++) {
                write(store, model, random, i);
            }
            store.flush(); // then no flush or merge runs while the image is copied
            store.awaitMerges();
            for (int i = 3000; i < 3040; i++) { // at most 6 KB: below the MemTable's 16 KB, never flushed
                write(store, model, random, i);
            }
            EngineTestSupport.copyStore(live, image);
        }
        assertThat(EngineTestSupport.filesEndingWith(image, ".sst")).hasSizeGreaterThan(1);
        return model;
    }

    private static void write(LsmStore store, Map<String, String> model, Random random, int i) throws IOException {
        String key = String.format("key%04d", random.nextInt(600));
        if (random.nextInt(10) == 0) {
            store.delete(key.getBytes(UTF_8));
            model.put(key, null);
        } else {
            String value = "v" + i + "-" + "x".repeat(random.nextInt(40));
            store.put(key.getBytes(UTF_8), value.getBytes(UTF_8));
            model.put(key, value);
        }
    }

    private static void assertHolds(LsmStore store, TreeMap<String, String> model) throws IOException {
        for (Map.Entry<String, String> e : model.entrySet()) {
            byte[] value = store.get(e.getKey().getBytes(UTF_8));
            assertThat(value == null ? null : new String(value, UTF_8)).as(e.getKey()).isEqualTo(e.getValue());
        }
        long live = model.values().stream().filter(v -> v != null).count();
        long scanned = 0;
        try (StoreIterator it = store.scan(null, null)) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                assertThat(new String(kv.value(), UTF_8)).isEqualTo(model.get(new String(kv.key(), UTF_8)));
                scanned++;
            }
        }
        assertThat(scanned).isEqualTo(live);
    }

    @ParameterizedTest
    @ValueSource(strings = {"binomial:k=3",
            "leveled:picker=round-robin,l0-trigger=2,size-ratio=4,base-level-bytes=16384,target-file-bytes=4096"})
    void withoutCurrentOpenRefusesAndDeletesNothingThenRepairRecoversEveryWrite(String policy) throws Exception {
        Path dir = tmp.resolve("db");
        TreeMap<String, String> model = crashImage(policy, dir);
        Files.delete(dir.resolve(StoreFiles.CURRENT));
        TreeMap<String, byte[]> before = DirectoryContents.of(dir);
        String someTable = EngineTestSupport.filesEndingWith(dir, ".sst").get(0).getFileName().toString();

        assertThatThrownBy(() -> LsmStore.open(dir, options(policy)))
                .isInstanceOfSatisfying(CorruptionException.class,
                        e -> assertThat(e.code()).isEqualTo(CorruptionException.Code.MISSING_FILE))
                .hasMessageContaining(someTable).hasMessageContaining(".log").hasMessageContaining("no CURRENT")
                .hasMessageContaining("bin/lsm repair --dir " + dir);
        DirectoryContents.assertSame(before, DirectoryContents.of(dir));
        assertThat(StoreVerifier.verify(dir).problems()).singleElement().asString().contains("no CURRENT")
                .contains(someTable).contains("bin/lsm repair");

        StoreRepair.Report report = StoreRepair.repair(dir, options(policy));
        assertThat(report.damaged()).isZero();
        if (policy.startsWith("leveled")) { // levels overlap in sequence numbers: merged into one table
            assertThat(report.tables()).anyMatch(t -> t.madeFrom().size() > 1);
        }
        assertThat(report.walSegments()).isNotEmpty();
        assertThat(report.walSegments().stream().mapToLong(StoreRepair.Segment::records).sum()).isGreaterThan(0);
        // nothing deleted: every file is in the directory or set aside, byte for byte
        TreeMap<String, byte[]> after = DirectoryContents.of(dir);
        for (StoreRepair.SetAside a : report.setAside()) {
            assertThat(after.get(a.to())).as(a.file()).isEqualTo(before.get(a.file()));
        }
        before.forEach((name, bytes) -> assertThat(after.containsKey(name)
                || report.setAside().stream().anyMatch(a -> a.file().equals(name))).as(name).isTrue());
        assertThat(StoreVerifier.verify(dir).problems()).isEmpty();

        try (LsmStore store = LsmStore.open(dir, options(policy))) {
            assertHolds(store, model);
            for (int i = 0; i < 1500; i++) { // takes writes, flushes and merges again
                store.put(String.format("new%04d", i).getBytes(UTF_8), "after repair".getBytes(UTF_8));
                model.put(String.format("new%04d", i), "after repair");
            }
            store.awaitMerges();
        }
        try (LsmStore store = LsmStore.open(dir, options(policy))) {
            assertHolds(store, model);
        }
    }

    @Test
    void aDamagedTableIsSetAsideNotDeletedAndTheOthersAreKept() throws Exception {
        Path dir = tmp.resolve("db");
        crashImage("no-merge", dir);
        Path damaged = EngineTestSupport.filesEndingWith(dir, ".sst").get(0);
        EngineTestSupport.flip(damaged, 1024 + 100); // inside a leaf page
        byte[] damagedBytes = Files.readAllBytes(damaged);
        int tables = EngineTestSupport.filesEndingWith(dir, ".sst").size();

        StoreRepair.Report report = StoreRepair.repair(dir, options("no-merge"));

        assertThat(report.damaged()).isEqualTo(1);
        StoreRepair.SetAside aside = report.setAside().stream()
                .filter(a -> a.file().equals(damaged.getFileName().toString())).findFirst().orElseThrow();
        assertThat(aside.reason()).startsWith("damaged");
        assertThat(Files.readAllBytes(dir.resolve(aside.to()))).isEqualTo(damagedBytes);
        // no-merge tables have disjoint sequence ranges: the sound ones are kept as they are, plus the log's table
        assertThat(report.tables()).hasSize(tables - 1 + 1);
        assertThat(report.tables().get(0).madeFrom()).hasSize(1).allMatch(s -> s.endsWith(".log"));
        assertThat(StoreVerifier.verify(dir).problems()).isEmpty();
        try (LsmStore store = LsmStore.open(dir, options("no-merge"))) {
            store.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            assertThat(store.get("k".getBytes(UTF_8))).isEqualTo("v".getBytes(UTF_8));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aStoreWhoseManifestIsMissingOrDamagedIsRebuilt(boolean missing) throws Exception {
        Path dir = tmp.resolve("db");
        TreeMap<String, String> model = crashImage("binomial:k=3", dir);
        String manifest = Files.readString(dir.resolve(StoreFiles.CURRENT)).strip();
        if (missing) {
            Files.delete(dir.resolve(manifest));
        } else {
            EngineTestSupport.flip(dir.resolve(manifest), 30); // inside the first record (the snapshot)
        }
        assertThatThrownBy(() -> LsmStore.open(dir, options("binomial:k=3")))
                .isInstanceOf(CorruptionException.class).hasMessageContaining(manifest);

        StoreRepair.Report report = StoreRepair.repair(dir, options("binomial:k=3"));

        assertThat(report.setAside()).anyMatch(a -> a.file().equals(StoreFiles.CURRENT));
        try (LsmStore store = LsmStore.open(dir, options("binomial:k=3"))) {
            assertHolds(store, model);
        }
    }

    @Test
    void anOpenStoreIsNotRepaired() throws Exception {
        Path dir = tmp.resolve("db");
        try (LsmStore store = LsmStore.open(dir, options("no-merge"))) {
            store.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            TreeMap<String, byte[]> before = DirectoryContents.of(dir);
            assertThatThrownBy(() -> StoreRepair.repair(dir, options("no-merge"))).isInstanceOf(IOException.class)
                    .hasMessageContaining("is open");
            DirectoryContents.assertSame(before, DirectoryContents.of(dir));
        }
    }

    @Test
    void whatACrashedCreationLeavesIsStillCleanedUp() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("db"));
        try (Manifest m = Manifest.create(dir, ComponentSet.empty())) {
            assertThat(m.path().getFileName().toString()).isEqualTo("MANIFEST-000001");
        }
        Files.move(dir.resolve(StoreFiles.CURRENT), dir.resolve("CURRENT.tmp")); // the crash came before the rename

        try (LsmStore store = LsmStore.open(dir, options("no-merge"))) {
            store.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
        }
        try (LsmStore store = LsmStore.open(dir, options("no-merge"))) {
            assertThat(store.get("k".getBytes(UTF_8))).isEqualTo("v".getBytes(UTF_8));
        }
    }

    @Test
    void aFirstManifestHoldingMoreThanTheCreationSnapshotIsRefused() throws Exception {
        Path dir = tmp.resolve("db");
        try (LsmStore store = LsmStore.open(dir, options("no-merge"))) {
            store.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            store.flush();
        }
        for (Path p : EngineTestSupport.filesEndingWith(dir, "")) {
            String name = p.getFileName().toString();
            if (!name.startsWith("MANIFEST-") && !name.equals(LsmStore.LOCK_FILE)) {
                Files.delete(p); // CURRENT, the table and the log gone: only manifests are left
            }
        }
        TreeMap<String, byte[]> before = DirectoryContents.of(dir);

        assertThatThrownBy(() -> LsmStore.open(dir, options("no-merge"))).isInstanceOf(CorruptionException.class)
                .hasMessageContaining("MANIFEST-");
        DirectoryContents.assertSame(before, DirectoryContents.of(dir));
    }
}
