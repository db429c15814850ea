package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tombstone-density trigger of the leveled policy (Sarkar et al., PVLDB 2021, TSD) in the engine: a file it
 * marks ends in a rewrite that drops its tombstones, instead of being moved down unchanged to the last
 * level, where nothing would mark it again.
 */
class EngineTombstonePurgeTest {
    private static final String LEVELED = "l0-trigger=4,size-ratio=4,base-level-bytes=16384,target-file-bytes=4096";

    @TempDir
    Path dir;

    private static StoreOptions options(String policy) {
        return StoreOptions.builder().memtableBytes(64 * 1024).walMode(SyncMode.OFF).policy(policy).mergeThreads(1)
            .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build()).blockCacheBytes(0)
            .maxKeyBytes(16).build();
    }

    private static byte[] key(String prefix, int i) {
        return String.format("%s%06d", prefix, i).getBytes(StandardCharsets.US_ASCII);
    }

    private static long tombstones(LsmStore lsm) {
        long n = 0;
        for (List<TableRecord> level : lsm.components().levels()) {
            for (TableRecord t : level) {
            n += t.tombstones();
            }
        }
        return n;
    }

    @Test
    void aDenseFileOverlappingNothingBelowIsRewrittenAndItsTombstonesAreGone() throws IOException {
        String policy = "leveled:picker=tombstone-density," + LEVELED;
        try (LsmStore lsm = LsmStore.open(dir.resolve("s"), options(policy))) {
            for (int i = 0; i < 200; i++) {
                lsm.put(key("a", i), new byte[40]);
            }
            lsm.flush();
            lsm.awaitMerges();
            // Deletes of keys the store never held (the data they deleted is already gone): a file of tombstones
            // only, density 1, whose key range overlaps nothing.
            for (int i = 0; i < 200; i++) {
                lsm.delete(key("z", i));
            }
            lsm.flush();
            lsm.awaitMerges();
            assertThat(tombstones(lsm)).as("%s: tombstones left in %s", policy, lsm.components().levels())
                    .isZero();
            assertThat(lsm.get(key("a", 7))).hasSize(40);
            assertThat(lsm.get(key("z", 7))).isNull();
            EngineTestSupport.assertLevelInvariants(lsm, policy);
        }
    }
}
