package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.testing.SkipStoreChecks;
import io.lsmpolicies.lsm.testing.StoreCheck;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delayed compaction (Pan et al., JCST 2017) in the engine: virtual tables are read through their
 * parents, their parents' files live as long as they do (across reopens), VCT = 0 is exactly the wrapped policy,
 * and a read that meets a virtual table of at least VSMT parents materialises it.
 */
class EngineDelayedTest {
    private static final String LEVELED = "picker=round-robin,l0-trigger=2,size-ratio=4,base-level-bytes=16384,"
            + "target-file-bytes=4096";

    @TempDir
    Path dir;

    private static StoreOptions options(String policy) {
        return StoreOptions.builder().memtableBytes(8 * 1024).walMode(SyncMode.OFF).policy(policy).mergeThreads(1)
                .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build()).blockCacheBytes(0)
                .maxKeyBytes(16).build();
    }

    private static byte[] key(int i) {
        return String.format("k%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Writes {@code operations} random puts and deletes over {@code keys} keys (seeded), flushing and waiting for
     * the merges every {@code flushEvery} operations, so the schedule is deterministic; applies them to
     * {@code oracle} too and returns it.
     */
    private static NavigableMap<byte[], byte[]> load(LsmStore lsm, NavigableMap<byte[], byte[]> oracle, long seed,
            int operations, int keys, int flushEvery) throws IOException {
        Random random = new Random(seed);
        for (int i = 0; i < operations; i++) {
            byte[] k = key(random.nextInt(keys));
            if (random.nextInt(10) == 0) {
                lsm.delete(k);
                oracle.remove(k);
            } else {
                byte[] v = new byte[20 + random.nextInt(60)];
                random.nextBytes(v);
                lsm.put(k, v);
                oracle.put(k, v);
            }
            if ((i + 1) % flushEvery == 0) {
                lsm.flush();
                lsm.awaitMerges();
            }
        }
        lsm.flush();
        lsm.awaitMerges();
        return oracle;
    }

    private static NavigableMap<byte[], byte[]> load(LsmStore lsm, long seed, int operations, int keys,
            int flushEvery) throws IOException {
        return load(lsm, new TreeMap<>(Arrays::compareUnsigned), seed, operations, keys, flushEvery);
    }

    private static List<TableRecord> virtualTables(LsmStore lsm) {
        List<TableRecord> out = new ArrayList<>();
        lsm.components().levels().forEach(l -> l.stream().filter(TableRecord::isVirtual).forEach(out::add));
        return out;
    }

    private static void assertReadsMatch(LsmStore lsm, NavigableMap<byte[], byte[]> oracle, int keys)
            throws IOException {
        for (int i = 0; i < keys; i++) {
            byte[] expected = oracle.get(key(i));
            assertThat(lsm.get(key(i))).as("key %d", i).isEqualTo(expected);
        }
        try (StoreIterator it = lsm.scan(null, null)) {
            assertThat(EngineTestSupport.drain(it)).isEqualTo(EngineTestSupport.format(oracle));
        }
        try (StoreIterator it = lsm.scan(key(keys / 3), key(2 * keys / 3))) {
            assertThat(EngineTestSupport.drain(it)).isEqualTo(EngineTestSupport.format(
                    oracle.subMap(key(keys / 3), true, key(2 * keys / 3), false)));
        }
    }

    /** Every parent of every virtual table is a file on disk, and no table file is an orphan. */
    private static void assertParentsOnDisk(LsmStore lsm) {
        ComponentSet set = lsm.components();
        for (TableRecord v : virtualTables(lsm)) {
            for (TableRecord p : v.parents()) {
                assertThat(lsm.directory().resolve(StoreFiles.tableName(p.fileNumber())))
                        .as("parent %d of virtual table %d", p.fileNumber(), v.fileNumber()).exists();
                assertThat(set.parents()).containsKey(p.fileNumber());
            }
        }
        List<Long> onDisk = EngineTestSupport.filesEndingWith(lsm.directory(), ".sst").stream()
                .map(p -> Long.parseLong(p.getFileName().toString().replace(".sst", ""))).sorted().toList();
        assertThat(onDisk).containsExactlyInAnyOrderElementsOf(set.fileNumbers());
    }

    @Test
    void readsAndScansGoThroughVirtualTablesAndTheirParentsOutliveThemAcrossReopens() throws IOException {
        String policy = "delayed:vct=30,vsmt=1000," + LEVELED; // large VSMT: nothing materialises on reads
        NavigableMap<byte[], byte[]> oracle;
        try (LsmStore lsm = LsmStore.open(dir.resolve("s"), options(policy))) {
            oracle = load(lsm, 11, 6000, 800, 100);
            assertThat(virtualTables(lsm)).as("the load leaves virtual tables").isNotEmpty();
            assertThat(lsm.metrics().merges().virtual()).isPositive();
            assertParentsOnDisk(lsm);
            assertReadsMatch(lsm, oracle, 800);
            assertThat(virtualTables(lsm)).as("reads below VSMT materialise nothing").isNotEmpty();
            EngineTestSupport.assertLevelInvariants(lsm, "after the load");
        }
        assertThat(StoreVerifier.verify(dir.resolve("s")).ok()).isTrue();
        try (LsmStore lsm = LsmStore.open(dir.resolve("s"), options(policy))) {
            assertThat(virtualTables(lsm)).isNotEmpty();
            assertParentsOnDisk(lsm);
            assertReadsMatch(lsm, oracle, 800);
            load(lsm, oracle, 12, 3000, 800, 100); // later merges take virtual tables as inputs
            assertParentsOnDisk(lsm);
            assertReadsMatch(lsm, oracle, 800);
            lsm.compactAll(); // one real merge of everything: no virtual table, no parent left
            assertThat(virtualTables(lsm)).isEmpty();
            assertThat(lsm.components().parents()).isEmpty();
            assertParentsOnDisk(lsm);
            assertReadsMatch(lsm, oracle, 800);
        }
    }

    @Test
    void vctZeroIsExactlyTheWrappedPolicy() throws IOException {
        List<String> layouts = new ArrayList<>();
        for (String policy : List.of("leveled:" + LEVELED, "delayed:vct=0," + LEVELED)) {
            try (LsmStore lsm = LsmStore.open(dir.resolve(policy.substring(0, 7)), options(policy))) {
                load(lsm, 21, 5000, 600, 100);
                assertThat(virtualTables(lsm)).isEmpty();
                StringBuilder b = new StringBuilder();
                List<List<TableRecord>> levels = lsm.components().levels();
                for (int level = 0; level < levels.size(); level++) {
                    for (TableRecord t : levels.get(level)) {
                        b.append(level).append(':').append(EngineTestSupport.hex(t.minKey())).append("..")
                                .append(EngineTestSupport.hex(t.maxKey())).append('/').append(t.entries())
                                .append('/').append(t.dataBytes()).append(' ');
                    }
                }
                layouts.add(b.toString());
                assertThat(lsm.metrics().merges().count()).isPositive();
            }
        }
        assertThat(layouts.get(1)).isEqualTo(layouts.get(0));
    }

    @Test
    void aReadThatMeetsAVirtualTableOfAtLeastVsmtParentsMaterialisesIt() throws IOException {
        NavigableMap<byte[], byte[]> oracle;
        try (LsmStore lsm = LsmStore.open(dir.resolve("m"), options("delayed:vct=30,vsmt=2," + LEVELED))) {
            // the load's own reads: none, so the virtual tables stay until a read meets them
            oracle = load(lsm, 31, 6000, 800, 100);
            List<TableRecord> virtual = virtualTables(lsm);
            TableRecord target = virtual.stream().filter(v -> v.parents().size() >= 2).findFirst().orElseThrow();
            long mergeBytesBefore = lsm.ioStats().bytesWritten(IoCause.MERGE);
            byte[] inside = target.minKey();
            assertThat(lsm.get(inside)).isEqualTo(oracle.get(inside));
            lsm.awaitMerges();
            assertThat(lsm.components().table(target.fileNumber())).as("materialised").isEmpty();
            assertThat(lsm.ioStats().bytesWritten(IoCause.MERGE)).isGreaterThan(mergeBytesBefore);
            assertReadsMatch(lsm, oracle, 800);
            assertParentsOnDisk(lsm);
            EngineTestSupport.assertLevelInvariants(lsm, "after materialising");
        }
        // VSMT above every parent count: the same read materialises nothing
        try (LsmStore lsm = LsmStore.open(dir.resolve("n"), options("delayed:vct=30,vsmt=1000," + LEVELED))) {
            load(lsm, 31, 6000, 800, 100);
            List<Long> before = virtualTables(lsm).stream().map(TableRecord::fileNumber).toList();
            for (TableRecord v : virtualTables(lsm)) {
                lsm.get(v.minKey());
            }
            lsm.awaitMerges();
            assertThat(virtualTables(lsm).stream().map(TableRecord::fileNumber).toList()).isEqualTo(before);
        }
    }

    @Test
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "deletes a virtual table's parent: what the verifier must "
            + "report")
    void theVerifierChecksParentsAndReportsAMissingOne() throws IOException {
        Path store = dir.resolve("v");
        TableRecord parent;
        try (LsmStore lsm = LsmStore.open(store, options("delayed:vct=30,vsmt=1000," + LEVELED))) {
            load(lsm, 41, 6000, 800, 100);
            parent = virtualTables(lsm).get(0).parents().get(0);
        }
        assertThat(StoreVerifier.verify(store).ok()).isTrue();
        Files.delete(store.resolve(StoreFiles.tableName(parent.fileNumber())));
        StoreVerifier.Report report = StoreVerifier.verify(store);
        assertThat(report.ok()).isFalse();
        assertThat(String.join("\n", report.problems())).contains("as a parent of a virtual table but missing");
    }
}
