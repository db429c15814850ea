package io.lsmpolicies.merge.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SPI's records validate what they are built from and state their orderings. */
class SpiRecordsTest {

    @Test
    void keysCompareAsUnsignedBytes() {
        Key low = Key.of(new byte[] {0x01});
        Key high = Key.of(new byte[] {(byte) 0xff});
        assertThat(low).isLessThan(high);
        assertThat(Key.EMPTY).isLessThan(low);
        assertThat(Key.of("ab")).isLessThan(Key.of("abc")).isEqualTo(Key.of("ab"));
        assertThat(high.toString()).isEqualTo("0xff");
        assertThat(Key.of("user1").toString()).isEqualTo("user1");
        byte[] bytes = {1, 2};
        Key copy = Key.of(bytes);
        bytes[0] = 9;
        assertThat(copy.toByteArray()).containsExactly(1, 2);
    }

    @Test
    void sstableInfoRejectsInconsistentMetadataNamingTheTable() {
        assertThatThrownBy(() -> SSTableInfo.builder(7).bytes(-1).build()).hasMessageContaining("SSTable 7")
                .hasMessageContaining("bytes must be >= 0");
        assertThatThrownBy(() -> SSTableInfo.builder(7).entries(2).tombstones(3).build())
                .hasMessageContaining("tombstones must be in [0, entries]");
        assertThatThrownBy(() -> SSTableInfo.builder(7).keys("b", "a").build())
                .hasMessageContaining("minKey b is greater than maxKey a");
        assertThatThrownBy(() -> SSTableInfo.builder(7).flushes(5, 4).build())
                .hasMessageContaining("minFlushIndex must be <= maxFlushIndex");
        assertThatThrownBy(() -> SSTableInfo.builder(7).flush(0).build()).hasMessageContaining(">= 1");
        assertThatThrownBy(() -> SSTableInfo.builder(7).sequences(9, 1).build())
                .hasMessageContaining("minSequence must be <= maxSequence");
        SSTableInfo t = SSTableInfo.builder(3).flushes(4, 9).createdMillis(100).build();
        assertThat(t.flushSpan()).isEqualTo(6);
        assertThat(t.lastAccessMillis()).isEqualTo(100);
        assertThat(t.oldestTombstoneMillis()).isEqualTo(SSTableInfo.NO_TOMBSTONE);
        assertThat(t.withCompacting(true).compacting()).isTrue();
    }

    @Test
    void sortedRunsHoldDisjointAscendingKeyRanges() {
        SSTableInfo a = SSTableInfo.builder(1).keys("a", "c").build();
        SSTableInfo b = SSTableInfo.builder(2).keys("d", "f").build();
        SSTableInfo overlapping = SSTableInfo.builder(3).keys("c", "e").build();
        assertThat(new SortedRun(List.of(a, b)).first()).isEqualTo(a);
        assertThatThrownBy(() -> new SortedRun(List.of(a, overlapping)))
                .hasMessageContaining("SSTable 3 (from c) does not start after SSTable 1 (to c)");
        assertThatThrownBy(() -> new SortedRun(List.of(b, a))).hasMessageContaining("does not start after");
        assertThatThrownBy(() -> new SortedRun(List.of())).hasMessageContaining("at least one");
    }

    @Test
    void treeViewLevelsAreNumberedByPosition() {
        LevelView l1 = new LevelView(1, List.of());
        assertThatThrownBy(() -> new TreeView(List.of(l1))).hasMessageContaining("index 0 has number 1");
        assertThatThrownBy(() -> new LevelView(-1, List.of())).hasMessageContaining(">= 0");
        assertThat(new TreeView(List.of()).level0Runs()).isEmpty();
    }

    @Test
    void viewsAreImmutableCopies() {
        List<SortedRun> runs = new ArrayList<>(List.of(SortedRun.of(SSTableInfo.builder(1).build())));
        TreeView view = TreeView.stack(runs);
        runs.clear();
        assertThat(view.level0Runs()).hasSize(1);
        assertThatThrownBy(() -> view.level0Runs().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void mergeJobsNeedDistinctInputsAndAReason() {
        SSTableInfo t = SSTableInfo.builder(1).build();
        assertThatThrownBy(() -> MergeJob.stackMerge(List.of(t, t), "twice")).hasMessageContaining("appears twice");
        assertThatThrownBy(() -> MergeJob.stackMerge(List.of(), "none")).hasMessageContaining("at least one input");
        assertThatThrownBy(() -> MergeJob.stackMerge(List.of(t), " ")).hasMessageContaining("reason");
        SSTableInfo u = SSTableInfo.builder(2).build();
        assertThatThrownBy(() -> new MergeJob(List.of(t, u), 1, OutputCut.SINGLE_FILE, MergeKind.TRIVIAL_MOVE, "m"))
                .hasMessageContaining("exactly one input");
        assertThatThrownBy(() -> new OutputCut.ByTargetSize(0)).hasMessageContaining("> 0");
        assertThat(MergeJob.stackMerge(List.of(SSTableInfo.builder(1).bytes(3).build(),
                SSTableInfo.builder(2).bytes(4).build()), "r").inputBytes()).isEqualTo(7);
    }

    @Test
    void persistentStackSharesStructureAndNeverChanges() {
        PersistentStack<String> empty = PersistentStack.empty();
        PersistentStack<String> ab = empty.push("a").push("b");
        PersistentStack<String> abc = ab.push("c");
        assertThat(abc).containsExactly("c", "b", "a");
        assertThat(ab).containsExactly("b", "a");
        assertThat(abc.pop()).isSameAs(ab);
        assertThat(abc.get(2)).isEqualTo("a");
        assertThat(abc).isEqualTo(List.of("c", "b", "a"));
        assertThatThrownBy(empty::pop).hasMessageContaining("empty");
        assertThatThrownBy(() -> abc.get(3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> ab.push(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> abc.add("d")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void parameterSpecsAreValidatedWhenDeclared() {
        assertThatThrownBy(() -> ParameterSpec.requiredInt("Bad_Name", 1, 2, "x")).hasMessageContaining("kebab-case");
        assertThatThrownBy(() -> ParameterSpec.optionalInt("k", 1, 2, 5, "x")).hasMessageContaining("default 5");
        assertThatThrownBy(() -> ParameterSpec.requiredInt("k", 3, 2, "x")).hasMessageContaining("min 3 > max 2");
    }
}
