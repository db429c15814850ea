package io.lsmpolicies.merge.hyracks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.SSTableInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.impls.NoMergePolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The view of real Hyracks components: order, sizes, flush ranges, and the way back to the components. */
class DiskComponentViewTest {
    @TempDir
    Path dir;

    @Test
    void theViewIsNewestFirstWithHyracksSizesAndOneBasedFlushRanges() throws Exception {
        try (RealLsmBTree tree = RealLsmBTree.open(dir, new NoMergePolicy(), true, 0)) {
            tree.flush(10);
            tree.flush(30);
            tree.flush(20);
            List<ILSMDiskComponent> components = tree.diskComponents();
            DiskComponentView view = DiskComponentView.of(components);

            assertThat(view.size()).isEqualTo(3);
            assertThat(view.flushes()).isEqualTo(3);
            assertThat(view.anyMerging()).isFalse();
            List<SSTableInfo> tables = view.treeView().level0Runs().stream().map(r -> r.first()).toList();
            assertThat(tables).extracting(SSTableInfo::minFlushIndex).containsExactly(3L, 2L, 1L);
            assertThat(tables).extracting(SSTableInfo::maxFlushIndex).containsExactly(3L, 2L, 1L);
            assertThat(tables).extracting(SSTableInfo::id).containsExactly(0L, 1L, 2L);
            assertThat(tables).extracting(SSTableInfo::compacting).containsOnly(false);
            for (int i = 0; i < 3; i++) {
                assertThat(tables.get(i).bytes()).isEqualTo(components.get(i).getComponentSize()).isPositive();
            }
            // 30 records take more pages than 10.
            assertThat(tables.get(1).bytes()).isGreaterThan(tables.get(2).bytes());

            assertThat(view.inputsOf(MergeJob.stackMerge(tables.subList(1, 3), "two oldest"), "test"))
                    .containsExactly(components.get(1), components.get(2));
            assertThatThrownBy(() -> view.inputsOf(MergeJob.stackMerge(List.of(tables.get(0), tables.get(2)), "gap"),
                    "test")).isInstanceOf(IllegalStateException.class).hasMessageContaining("not contiguous");
            assertThatThrownBy(() -> view.inputsOf(MergeJob.stackMerge(List.of(tables.get(1), tables.get(0)),
                    "oldest first"), "test")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("policy 'test'");

            List<ILSMDiskComponent> oldestFirst = new ArrayList<>(components);
            Collections.reverse(oldestFirst);
            assertThatThrownBy(() -> DiskComponentView.of(oldestFirst)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not newest first");
        }
    }

    @Test
    void aMergedComponentSpansItsInputsFlushesAndTheCountSurvivesIt() throws Exception {
        try (RealLsmBTree tree = RealLsmBTree.open(dir, new NoMergePolicy(), true, 0)) {
            for (int t = 1; t <= 4; t++) {
                tree.flush(10);
            }
            tree.mergeAll();
            DiskComponentView view = DiskComponentView.of(tree.diskComponents());
            SSTableInfo only = view.treeView().level0Runs().get(0).first();
            assertThat(view.size()).isEqualTo(1);
            assertThat(only.minFlushIndex()).isEqualTo(1);
            assertThat(only.maxFlushIndex()).isEqualTo(4);
            assertThat(view.flushes()).isEqualTo(4);
        }
    }

    @Test
    void anEmptyIndexHasSeenNoFlush() {
        DiskComponentView view = DiskComponentView.of(List.of());
        assertThat(view.flushes()).isZero();
        assertThat(view.treeView().level0Runs()).isEmpty();
    }

    @Test
    void sequencesAreReadFromHyracksFileNamesAndBadNamesAreNamed() {
        assertThat(ComponentSequence.parse("3_7_b")).isEqualTo(new ComponentSequence(3, 7));
        assertThat(ComponentSequence.parse("12_12_f").firstFlush()).isEqualTo(13);
        assertThatThrownBy(() -> ComponentSequence.parse("index_b")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'index_b'");
        assertThatThrownBy(() -> ComponentSequence.parse("7_3_b")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'7_3_b'");
    }
}
