package io.lsmpolicies.lsm.manifest;

import static io.lsmpolicies.lsm.manifest.Tables.flushes;

import static io.lsmpolicies.lsm.manifest.Tables.bytes;
import static io.lsmpolicies.lsm.manifest.Tables.flush;
import static io.lsmpolicies.lsm.manifest.Tables.merge;
import static io.lsmpolicies.lsm.manifest.Tables.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The component set's orderings and the rules of {@link ComponentSet#apply}. */
class ComponentSetTest {

    private static List<Long> numbers(List<TableRecord> tables) {
        List<Long> out = new ArrayList<>();
        for (TableRecord t : tables) {
            out.add(t.fileNumber());
        }
        return out;
    }


    @Test
    void flushedTablesEnterLevel0NewestFirst() {
        ComponentSet set = flushes(4);
        assertThat(numbers(set.level(0))).containsExactly(4L, 3L, 2L, 1L);
        assertThat(set.nextFileNumber()).isEqualTo(5);
        assertThat(set.lastSequence()).isEqualTo(409);
        assertThat(set.levels()).hasSize(1);
        assertThat(set.level(3)).isEmpty();
    }

    @Test
    void aMergeOutputTakesThePlaceOfTheNewestInputItReplaced() {
        ComponentSet set = flushes(5).apply(merge(6, 4, 3, 2));
        assertThat(numbers(set.level(0))).containsExactly(5L, 6L, 1L);
        set = set.apply(flush(7)).apply(merge(8, 1, 6));
        assertThat(numbers(set.level(0))).containsExactly(7L, 5L, 8L);
        assertThat(set.table(6)).isEmpty();
        assertThat(set.fileNumbers()).containsExactlyInAnyOrder(7L, 5L, 8L);
    }

    @Test
    void severalLevel0OutputsAreListedOldestFirstAndLandNewestFirstInTheInputsPlace() {
        ManifestEdit split = ManifestEdit.builder().removeFile(2).removeFile(3)
                .addTable(Tables.flushed(5)).addTable(Tables.flushed(6)).nextFileNumber(7).build();
        ComponentSet set = flushes(4).apply(split);
        assertThat(numbers(set.level(0))).containsExactly(4L, 6L, 5L, 1L);
    }

    /** Random stacks: apply agrees with a plain list model of "newest first, output in place of inputs". */
    @Test
    void randomFlushesAndContiguousMergesMatchAListModel() {
        SplittableRandom random = new SplittableRandom(42);
        ComponentSet set = ComponentSet.empty();
        List<Long> model = new ArrayList<>();
        long next = 1;
        for (int step = 0; step < 500; step++) {
            if (model.size() < 2 || random.nextInt(3) > 0) {
                set = set.apply(flush(next));
                model.add(0, next);
            } else {
                int from = random.nextInt(model.size() - 1);
                int to = from + 1 + random.nextInt(model.size() - from - 1);
                List<Long> inputs = new ArrayList<>(model.subList(from, to + 1));
                set = set.apply(merge(next, inputs.stream().mapToLong(Long::longValue).toArray()));
                model.subList(from, to + 1).clear();
                model.add(from, next);
            }
            next++;
            assertThat(numbers(set.level(0))).as("step %d", step).isEqualTo(model);
        }
    }

    @Test
    void deeperLevelsAreOrderedByMinKeyAsUnsignedBytes() {
        byte[] high = {(byte) 0x80};
        TableRecord signedLow = new TableRecord(3, 1, 1, 1, 0, high, high, 0, 0, 1, 1, 0, Long.MAX_VALUE, 1);
        ManifestEdit edit = ManifestEdit.builder().addTable(table(1, 1, "m", "p")).addTable(signedLow)
                .addTable(table(2, 1, "a", "c")).addTable(table(4, 2, "b", "b")).nextFileNumber(5).build();
        ComponentSet set = ComponentSet.empty().apply(edit);
        assertThat(numbers(set.level(1))).containsExactly(2L, 1L, 3L);
        assertThat(numbers(set.level(2))).containsExactly(4L);
        assertThat(set.level(0)).isEmpty();
        ComponentSet moved = set.apply(ManifestEdit.builder().removeFile(2).build());
        assertThat(numbers(moved.level(1))).containsExactly(1L, 3L);
    }

