package io.lsmpolicies.lsm.manifest;

import static io.lsmpolicies.lsm.manifest.Tables.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The edit encoding: every tag round-trips, and every malformed payload is a typed corruption. */
class ManifestEditTest {
    private static final Path FILE = Path.of("MANIFEST-000009");
    private static final long OFFSET = 1234;

    /** An edit that uses exactly {@code tag} (twice for the repeatable tags). */
    private static ManifestEdit only(EditTag tag) {
        ManifestEdit.Builder b = ManifestEdit.builder();
        switch (tag) {
            case ADD_TABLE -> b.addTable(table(3, 0, "", "\u00ff\u0000")).addTable(table(5, 6, "b", "c"));
            case REMOVE_FILE -> b.removeFile(1).removeFile(Long.MAX_VALUE);
            case POLICY -> b.policy("leveled-\u00e9", new byte[] {0, (byte) 0xff, 7});
            case NEXT_FILE_NUMBER -> b.nextFileNumber(Long.MAX_VALUE);
            case LAST_SEQUENCE -> b.lastSequence(0);
            case WAL_NUMBER -> b.walNumber(77);
            case WAL_SEGMENT -> b.walSegment(78);
            case ADD_VIRTUAL_TABLE -> b.addTable(TableRecord.virtual(9, 2, 123, List.of(table(3, 0, "", "\u00ff"),
                    table(5, 1, "b", "c")))).addTable(TableRecord.virtual(10, 1, 0, List.of(table(6, 1, "x", "y"))));
            default -> throw new AssertionError(tag);
        }
        return b.build();
    }

    private static ManifestEdit decode(byte[] payload) throws CorruptionException {
        return ManifestEdit.decode(payload, FILE, OFFSET);
    }

    private static void assertCorrupt(ThrowingCallable call, Code code, String message) {
        assertThatThrownBy(call).isInstanceOf(CorruptionException.class).hasMessageContaining(message)
                .satisfies(e -> {
                    CorruptionException c = (CorruptionException) e;
                    assertThat(c.code()).isEqualTo(code);
                    assertThat(c.offset()).isEqualTo(OFFSET);
                    assertThat(c.file()).isEqualTo(FILE);
                });
    }

    @ParameterizedTest
    @EnumSource(EditTag.class)
    void everyTagRoundTrips(EditTag tag) throws CorruptionException {
        ManifestEdit edit = only(tag);
        byte[] payload = edit.encode();
        assertThat(payload[0]).isEqualTo((byte) ManifestEdit.FORMAT_VERSION);
        assertThat(payload[1]).as("first field's tag byte").isEqualTo((byte) tag.id());
        assertThat(decode(payload)).isEqualTo(edit);
    }

    @Test
    void aFullEditRoundTripsAndFieldsMayComeInAnyOrder() throws CorruptionException {
        ManifestEdit edit = ManifestEdit.builder().addTable(table(4, 0, "a", "b")).removeFile(2).removeFile(3)
                .policy("binomial", new byte[0]).nextFileNumber(5).lastSequence(99).walNumber(4).build();
        assertThat(decode(edit.encode())).isEqualTo(edit);
        assertThat(decode(ManifestEdit.EMPTY.encode())).isEqualTo(ManifestEdit.EMPTY);
        assertThat(ManifestEdit.EMPTY.encode()).containsExactly(ManifestEdit.FORMAT_VERSION);

        byte[] wal = only(EditTag.WAL_NUMBER).encode();
        byte[] removes = only(EditTag.REMOVE_FILE).encode();
        ByteBuffer reordered = ByteBuffer.allocate(wal.length + removes.length - 1);
        reordered.put(wal).put(removes, 1, removes.length - 1);
        ManifestEdit decoded = decode(reordered.array());
        assertThat(decoded.walNumber()).hasValue(77);
        assertThat(decoded.removed()).containsExactly(1L, Long.MAX_VALUE);
    }

