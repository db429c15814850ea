package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The parsed page's in-place search, from literal pages, and its refusal of entries that run past the page. */
class PageTest {
    private static final Path FILE = Path.of("t.sst");

    private static byte[] k(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A 512-byte leaf holding {@code entries} (key, sequence) with a 3-byte value each; the CRC is not set. */
    private static byte[] leaf(Object... entries) {
        return leaf(512, entries);
    }

    private static byte[] leaf(int pageSize, Object... entries) {
        ByteBuffer b = ByteBuffer.allocate(pageSize);
        b.put(SSTableFormat.LEAF).putInt(entries.length / 2);
        for (int i = 0; i < entries.length; i += 2) {
            byte[] key = entries[i] instanceof byte[] raw ? raw : k((String) entries[i]);
            b.put((byte) 0);
            SSTableFormat.putVarLong(b, key.length);
            SSTableFormat.putVarLong(b, 3);
            SSTableFormat.putVarLong(b, (Long) entries[i + 1]);
            b.put(key).put(new byte[] {1, 2, 3});
        }
        return b.array();
    }

    @Test
    void binarySearchFollowsTheInternalOrderKeyAscendingSequenceDescending() throws CorruptionException {
        Page p = Page.parse(FILE, 0, 0, leaf("a", 5L, "b", 9L, "b", 4L, "b", 2L, "d", 1L));
        assertThat(p.count()).isEqualTo(5);
        assertThat(p.lowerBound(k("b"), Long.MAX_VALUE)).as("newest b").isEqualTo(1);
        assertThat(p.lowerBound(k("b"), 4)).as("b at snapshot 4").isEqualTo(2);
        assertThat(p.lowerBound(k("b"), 3)).as("b at snapshot 3").isEqualTo(3);
        assertThat(p.lowerBound(k("b"), 1)).as("past every b").isEqualTo(4);
        assertThat(p.lowerBound(k("c"), 7)).isEqualTo(4);
        assertThat(p.lowerBound(k("e"), 7)).as("past the page").isEqualTo(5);
        assertThat(p.lowerBound(k(""), 0)).isZero();
        assertThat(p.floor(k("b"), 4)).as("exact").isEqualTo(2);
        assertThat(p.floor(k("c"), 0)).as("last before").isEqualTo(3);
        assertThat(p.floor(k("0"), 0)).as("before every entry: the first").isZero();
        assertThat(p.keyEquals(2, k("b"))).isTrue();
        assertThat(p.keyEquals(2, k("bb"))).isFalse();
        assertThat(p.entry(3)).isEqualTo(Entry.put(k("b"), 2, new byte[] {1, 2, 3}));
    }

    /**
     * Keys that share long prefixes, end inside the compared window, or hold zero bytes (which the window's
     * padding also uses): the search agrees with a linear scan in the internal order for every target.
     */
    @Test
    void searchAgreesWithALinearScanOnKeysWithSharedPrefixesAndZeroBytes() throws CorruptionException {
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        for (int round = 0; round < 300; round++) {
            RandomPage page = RandomPage.of(random, 40, 3);
            java.util.List<Entry> entries = page.entries();
            Page p = Page.parse(FILE, 0, 0, leaf(4096, page.literal()));
            for (int t = 0; t < 50; t++) {
                byte[] target = page.target(random, t);
                long seq = random.nextInt(5);
                int expected = 0;
                while (expected < entries.size()
                        && Entry.compare(entries.get(expected).key(), entries.get(expected).sequence(), target, seq) < 0) {
                    expected++;
                }
                assertThat(p.lowerBound(target, seq)).as("round %d target %s@%d", round, Arrays.toString(target), seq)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void keysCompareAsUnsignedBytes() throws CorruptionException {
        Page p = Page.parse(FILE, 0, 0, leaf("a", 1L, "\u00ff", 1L));
        assertThat(p.lowerBound(new byte[] {(byte) 0x80}, 1)).isEqualTo(1);
    }

    @Test
    void anEntryThatRunsPastThePageIsCorruptionNamingThePage() {
        byte[] bytes = leaf("a", 5L, "b", 9L);
        for (int i = 2; i < 13; i++) { // the first entry's value length: a varint longer than 10 bytes
            bytes[SSTableFormat.PAGE_HEADER_BYTES + i] = (byte) 0xFF;
        }
        assertThatThrownBy(() -> Page.parse(FILE, 3, 0, bytes))
                .isInstanceOf(CorruptionException.class).hasMessageContaining("leaf entry")
                .hasMessageContaining("t.sst");
        byte[] past = leaf("a", 5L); // key length 496: with the value, past the page's end
        ByteBuffer.wrap(past).position(SSTableFormat.PAGE_HEADER_BYTES + 1).put((byte) 0xF0).put((byte) 0x03);
        assertThatThrownBy(() -> Page.parse(FILE, 0, 0, past))
                .isInstanceOf(CorruptionException.class).hasMessageContaining("runs past the end of the page");
    }

    @Test
    void aPageOfTheWrongTypeOrAnImpossibleCountIsCorruption() {
        byte[] internal = leaf("a", 1L);
        internal[0] = SSTableFormat.INTERNAL;
        assertThatThrownBy(() -> Page.parse(FILE, 2, 0, internal))
                .isInstanceOf(CorruptionException.class).hasMessageContaining("page 2 has type 2, expected 1");
        byte[] bytes = leaf("a", 1L);
        ByteBuffer.wrap(bytes).putInt(1, 1000);
        assertThatThrownBy(() -> Page.parse(FILE, 0, 0, bytes))
                .isInstanceOf(CorruptionException.class).hasMessageContaining("claims 1000 entries");
    }
}
