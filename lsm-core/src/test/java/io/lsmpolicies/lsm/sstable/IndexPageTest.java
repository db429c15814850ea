package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A pinned internal page, from literal pages: its search finds the last child at or before a target (agreeing with
 * a linear scan on keys with shared prefixes, zero and 0xFF bytes), it refuses entries that run past the page and
 * pages of another type, and its memory is off the Java heap.
 */
class IndexPageTest {
    private static final Path FILE = Path.of("t.sst");

    /** An internal page holding separators {@code entries} (key, sequence), child i at page 100 + i; no CRC set. */
    private static byte[] internal(int pageSize, Object... entries) {
        ByteBuffer b = ByteBuffer.allocate(pageSize);
        b.put(SSTableFormat.INTERNAL).putInt(entries.length / 2);
        for (int i = 0; i < entries.length; i += 2) {
            byte[] key = entries[i] instanceof byte[] raw ? raw : ((String) entries[i]).getBytes(
                    StandardCharsets.ISO_8859_1);
            SSTableFormat.putVarLong(b, key.length);
            SSTableFormat.putVarLong(b, (Long) entries[i + 1]);
            SSTableFormat.putVarLong(b, 100 + i / 2);
            b.put(key);
        }
        return Arrays.copyOf(b.array(), b.position() + SSTableFormat.PAGE_CRC_BYTES);
    }

    private static byte[] k(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void theLastChildAtOrBeforeTheTarget() throws CorruptionException {
        IndexPage p = IndexPage.parse(FILE, 7, 0, internal(512, "user1", 9L, "user3", 8L, "user3", 2L, "user35", 0L),
                new IndexMemory(new PageArena(1 << 20), 4096));
        assertThat(p.count()).isEqualTo(4);
        assertThat(p.child(p.floor(k("user0"), 5))).as("before every separator: the first").isEqualTo(100);
        assertThat(p.child(p.floor(k("user2"), 5))).isEqualTo(100);
        assertThat(p.child(p.floor(k("user3"), 9))).as("user3 at 9 sorts before (user3, 8)").isEqualTo(100);
        assertThat(p.child(p.floor(k("user3"), 8))).as("exact").isEqualTo(101);
        assertThat(p.child(p.floor(k("user3"), 5))).isEqualTo(101);
        assertThat(p.child(p.floor(k("user3"), 0))).as("(user3, 0) sorts after (user3, 2)").isEqualTo(102);
        assertThat(p.child(p.floor(k("user34"), 0))).isEqualTo(102);
        assertThat(p.child(p.floor(k("user35"), 0))).isEqualTo(103);
        assertThat(p.child(p.floor(k("user9"), Long.MAX_VALUE))).as("past the page").isEqualTo(103);
    }

    @Test
    void searchAgreesWithALinearScanOnKeysWithSharedPrefixesAndZeroBytes() throws CorruptionException {
        SplittableRandom random = new SplittableRandom(13);
        for (int round = 0; round < 300; round++) {
            RandomPage page = RandomPage.of(random, 60, 0);
            List<Entry> entries = page.entries();
            IndexPage p = IndexPage.parse(FILE, 0, 0, internal(4096, page.literal()),
                    new IndexMemory(new PageArena(1 << 20), 4096));
            for (int t = 0; t < 50; t++) {
                byte[] target = page.target(random, t);
                long seq = random.nextInt(5);
                int last = 0;
                for (int i = 0; i < entries.size(); i++) {
                    if (Entry.compare(entries.get(i).key(), entries.get(i).sequence(), target, seq) <= 0) {
                        last = i;
                    }
                }
                assertThat(p.floor(target, seq)).as("round %d target %s@%d", round, Arrays.toString(target), seq)
                        .isEqualTo(last);
                assertThat(p.child(last)).isEqualTo(100 + last);
            }
        }
    }

    @Test
    void entriesPastThePageOrAPageOfAnotherTypeAreCorruption() {
        byte[] past = internal(512, "a", 1L, "b", 2L);
        past[SSTableFormat.PAGE_HEADER_BYTES] = 100; // the first key's length, past the page's end
        assertThatThrownBy(() -> IndexPage.parse(FILE, 3, 0, past, new IndexMemory(new PageArena(1 << 20), 4096)))
                .isInstanceOf(CorruptionException.class).hasMessageContaining("internal entry")
                .hasMessageContaining("runs past the end of the page").hasMessageContaining("t.sst");
        byte[] leaf = internal(512, "a", 1L);
        leaf[0] = SSTableFormat.LEAF;
        assertThatThrownBy(() -> IndexPage.parse(FILE, 2, 0, leaf, new IndexMemory(new PageArena(1 << 20), 4096)))
                .isInstanceOf(CorruptionException.class).hasMessageContaining("page 2 has type 1, expected 2");
    }

    /**
     * Pinning a page allocates on the heap only its objects, not its bytes or its directory: 2,000 pages of 130
     * separators of 23-byte keys (a 4 KiB page's worth) allocate under 300 bytes of heap each, where the page and
     * its directory take some 5 KB.
     */
    @Test
    void aPinnedPageLiesOffTheHeap() throws CorruptionException {
        Object[] literal = new Object[260];
        for (int i = 0; i < 130; i++) {
            literal[2 * i] = String.format("user%019d", 1_000_000_007L * i);
            literal[2 * i + 1] = 1_000_000L + i;
        }
        byte[] page = internal(8192, literal);
        IndexMemory memory = new IndexMemory(new PageArena(Long.MAX_VALUE), 4096);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        IndexPage[] pinned = new IndexPage[2000];
        pinned[0] = IndexPage.parse(FILE, 0, 0, page, memory); // class loading and the first chunk
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 1; i < pinned.length; i++) {
            pinned[i] = IndexPage.parse(FILE, i, 0, page, memory);
        }
        long perPage = (threads.getCurrentThreadAllocatedBytes() - before) / (pinned.length - 1);
        assertThat(pinned[0].weight()).isGreaterThan(page.length + 130L * IndexPage.DIRECTORY_ENTRY_BYTES);
        assertThat(perPage).as("heap bytes allocated per pinned page").isLessThan(300);
    }
}