    @Test
    void tagIdsAreStableAndDistinct() {
        Map<EditTag, Integer> persistent = Map.of(EditTag.ADD_TABLE, 1, EditTag.REMOVE_FILE, 2, EditTag.POLICY, 3,
                EditTag.NEXT_FILE_NUMBER, 4, EditTag.LAST_SEQUENCE, 5, EditTag.WAL_NUMBER, 6,
                EditTag.ADD_VIRTUAL_TABLE, 7, EditTag.WAL_SEGMENT, 8);
        assertThat(EditTag.values()).hasSize(persistent.size());
        Set<Integer> ids = new HashSet<>();
        for (EditTag tag : EditTag.values()) {
            assertThat(tag.id()).as(tag.name()).isEqualTo(persistent.get(tag));
            assertThat(ids.add(tag.id())).isTrue();
            assertThat(EditTag.byId(tag.id())).isEqualTo(tag);
        }
        assertThat(EditTag.byId(0)).isNull();
        assertThat(EditTag.byId(9)).isNull();
    }

    @Test
    void aVirtualTableWithAnImpossibleParentCountIsACorruption() {
        byte[] payload = only(EditTag.ADD_VIRTUAL_TABLE).encode();
        // version, tag, then table 9: 36 bytes of numbers, its keys (the union of its parents': "" and "\u00ff",
        // 0 and 2 UTF-8 bytes, each after a u32 length), 56 bytes of numbers; then the parent count
        int countAt = 2 + 36 + 4 + 4 + 2 + 56;
        ByteBuffer.wrap(payload).putInt(countAt, 1 << 30);
        assertCorrupt(() -> decode(payload), Code.BAD_LENGTH, "virtual table parent count");
    }

    @Test
    void anUnknownTagIsRefused() {
        byte[] payload = Arrays.copyOf(only(EditTag.WAL_NUMBER).encode(), 11);
        payload[10] = 42;
        assertCorrupt(() -> decode(payload), Code.UNKNOWN_TAG, "unknown manifest field tag 42 at payload byte 10");
        assertCorrupt(() -> decode(new byte[] {ManifestEdit.FORMAT_VERSION, 0}), Code.UNKNOWN_TAG, "tag 0");
    }

    @Test
    void anUnknownVersionIsRefused() {
        byte[] payload = only(EditTag.ADD_TABLE).encode();
        for (int version : new int[] {0, ManifestEdit.FORMAT_VERSION - 1, ManifestEdit.FORMAT_VERSION + 1, 255}) {
            payload[0] = (byte) version;
            assertCorrupt(() -> decode(payload), Code.UNSUPPORTED_VERSION, "format version " + version);
        }
        assertCorrupt(() -> decode(new byte[0]), Code.BAD_LENGTH, "empty manifest record");
    }

    /** A cut inside a field is BAD_LENGTH; a cut between fields decodes the fields before it, nothing else. */
    @Test
    void everyTruncationIsEitherAShorterEditOrBadLength() throws CorruptionException {
        ManifestEdit edit = ManifestEdit.builder().addTable(table(4, 1, "abc", "abd")).removeFile(2)
                .policy("tiered", new byte[] {9, 9}).walNumber(3).build();
        byte[] payload = edit.encode();
        int tableEnd = 1 + 1 + 8 + 4 + 8 * 3 + 4 + 3 + 4 + 3 + 8 * 7;
        Map<Integer, ManifestEdit> boundaries = Map.of(
                1, ManifestEdit.EMPTY,
                tableEnd, ManifestEdit.builder().addTable(table(4, 1, "abc", "abd")).build(),
                tableEnd + 9, ManifestEdit.builder().addTable(table(4, 1, "abc", "abd")).removeFile(2).build(),
                payload.length - 9, ManifestEdit.builder().addTable(table(4, 1, "abc", "abd")).removeFile(2)
                        .policy("tiered", new byte[] {9, 9}).build());
        for (int cut = 1; cut < payload.length; cut++) {
            byte[] prefix = Arrays.copyOf(payload, cut);
            if (boundaries.containsKey(cut)) {
                assertThat(decode(prefix)).as("cut at %d", cut).isEqualTo(boundaries.get(cut));
            } else {
                assertCorrupt(() -> decode(prefix), Code.BAD_LENGTH, "");
            }
        }
        assertThat(decode(payload)).isEqualTo(edit);
    }

