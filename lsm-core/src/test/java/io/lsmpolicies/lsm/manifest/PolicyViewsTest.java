package io.lsmpolicies.lsm.manifest;

import static io.lsmpolicies.lsm.manifest.Tables.flushes;

import static io.lsmpolicies.lsm.manifest.Tables.merge;
import static io.lsmpolicies.lsm.manifest.Tables.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The manifest's component set seen through the policies' SPI. */
class PolicyViewsTest {


    @Test
    void levelZeroIsOneRunPerTableNewestFirstWithFileNumbersAsIds() {
        ComponentSet set = flushes(4).apply(merge(5, 3, 4));
        TreeView view = PolicyViews.of(set, Set.of(1L));
        assertThat(view.level0Runs()).extracting(r -> r.first().id()).containsExactly(5L, 2L, 1L);
        SSTableInfo one = view.level0Runs().get(2).first();
        assertThat(one.compacting()).isTrue();
        assertThat(view.level0Runs().get(0).first().compacting()).isFalse();
        TableRecord record = set.table(1).orElseThrow();
        assertThat(one.bytes()).as("policies decide on data bytes").isEqualTo(record.dataBytes());
        assertThat(one.entries()).isEqualTo(record.entries());
        assertThat(one.minFlushIndex()).isEqualTo(record.minFlushIndex());
        assertThat(one.oldestTombstoneMillis()).isEqualTo(record.oldestTombstoneMillis());
        assertThat(PolicyViews.of(ComponentSet.empty(), Set.of()).level0Runs()).isEmpty();
    }

    @Test
    void deeperLevelsAreOneSortedRun() {
        ComponentSet set = ComponentSet.empty().apply(ManifestEdit.builder().addTable(table(7, 1, "m", "p"))
                .addTable(table(8, 1, "a", "f")).addTable(table(9, 2, "b", "c")).nextFileNumber(10).build());
        TreeView view = PolicyViews.of(set, Set.of(), t -> 42);
        assertThat(view.levels()).hasSize(3);
        List<SortedRun> level1 = view.levels().get(1).runs();
        assertThat(level1).hasSize(1);
        assertThat(level1.get(0).tables()).extracting(SSTableInfo::id).containsExactly(8L, 7L);
        assertThat(level1.get(0).tables().get(0).lastAccessMillis()).isEqualTo(42);
        ComponentSet overlapping = ComponentSet.empty().apply(ManifestEdit.builder().addTable(table(7, 1, "a", "m"))
                .addTable(table(8, 1, "k", "p")).nextFileNumber(10).build());
        assertThatThrownBy(() -> PolicyViews.of(overlapping, Set.of())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("level 1 is not one sorted run").hasMessageContaining("SSTable 8");
    }

    @Test
    void aPolicyDecidesOnTheManifestsView() {
        MergePolicy constant = MergePolicies.parse("constant:k=3");
        TreeView view = PolicyViews.of(flushes(4), Set.of());
        PolicyState state = constant.onFlush(constant.initialState(), view);
        Decision d = constant.decide(view, state);
        assertThat(d.jobs()).hasSize(1);
        assertThat(d.jobs().get(0).inputs()).extracting(SSTableInfo::id).containsExactly(4L, 3L, 2L, 1L);
        assertThat(constant.isMergeLagging(view, state)).isTrue();
    }
}
