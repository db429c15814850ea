package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Version 4's separators ({@link Separators#shortestLength}): the shortest prefix of a leaf's first key that sorts
 * after the key before it. Tables of keys that are prefixes of one another, differ in their last byte or in 0xFF
 * bytes, and keep several versions of a key across two leaves answer every get, seek and range scan as a sorted list
 * of their entries does, for present keys, absent keys between leaves and the separators themselves; and keys like
 * YCSB's get separators of about half their length.
 */
class ShortSeparatorsTest {
    @TempDir
    Path dir;

    private static int shortest(String previous, String key) {
        byte[] p = previous.getBytes(StandardCharsets.ISO_8859_1);
        byte[] k = ("__" + key).getBytes(StandardCharsets.ISO_8859_1);
        return Separators.shortestLength(p, p.length, k, 2, k.length - 2);
    }

    @Test
    void theShortestPrefixAfterTheKeyBefore() {
        assertThat(shortest("user1234", "user1299")).as("one byte past the first difference").isEqualTo(7);
        assertThat(shortest("user1234", "user1235")).as("differing in the last byte: the whole key").isEqualTo(8);
        assertThat(shortest("ab", "abcd")).as("the key before a prefix: one byte past it").isEqualTo(3);
        assertThat(shortest("ab", "abc")).as("a prefix one byte shorter: the whole key").isEqualTo(3);
        assertThat(shortest("abc", "abc")).as("the same key: the whole key").isEqualTo(3);
        assertThat(shortest("", "xyz")).as("after the empty key").isEqualTo(1);
        assertThat(shortest("a\u00ff\u00ff", "b")).isEqualTo(1);
    }

