package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link Separators}: what goes in comes out in order, each entry whole in one array and encoded as an internal-page
 * entry, across chunk boundaries and for keys larger than a chunk; and the separators cost what they hold, no array
 * ever copied.
 */
class SeparatorsTest {
    private static byte[] key(int i) {
        return String.format("user%019d", i * 2_654_435_761L).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void entriesComeBackInOrderEachWholeInOneArray() {
        Separators s = new Separators();
        int n = 50_000;
        byte[] big = new byte[Separators.MAX_CHUNK_BYTES + 10];
        Arrays.fill(big, (byte) 'b');
        for (int i = 0; i < n; i++) {
            byte[] k = i == n / 2 ? big : key(i);
            byte[] padded = new byte[k.length + 3];
            System.arraycopy(k, 0, padded, 2, k.length);
            s.add(padded, 2, k.length, 1L << (i % 60), i * 7L);
        }
        assertThat(s.size()).isEqualTo(n);
        Separators.Cursor c = s.cursor();
        for (int i = 0; i < n; i++) {
            assertThat(c.next()).as("separator %d", i).isTrue();
            byte[] k = i == n / 2 ? big : key(i);
            assertThat(Arrays.copyOfRange(c.keyArray(), c.keyOffset(), c.keyOffset() + c.keyLength())).isEqualTo(k);
            assertThat(c.sequence()).isEqualTo(1L << (i % 60));
            assertThat(c.page()).isEqualTo(i * 7L);
            // the entry as an internal page holds it: key length, sequence, page, key
            ByteBuffer entry = ByteBuffer.wrap(c.keyArray(), c.entryOffset(), c.entryLength());
            assertThat(SSTableFormat.getVarLong(entry)).isEqualTo(k.length);
            assertThat(SSTableFormat.getVarLong(entry)).isEqualTo(1L << (i % 60));
            assertThat(SSTableFormat.getVarLong(entry)).isEqualTo(i * 7L);
            assertThat(entry.remaining()).isEqualTo(k.length);
        }
        assertThat(c.next()).isFalse();
        assertThat(new Separators().cursor().next()).as("an empty level").isFalse();
    }

    @Test
    void theSeparatorsCostWhatTheyHoldAndNoArrayIsCopied() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        int n = 200_000;
        byte[][] keys = new byte[n][];
        for (int i = 0; i < n; i++) {
            keys[i] = key(i);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        Separators s = new Separators();
        long held = 0;
        for (int i = 0; i < n; i++) {
            s.add(keys[i], 0, keys[i].length, 1_000_000L + i, 40_000L + i);
            held += 1 + 3 + 3 + keys[i].length; // varints of 23, a 3-byte sequence and a 3-byte page, then the key
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(s.capacityBytes()).as("chunk bytes for %d bytes of separators", held)
                .isBetween(held, held + Separators.MAX_CHUNK_BYTES);
        // a growing array would have allocated about three times what it holds (each growth copies it)
        assertThat(allocated).as("bytes allocated for %d bytes of separators", held)
                .isBetween(held, held + Separators.MAX_CHUNK_BYTES + 64 * 1024);
    }
}