    @Test
    void removingAndReAddingANumberMovesTheTableAndEmptyTrailingLevelsDisappear() {
        ComponentSet set = flushes(2);
        TableRecord moved = set.table(1).orElseThrow().atLevel(3);
        ComponentSet after = set.apply(ManifestEdit.builder().removeFile(1).addTable(moved).build());
        assertThat(numbers(after.level(0))).containsExactly(2L);
        assertThat(after.level(3)).containsExactly(moved);
        assertThat(after.levels()).hasSize(4);
        ComponentSet back = after.apply(ManifestEdit.builder().removeFile(1).build());
        assertThat(back.levels()).hasSize(1);
    }

    @Test
    void applyRefusesUnknownRemovalsDuplicateAddsAndNumbersAtOrAboveNext() {
        ComponentSet set = flushes(3);
        assertThatThrownBy(() -> set.apply(ManifestEdit.builder().removeFile(2).removeFile(9).build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("removes file 9");
        assertThatThrownBy(() -> set.apply(ManifestEdit.builder().addTable(Tables.flushed(2)).build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("adds file 2")
                .hasMessageContaining("already");
        assertThatThrownBy(() -> set.apply(ManifestEdit.builder().addTable(Tables.flushed(4)).build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("adds file 4")
                .hasMessageContaining("nextFileNumber 4");
        assertThat(set).isEqualTo(flushes(3));
    }

    @Test
    void countersNeverMoveBack() {
        ComponentSet set = flushes(3).apply(ManifestEdit.builder().walNumber(7).build());
        assertThatThrownBy(() -> set.apply(ManifestEdit.builder().nextFileNumber(3).build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("nextFileNumber back from 4 to 3");
        assertThatThrownBy(() -> set.apply(ManifestEdit.builder().lastSequence(1).build()))
                .hasMessageContaining("lastSequence back");
        assertThatThrownBy(() -> set.apply(ManifestEdit.builder().walNumber(6).build()))
                .hasMessageContaining("walNumber back from 7 to 6");
        assertThat(set.apply(ManifestEdit.builder().walNumber(7).build())).isEqualTo(set);
    }

    @Test
    void theSnapshotRebuildsTheSetFromEmpty() {
        ComponentSet set = flushes(6).apply(merge(7, 5, 4)).apply(ManifestEdit.builder()
                .addTable(table(8, 1, "k", "q")).addTable(table(9, 1, "a", "b")).addTable(table(10, 4, "x", "y"))
                .nextFileNumber(20).walNumber(3).policy("binomial", new byte[] {1, 0, 5}).build());
        ManifestEdit snapshot = set.snapshot();
        assertThat(ComponentSet.empty().apply(snapshot)).isEqualTo(set);
        assertThat(snapshot.removed()).isEmpty();
        assertThat(snapshot.nextFileNumber()).hasValue(20);
        assertThat(snapshot.lastSequence()).hasValue(609);
        assertThat(snapshot.walNumber()).hasValue(3);
        assertThat(ComponentSet.empty().snapshot().added()).isEmpty();
        assertThat(ComponentSet.empty().apply(ComponentSet.empty().snapshot())).isEqualTo(ComponentSet.empty());
    }

    @Test
    void virtualTablesKeepTheirParentsLiveUntilNoVirtualTablePointsAtThem() {
        TableRecord a = table(1, 1, "a", "f");
        TableRecord b = table(2, 2, "c", "h");
        TableRecord c = table(3, 3, "a", "z");
        ComponentSet set = ComponentSet.empty().apply(ManifestEdit.builder().addTable(a).addTable(b).addTable(c)
                .nextFileNumber(10).build());
        // virtual merge of level-1 a and level-2 b into level 2
        TableRecord v = TableRecord.virtual(4, 2, 0, List.of(a, b));
        set = set.apply(ManifestEdit.builder().removeFile(1).removeFile(2).addTable(v).build());
        assertThat(numbers(set.level(2))).containsExactly(4L);
        assertThat(set.parents()).containsOnlyKeys(1L, 2L);
        assertThat(set.fileNumbers()).containsExactlyInAnyOrder(1L, 2L, 3L); // files, not the virtual 4
        assertThat(ComponentSet.empty().apply(set.snapshot())).isEqualTo(set);
        assertThat(ComponentSet.empty().apply(set.snapshot()).parents()).isEqualTo(set.parents());

        // a second virtual merge takes v (flattened: its parents) and c
        TableRecord w = TableRecord.virtual(5, 3, 0, List.of(a, b, c));
        ComponentSet merged = set.apply(ManifestEdit.builder().removeFile(4).removeFile(3).addTable(w).build());
        assertThat(merged.parents()).containsOnlyKeys(1L, 2L, 3L);
        assertThat(merged.tableCount()).isEqualTo(1);

        // a real merge of w: its parents stop being live
        ComponentSet real = merged.apply(ManifestEdit.builder().removeFile(5).addTable(table(6, 3, "a", "z"))
                .build());
        assertThat(real.parents()).isEmpty();
        assertThat(real.fileNumbers()).containsExactly(6L);
    }

    @Test
    void aVirtualTableMustPointAtLiveRealTablesThatLeaveTheirLevels() {
        TableRecord a = table(1, 1, "a", "f");
        TableRecord b = table(2, 2, "c", "h");
        ComponentSet set = ComponentSet.empty().apply(ManifestEdit.builder().addTable(a).addTable(b)
                .nextFileNumber(10).build());
        TableRecord ghost = table(7, 1, "a", "b");
        assertThatThrownBy(() -> set.apply(ManifestEdit.builder().removeFile(1)
                .addTable(TableRecord.virtual(4, 2, 0, List.of(a, ghost))).build()))
                .hasMessageContaining("parent 7, which is not live");
        assertThatThrownBy(() -> set.apply(ManifestEdit.builder().removeFile(1)
                .addTable(TableRecord.virtual(4, 2, 0, List.of(a, b))).build()))
                .hasMessageContaining("parent 2, which stays in level 2");
        assertThatThrownBy(() -> set.apply(ManifestEdit.builder().removeFile(1).removeFile(2)
                .addTable(TableRecord.virtual(4, 2, 0, List.of(a, table(2, 2, "c", "i")))).build()))
                .hasMessageContaining("live with another record");
        assertThatThrownBy(() -> set.apply(ManifestEdit.builder().removeFile(1).removeFile(2)
                .addTable(TableRecord.virtual(4, 2, 0, List.of(a))).addTable(TableRecord.virtual(5, 3, 0, List.of(a, b)))
                .build())).hasMessageContaining("parent of two");
        assertThatThrownBy(() -> TableRecord.virtual(4, 0, 0, List.of(a))).hasMessageContaining("level must be >= 1");
        assertThatThrownBy(() -> TableRecord.virtual(4, 1, 0, List.of())).hasMessageContaining("at least one parent");
        TableRecord v = TableRecord.virtual(4, 2, 0, List.of(a));
        assertThatThrownBy(() -> TableRecord.virtual(5, 2, 0, List.of(v))).hasMessageContaining("must be real");
    }

    @Test
    void thePolicyIsReplacedOnlyWhenAnEditSetsIt() {
        ComponentSet set = flushes(1).apply(ManifestEdit.builder().policy("minlatency", new byte[] {1, 2}).build());
        ComponentSet after = set.apply(flush(2));
        assertThat(after.policy()).contains(new PolicyRecord("minlatency", new byte[] {1, 2}));
        assertThat(after.apply(ManifestEdit.builder().policy("minlatency", new byte[] {1, 3}).build()).policy()
                .orElseThrow().state()).containsExactly(1, 3);
        assertThat(ComponentSet.empty().policy()).isEmpty();
    }

    @Test
    void equalityCoversEveryPart() {
        ComponentSet base = flushes(2);
        assertThat(base).isEqualTo(flushes(2)).hasSameHashCodeAs(flushes(2));
        assertThat(base.apply(ManifestEdit.builder().walNumber(1).build())).isNotEqualTo(base);
        assertThat(base.apply(ManifestEdit.builder().lastSequence(999).build())).isNotEqualTo(base);
        assertThat(base.apply(ManifestEdit.builder().nextFileNumber(9).build())).isNotEqualTo(base);
        assertThat(base.apply(ManifestEdit.builder().policy("p", new byte[0]).build())).isNotEqualTo(base);
        assertThat(base.toString()).contains("L0=[2, 1]");
    }

    @Test
    void theSetAndItsRecordsCannotBeChangedFromOutside() {
        ComponentSet set = flushes(2);
        assertThatThrownBy(() -> set.levels().get(0).clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> set.fileNumbers().clear()).isInstanceOf(UnsupportedOperationException.class);
        byte[] key = bytes("k");
        TableRecord t = new TableRecord(1, 0, 1, 1, 0, key, key, 0, 0, 1, 1, 0, Long.MAX_VALUE, 1);
        key[0] = 'z';
        t.minKey()[0] = 'y';
        assertThat(t.minKey()).containsExactly('k');
        assertThat(t.maxKey()).containsExactly('k');
    }

    @Test
    void tableRecordsCheckTheirFields() {
        TableRecord t = new TableRecord(17, 2, 4096, 50, 5, bytes("a"), bytes("q"), 10, 60, 3, 4, 1234, 999, 700);
        assertThat(t).isEqualTo(new TableRecord(17, 2, 4096, 50, 5, bytes("a"), bytes("q"), 10, 60, 3, 4, 1234,
                999, 700)).hasSameHashCodeAs(new TableRecord(17, 2, 4096, 50, 5, bytes("a"), bytes("q"), 10, 60, 3,
                4, 1234, 999, 700));
        assertThat(t).isNotEqualTo(new TableRecord(17, 2, 4096, 50, 5, bytes("a"), bytes("r"), 10, 60, 3, 4, 1234,
                999, 700));
        assertThatThrownBy(() -> new TableRecord(0, 0, 1, 50, 5, bytes("a"), bytes("q"), 10, 60, 3, 4, 1234, 999, 700))
                .hasMessageContaining("fileNumber must be > 0");
        assertThatThrownBy(() -> new TableRecord(1, -1, 1, 50, 5, bytes("a"), bytes("q"), 10, 60, 3, 4, 1234, 999,
                700)).hasMessageContaining("level must be in [0, 63]");
        assertThatThrownBy(() -> new TableRecord(1, 64, 1, 50, 5, bytes("a"), bytes("q"), 10, 60, 3, 4, 1234, 999,
                700)).hasMessageContaining("level must be in [0, 63]");
        assertThatThrownBy(() -> new TableRecord(1, 0, -1, 50, 5, bytes("a"), bytes("q"), 10, 60, 3, 4, 1234, 999,
                700)).hasMessageContaining("fileBytes");
        assertThatThrownBy(() -> table(1, 0, "b", "a")).hasMessageContaining("is greater than maxKey");
        assertThatThrownBy(() -> new TableRecord(1, 0, 1, 1, 2, bytes("a"), bytes("a"), 0, 0, 1, 1, 0, 0, 0))
                .hasMessageContaining("tombstones must be in [0, entries]");
        assertThatThrownBy(() -> new TableRecord(1, 0, 1, 1, 0, bytes("a"), bytes("a"), 5, 4, 1, 1, 0, 0, 0))
                .hasMessageContaining("minSequence");
        assertThatThrownBy(() -> new TableRecord(1, 0, 1, 1, 0, bytes("a"), bytes("a"), 0, 0, 0, 1, 0, 0, 0))
                .hasMessageContaining("minFlushIndex must be >= 1");
        assertThatThrownBy(() -> new TableRecord(1, 0, 1, 1, 0, bytes("a"), bytes("a"), 0, 0, 3, 2, 0, 0, 0))
                .hasMessageContaining("minFlushIndex must be <= maxFlushIndex");
        assertThatThrownBy(() -> new TableRecord(1, 0, 1, 1, 0, bytes("a"), bytes("a"), 0, 0, 1, 1, 0, 0, -1))
                .hasMessageContaining("dataBytes must be >= 0");
    }
}