    /** Keys over a small alphabet with 0x00 and 0xFF, 0 to 5 bytes: many prefixes of one another. */
    private static byte[] randomKey(Random random) {
        byte[] alphabet = {0, 1, 'a', 'b', (byte) 0xFE, (byte) 0xFF};
        byte[] k = new byte[random.nextInt(6)];
        for (int i = 0; i < k.length; i++) {
            k[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return k;
    }

    private Path write(String name, List<Entry> entries) throws IOException {
        Path path = dir.resolve(name);
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(path, options, 1, 1, 0)) {
            for (Entry e : entries) {
                w.add(e);
            }
            w.finish(Long.MAX_VALUE);
        }
        return path;
    }

    @Test
    void tablesOfHostileKeysAnswerAsTheSortedListOfTheirEntries() throws IOException {
        for (long seed = 1; seed <= 25; seed++) {
            Random random = new Random(seed);
            TreeSet<byte[]> keys = new TreeSet<>(Arrays::compareUnsigned);
            int n = 50 + random.nextInt(400);
            while (keys.size() < n) {
                keys.add(randomKey(random));
                if (keys.size() == 6 * 6 * 6 * 6 * 6) {
                    break;
                }
            }
            List<Entry> entries = new ArrayList<>();
            long sequence = 1_000_000;
            for (byte[] k : keys) {
                int versions = random.nextInt(10) == 0 ? 2 + random.nextInt(30) : 1; // some span two leaves
                for (int v = 0; v < versions; v++) {
                    long s = sequence - 1000L * v - random.nextInt(999);
                    entries.add(random.nextInt(8) == 0 ? Entry.delete(k, s)
                            : Entry.put(k, s, new byte[random.nextInt(random.nextBoolean() ? 8 : 120)]));
                }
                sequence -= 7;
            }
            Path path = write("t" + seed + ".sst", entries);
            assertThat(SSTableVerifier.verify(path).problems()).as("seed %d", seed).isEmpty();
            // probes: every key, every prefix of one, each followed by 0x00 and by 0xFF, and random keys
            TreeSet<byte[]> probes = new TreeSet<>(Arrays::compareUnsigned);
            for (byte[] k : keys) {
                for (int len = 0; len <= k.length; len++) {
                    probes.add(Arrays.copyOf(k, len));
                }
                byte[] zero = Arrays.copyOf(k, k.length + 1);
                probes.add(zero);
                byte[] ff = zero.clone();
                ff[k.length] = (byte) 0xFF;
                probes.add(ff);
            }
            for (int i = 0; i < 200; i++) {
                probes.add(randomKey(random));
            }
            try (SSTableReader r = SSTableReader.open(path, BlockCache.ofBytes(1 << 16))) {
                assertThat(r.height()).as("seed %d: leaves and internal levels", seed).isGreaterThan(1);
                long previousLeaf = 0;
                for (byte[] probe : probes) {
                    for (long snapshot : new long[] {Long.MAX_VALUE, 999_500, 990_000, 900_000, 0}) {
                        Entry expected = entries.stream().filter(e -> Arrays.equals(e.key(), probe)
                                && e.sequence() <= snapshot).findFirst().orElse(null);
                        assertThat(r.get(probe, snapshot)).as("seed %d, get %s at %d", seed,
                                Arrays.toString(probe), snapshot).isEqualTo(expected);
                        Entry from = entries.stream().filter(e -> Entry.compare(e.key(), e.sequence(), probe,
                                snapshot) >= 0).findFirst().orElse(null);
                        try (TableCursor c = r.seek(probe, snapshot)) {
                            assertThat(c.hasNext() ? c.next() : null).as("seed %d, seek %s at %d", seed,
                                    Arrays.toString(probe), snapshot).isEqualTo(from);
                        }
                    }
                    long leaf = r.leafOf(probe);
                    assertThat(leaf).as("leaves in key order").isGreaterThanOrEqualTo(previousLeaf);
                    previousLeaf = leaf;
                    byte[] to = probes.higher(probe);
                    List<Entry> range = entries.stream().filter(e -> Arrays.compareUnsigned(e.key(), probe) >= 0
                            && (to == null || Arrays.compareUnsigned(e.key(), to) < 0)).toList();
                    assertThat(SSTableTest.drain(r.scanInPlace(1024, probe, to))).as("seed %d, range from %s",
                            seed, Arrays.toString(probe)).isEqualTo(range);
                }
            }
        }
    }

    /**
     * YCSB's keys ({@code user} and 19 digits of a hashed number) at 200,000 entries: the leaves' separators take
     * under half of the 23 bytes of a key, so an internal page holds about twice the children it did.
     */
    @Test
    void separatorsOfYcsbKeysTakeLessThanHalfAKey() throws IOException {
        List<Entry> entries = new ArrayList<>();
        TreeSet<String> keys = new TreeSet<>();
        Random random = new Random(7);
        while (keys.size() < 200_000) {
            keys.add(String.format("user%019d", random.nextLong() & Long.MAX_VALUE));
        }
        long sequence = 1;
        for (String k : keys) {
            entries.add(Entry.put(k.getBytes(StandardCharsets.US_ASCII), sequence++, new byte[100]));
        }
        Path path = write("ycsb.sst", entries);
        long separators = 0;
        long separatorKeyBytes = 0;
        try (SSTableReader r = SSTableReader.open(path)) {
            List<Long> level = List.of(r.root());
            for (int height = r.height(); height > 2; height--) { // down to the pages above the leaves
                List<Long> below = new ArrayList<>();
                for (long pageNo : level) {
                    ByteBuffer page = r.page(pageNo, SSTableFormat.INTERNAL);
                    for (int i = 0, n = page.getInt(1); i < n; i++) {
                        int keyLen = (int) SSTableFormat.getVarLong(page);
                        SSTableFormat.getVarLong(page);
                        below.add(SSTableFormat.getVarLong(page));
                        page.position(page.position() + keyLen);
                    }
                }
                level = below;
            }
            for (long pageNo : level) {
                ByteBuffer page = r.page(pageNo, SSTableFormat.INTERNAL);
                for (int i = 0, n = page.getInt(1); i < n; i++) {
                    int keyLen = (int) SSTableFormat.getVarLong(page);
                    SSTableFormat.getVarLong(page);
                    SSTableFormat.getVarLong(page);
                    page.position(page.position() + keyLen);
                    separators++;
                    separatorKeyBytes += keyLen;
                }
            }
            assertThat(separators).as("one per leaf").isEqualTo(r.leafCount());
        }
        assertThat((double) separatorKeyBytes / separators).as("mean separator length").isLessThan(11.5);
        assertThat(SSTableVerifier.verify(path).problems()).isEmpty();
    }
}