    @Test
    void aKeyLengthPastTheRecordIsBadLength() {
        byte[] payload = ManifestEdit.builder().addTable(table(4, 1, "abc", "abd")).build().encode();
        int minKeyLength = 1 + 1 + 8 + 4 + 8 * 3;
        ByteBuffer.wrap(payload).putInt(minKeyLength, 1000);
        assertCorrupt(() -> decode(payload), Code.BAD_LENGTH, "minKey length 1000 runs past");
        ByteBuffer.wrap(payload).putInt(minKeyLength, -1);
        assertCorrupt(() -> decode(payload), Code.BAD_LENGTH, "minKey length 4294967295");
    }

    @Test
    void valuesThatBreakTheRulesAreInconsistentRecords() {
        byte[] badLevel = ManifestEdit.builder().addTable(table(4, 1, "a", "b")).build().encode();
        ByteBuffer.wrap(badLevel).putInt(1 + 1 + 8, 1_000_000);
        assertCorrupt(() -> decode(badLevel), Code.INCONSISTENT_RECORD, "level must be in [0, 63]");

        byte[] twice = concat(only(EditTag.WAL_NUMBER).encode(), only(EditTag.WAL_NUMBER).encode());
        assertCorrupt(() -> decode(twice), Code.INCONSISTENT_RECORD, "walNumber is set twice");

        byte[] sameRemoval = concat(ManifestEdit.builder().removeFile(5).build().encode(),
                ManifestEdit.builder().removeFile(5).build().encode());
        assertCorrupt(() -> decode(sameRemoval), Code.INCONSISTENT_RECORD, "removes file 5 twice");

        byte[] zeroNext = ManifestEdit.builder().nextFileNumber(1).build().encode();
        zeroNext[zeroNext.length - 1] = 0;
        assertCorrupt(() -> decode(zeroNext), Code.INCONSISTENT_RECORD, "nextFileNumber must be >= 1");

        byte[] badName = ManifestEdit.builder().policy("ab", new byte[0]).build().encode();
        badName[4] = (byte) 0xc3;
        assertCorrupt(() -> decode(badName), Code.INCONSISTENT_RECORD, "not valid UTF-8");
    }

    /** {@code a} then the fields of {@code b} (its version byte dropped). */
    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length - 1);
        System.arraycopy(b, 1, out, a.length, b.length - 1);
        return out;
    }

    @Test
    void editsCheckTheirPartsWhenBuilt() {
        assertThatThrownBy(() -> ManifestEdit.builder().addTable(table(2, 0, "a", "b"))
                .addTable(table(2, 1, "a", "b")).build()).hasMessageContaining("adds file 2 twice");
        assertThatThrownBy(() -> ManifestEdit.builder().lastSequence(-1).build())
                .hasMessageContaining("lastSequence must be >= 0, was -1");
        assertThatThrownBy(() -> ManifestEdit.builder().policy("a", new byte[0]).policy("b", new byte[0]))
                .hasMessageContaining("policy is set twice");
        assertThatThrownBy(() -> new PolicyRecord("", new byte[0])).hasMessageContaining("non-empty");
        assertThatThrownBy(() -> new PolicyRecord("p", new byte[PolicyRecord.MAX_STATE_BYTES + 1]))
                .hasMessageContaining("at most");
        assertThat(ManifestEdit.EMPTY.withNextFileNumber(8).nextFileNumber()).hasValue(8);
    }
}
