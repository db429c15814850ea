package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.LevelView;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which virtual table a read materialises (delayed compaction's VSMT, Pan, Yue, Xiong, "dCompaction", JCST 2017,
 * Sect. 3.4): the first on the read's path that meets the policy's conditions, not merely the first on the path.
 * A scripted policy places a virtual table of 3 parents in level 2 and one of 2 parents over the same keys in
 * level 1, and materialises on a read only a virtual table of at least {@link #THRESHOLD} parents.
 */
class EngineVirtualReadTest {
    private static final int THRESHOLD = 3;
    private static final PolicyState NO_STATE = () -> new byte[] {0};

    @TempDir
    Path dir;

    /** Three flushes in level 0 become a virtual table in level 2; two more, one in level 1. */
    private static final class TwoVirtualLevels implements MergePolicy {
        @Override
        public String name() {
            return "test-two-virtual-levels";
        }

        @Override
        public PolicyParameters parameters() {
            return new PolicyParameters(name(), Map.of());
        }

        @Override
        public PolicyState initialState() {
            return NO_STATE;
        }

        @Override
        public PolicyState decodeState(byte[] encoded) {
            return NO_STATE;
        }

        @Override
        public Decision decide(TreeView view, PolicyState state) {
            if (view.anyCompacting()) {
                return Decision.none(state);
            }
            List<SSTableInfo> l0 = tables(view, 0);
            if (l0.size() == 3 && tables(view, 2).isEmpty()) {
                return Decision.of(new MergeJob(l0, 2, OutputCut.SINGLE_FILE, MergeKind.VIRTUAL, "deep"), state);
            }
            if (l0.size() == 2 && !tables(view, 2).isEmpty() && tables(view, 1).isEmpty()) {
                return Decision.of(new MergeJob(l0, 1, OutputCut.SINGLE_FILE, MergeKind.VIRTUAL, "shallow"), state);
            }
            return Decision.none(state);
        }

        @Override
        public Optional<MergeJob> onVirtualRead(TreeView view, PolicyState state, SSTableInfo table) {
            for (LevelView level : view.levels()) {
                for (SortedRun run : level.runs()) {
                    if (run.tables().contains(table) && table.parents() >= THRESHOLD && !table.compacting()) {
                        return Optional.of(new MergeJob(List.of(table), level.number(), OutputCut.SINGLE_FILE,
                                MergeKind.REAL, "materialise"));
                    }
                }
            }
            return Optional.empty();
        }

        private static List<SSTableInfo> tables(TreeView view, int level) {
            List<SSTableInfo> out = new ArrayList<>();
            if (level < view.levels().size()) {
                view.levels().get(level).runs().forEach(r -> out.addAll(r.tables()));
            }
            return out;
        }
    }

    private static byte[] key(int i) {
        return String.format("k%05d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static TableRecord onlyTable(LsmStore lsm, int level) {
        List<List<TableRecord>> levels = lsm.components().levels();
        assertThat(levels.size()).as("levels %s", levels).isGreaterThan(level);
        assertThat(levels.get(level)).as("level %d of %s", level, levels).hasSize(1);
        return levels.get(level).get(0);
    }

    @Test
    void aShallowVirtualTableBelowTheThresholdDoesNotHideADeeperOneAboveIt() throws IOException {
        StoreOptions options = StoreOptions.builder().memtableBytes(64 * 1024).walMode(SyncMode.OFF)
                .policy(new TwoVirtualLevels()).mergeThreads(1)
                .sstable(SSTableOptions.builder().pageSize(1024).fitPageSize(false).build())
                .blockCacheBytes(0).maxKeyBytes(16).build();
        try (LsmStore lsm = LsmStore.open(dir.resolve("s"), options)) {
            for (int flush = 0; flush < 5; flush++) {
                for (int i = 0; i < 100; i += 2) { // even keys only, the same range in every flush
                    lsm.put(key(i), new byte[] {(byte) flush});
                }
                lsm.flush();
                lsm.awaitMerges();
            }
            TableRecord shallow = onlyTable(lsm, 1);
            TableRecord deep = onlyTable(lsm, 2);
            assertThat(shallow.parents()).hasSize(2);
            assertThat(deep.parents()).hasSize(THRESHOLD);

            // An odd key lies in both tables' ranges and in neither's data: the read goes through both.
            assertThat(lsm.get(key(51))).isNull();
            lsm.awaitMerges();

            assertThat(lsm.components().table(deep.fileNumber())).as("the deeper, due one is materialised")
                    .isEmpty();
            assertThat(onlyTable(lsm, 2).isVirtual()).isFalse();
            assertThat(onlyTable(lsm, 1).fileNumber()).as("the shallow one, below the threshold, stays")
                    .isEqualTo(shallow.fileNumber());
            assertThat(lsm.get(key(50))).containsExactly(4);
        }
    }
}
