package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The B+-tree SSTable against an in-memory oracle, and against damage to each of its pages. */
class SSTableTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return String.format("user%08d", i).getBytes(StandardCharsets.US_ASCII);
    }

    /** Sorted entries: keys 0, 2, 4, ... with 1-3 versions each, some tombstones. */
    private static List<Entry> entries(long seed, int keys) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Entry> out = new ArrayList<>();
        long seq = 1_000_000;
        for (int i = 0; i < keys; i++) {
            int versions = 1 + random.nextInt(3);
            for (int v = 0; v < versions; v++) {
                long s = seq - v * 7L - random.nextInt(3);
                if (random.nextInt(6) == 0) {
                    out.add(Entry.delete(key(2 * i), s));
                } else {
                    byte[] value = new byte[random.nextInt(120)];
                    random.nextBytes(value);
                    out.add(Entry.put(key(2 * i), s, value));
                }
            }
            seq += 31;
        }
        return out;
    }

    private Path write(List<Entry> entries, SSTableOptions options) throws IOException {
        Path path = dir.resolve("t-" + System.nanoTime() + ".sst");
        try (SSTableWriter w = SSTableWriter.create(path, options, 3, 9, 12345)) {
            for (Entry e : entries) {
                w.add(e);
            }
            w.finish(777);
        }
        return path;
    }

    /** The oracle: newest version of key with sequence at most snapshot, by scanning the sorted list. */
    private static Entry expected(List<Entry> entries, byte[] key, long snapshot) {
        for (Entry e : entries) {
            if (Arrays.equals(e.key(), key) && e.sequence() <= snapshot) {
                return e;
            }
        }
        return null;
    }

    @ParameterizedTest
    @ValueSource(ints = {512, 4096})
    void scansAndPointReadsMatchTheOracle(int pageSize) throws IOException {
        List<Entry> entries = entries(pageSize, 3000);
        SSTableOptions options = SSTableOptions.builder().pageSize(pageSize).fitPageSize(false).build();
        Path path = write(entries, options);
        SSTableWriter.Estimate estimate = SSTableWriter.estimate(EntryCursor.of(entries.iterator()), options);
        assertThat((double) estimate.fileBytes() / Files.size(path)).as("estimated over written file bytes")
                .isBetween(0.97, 1.03);
        try (SSTableReader r = SSTableReader.open(path)) {
            List<Entry> scanned = new ArrayList<>();
            r.scan().forEachRemaining(scanned::add);
            assertThat(scanned).isEqualTo(entries);
            for (int chunkPages : new int[] {1, 3, 64}) { // a merge's read-ahead, pages parsed in place
                List<Entry> readAhead = drain(r.scanInPlace(chunkPages * pageSize));
                assertThat(readAhead).as("read-ahead of %d pages", chunkPages).isEqualTo(entries);
            }
            if (pageSize == 512) {
                assertThat(r.height()).isGreaterThanOrEqualTo(3);
            }
            SplittableRandom random = new SplittableRandom(7);
            for (int probe = 0; probe < 3000; probe++) {
                byte[] key = key(random.nextInt(6000)); // odd numbers are absent
                long snapshot = 1_000_000 + random.nextInt(3000 * 31);
                assertThat(r.get(key, snapshot)).as("get %s @%d", new String(key), snapshot)
                        .isEqualTo(expected(entries, key, snapshot));
            }
            SSTableMetadata m = r.metadata();
            assertThat(m.entries()).isEqualTo(entries.size());
            assertThat(m.tombstones()).isEqualTo(entries.stream().filter(Entry::tombstone).count());
            assertThat(m.minKey()).isEqualTo(key(0));
            assertThat(m.maxKey()).isEqualTo(key(2 * 2999));
            assertThat(m.minFlushIndex()).isEqualTo(3);
            assertThat(m.maxFlushIndex()).isEqualTo(9);
            assertThat(m.createdMillis()).isEqualTo(12345);
            assertThat(m.oldestTombstoneMillis()).isEqualTo(777);
            assertThat(m.minSequence()).isEqualTo(entries.stream().mapToLong(Entry::sequence).min().orElseThrow());
        }
    }

    /**
     * A second reader sharing what the first parsed (a merge's reader of a table the store holds open) reads the same
     * entries through its own file handle, outlives the first, and refuses a file whose length changed since.
     */
    @Test
    void aSharingReaderReadsTheTableTheOpenReaderParsed() throws IOException {
        List<Entry> entries = entries(11, 2000);
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        Path path = write(entries, options);
        BlockCache none = BlockCache.ofBytes(0);
        SSTableReader shared;
        try (SSTableReader open = SSTableReader.open(path)) {
            shared = SSTableReader.openSharing(FileLayer.plain(), IoCause.MERGE, open, none);
            assertThat(shared.metadata()).isSameAs(open.metadata());
        }
        try (shared) {
            assertThat(drain(shared.scanInPlace(8 * 512))).isEqualTo(entries);
            assertThat(drain(shared.scanInPlace(8 * 512, key(1000), key(3000))))
                    .isEqualTo(entries.stream().filter(e -> Arrays.compare(e.key(), key(1000)) >= 0
                            && Arrays.compare(e.key(), key(3000)) < 0).toList());
            assertThat(shared.get(key(0), Long.MAX_VALUE)).isEqualTo(expected(entries, key(0), Long.MAX_VALUE));
        }
        try (SSTableReader open = SSTableReader.open(path)) {
            long length = Files.size(path);
            try (var channel = java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.WRITE)) {
                channel.truncate(length - 100);
            }
            assertThatThrownBy(() -> SSTableReader.openSharing(FileLayer.plain(), IoCause.MERGE, open, none))
                    .isInstanceOf(CorruptionException.class)
                    .hasMessageContaining(path.toString())
                    .hasMessageContaining("file of " + (length - 100) + " bytes, " + length
                            + " when the store opened it");
        }
    }

    /**
     * A table of more pages than one chunk of the writer's page lengths (16,384) reads back whole, verifies, and
     * splits into key ranges ({@code scanInPlace(readAhead, from, to)}) that hold every entry once, every version of
     * a key in one range.
     */
    @Test
    void aTableOfManyPagesReadsBackWholeAndInKeyRanges() throws IOException {
        List<Entry> entries = entries(11, 60_000);
        Path path = write(entries, SSTableOptions.builder().pageSize(512).fitPageSize(false).build());
        assertThat(SSTableVerifier.verify(path).problems()).isEmpty();
        try (SSTableReader r = SSTableReader.open(path)) {
            assertThat(r.leafCount()).as("leaf pages").isGreaterThan(16_384);
            assertThat(drain(r.scanInPlace(64 * 512))).isEqualTo(entries);
            byte[][] cuts = {null, key(2 * 7_000), key(2 * 7_000 + 1), key(2 * 30_000), null};
            List<Entry> ranges = new ArrayList<>();
            for (int i = 0; i + 1 < cuts.length; i++) {
                List<Entry> range = drain(r.scanInPlace(8 * 512, cuts[i], cuts[i + 1]));
                for (Entry e : range) {
                    assertThat(cuts[i] == null || Arrays.compareUnsigned(e.key(), cuts[i]) >= 0).isTrue();
                    assertThat(cuts[i + 1] == null || Arrays.compareUnsigned(e.key(), cuts[i + 1]) < 0).isTrue();
                }
                ranges.addAll(range);
            }
            assertThat(ranges).isEqualTo(entries);
            assertThat(r.firstKey(0)).isEqualTo(key(0));
            assertThat(r.leafOf(key(0))).isZero();
            assertThat(r.leafOf(key(2 * 59_999))).isEqualTo(r.leafCount() - 1);
        }
    }

    @Test
    void aPointReadTouchesOnePagePerLevelAndAbsentKeysUsuallyNone() throws IOException {
        List<Entry> entries = entries(5, 5000);
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        try (SSTableReader r = SSTableReader.open(write(entries, options))) {
            assertThat(r.height()).as("a tree with internal pages").isGreaterThanOrEqualTo(3);
            int present = 0;
            for (int i = 0; i < 5000; i += 37) {
                long start = r.pagesRead();
                assertThat(r.get(key(2 * i), Long.MAX_VALUE)).isNotNull();
                assertThat(r.pagesRead() - start).as("pages for key %d", i).isBetween(1L, (long) r.height() + 1);
                present++;
            }
            long pinned = r.pinnedBytes();
            assertThat(pinned).as("internal pages read once are kept").isPositive();
            for (int i = 0; i < 5000; i += 37) {
                long start = r.pagesRead();
                assertThat(r.get(key(2 * i), Long.MAX_VALUE)).isNotNull();
                assertThat(r.pagesRead() - start).as("pinned index: only the leaf (or two) for key %d", i)
                        .isBetween(1L, 2L);
            }
            assertThat(r.pinnedBytes()).as("a second pass pins nothing new").isEqualTo(pinned);
            long absentStart = r.pagesRead();
            for (int i = 0; i < 5000; i++) {
                assertThat(r.get(key(2 * i + 1), Long.MAX_VALUE)).isNull();
            }
            // Bloom filter at 10 bits per key: about 1 % of absent keys cost a descent.
            assertThat(r.pagesRead() - absentStart).isLessThan(5000L * r.height() / 20);
            assertThat(present).isPositive();
        }
    }

    @Test
    void seekStartsAtTheFirstEntryAtOrAfterTheTarget() throws IOException {
        List<Entry> entries = entries(6, 500);
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        try (SSTableReader r = SSTableReader.open(write(entries, options))) {
            byte[] from = key(501); // absent: starts at key 502
            TableCursor c = r.seek(from, Long.MAX_VALUE);
            List<Entry> rest = new ArrayList<>();
            c.forEachRemaining(rest::add);
            List<Entry> want = entries.stream().filter(e -> Arrays.compareUnsigned(e.key(), from) >= 0).toList();
            assertThat(rest).isEqualTo(want);
        }
    }

    @Test
    void everyDamagedPageIsDetectedByTheReadThatTouchesIt() throws IOException {
        List<Entry> entries = entries(8, 300);
        Path good = write(entries, SSTableOptions.builder().pageSize(512).fitPageSize(false).build());
        byte[] bytes = Files.readAllBytes(good);
        long[] starts = PackedLayout.pageStarts(bytes);
        int pages = starts.length - 1;
        TreeSet<Long> offsetsSeen = new TreeSet<>();
        for (int p = 0; p <= pages + 1; p++) {
            // inside page p (its middle, or its checksum in its last 4 bytes), the offsets block, or the trailer
            long[] targets = p < pages ? new long[] {(starts[p] + starts[p + 1]) / 2, starts[p + 1] - 2}
                    : p == pages ? new long[] {starts[pages] + 4L * p / 2} : new long[] {bytes.length - 20};
            long expected = p < pages ? starts[p] : p == pages ? starts[pages] : bytes.length - 64L;
            for (long at : targets) {
                byte[] damaged = bytes.clone();
                damaged[(int) at] ^= (byte) 0x80;
                Path path = dir.resolve("damaged-" + p + "-" + at + ".sst");
                Files.write(path, damaged);
                CorruptionException c = readEverything(path);
                assertThat(c).as("damage at %d (page %d of %d) went unnoticed", at, p, pages).isNotNull();
                assertThat(c.file()).isEqualTo(path);
                assertThat(c.code()).isEqualTo(Code.CHECKSUM_MISMATCH);
                assertThat(c.offset()).isEqualTo(expected);
                offsetsSeen.add(c.offset());
            }
        }
        assertThat(offsetsSeen).as("every page, the offsets block and the trailer").hasSize(pages + 2);
        assertThat(starts[1] - starts[0]).as("pages are packed: a leaf is shorter than the page size")
                .isLessThan(512);
    }

    /** Every entry of {@code c}, copied out. */
    static List<Entry> drain(EntryCursor c) throws IOException {
        List<Entry> out = new ArrayList<>();
        while (c.advance()) {
            out.add(c.entry());
        }
        return out;
    }

    /** Opens, scans and probes every key; returns the corruption reported, or null if all went well. */
    private CorruptionException readEverything(Path path) throws IOException {
        try (SSTableReader r = SSTableReader.open(path)) {
            drain(r.scanInPlace(3 * 512)); // a merge's read: pages checked in the read-ahead chunk
            r.scan().forEachRemaining(e -> { });
            for (int i = 0; i < 300; i++) {
                r.get(key(2 * i), Long.MAX_VALUE);
            }
            return null;
        } catch (CorruptionException e) {
            return e;
        } catch (UncheckedIOException e) {
            return (CorruptionException) e.getCause();
        }
    }

    @Test
    void openRefusesTruncatedForeignAndNewerFiles() throws IOException {
        Path good = write(entries(9, 50), SSTableOptions.DEFAULT);
        byte[] bytes = Files.readAllBytes(good);
        Path cut = dir.resolve("cut.sst");
        Files.write(cut, Arrays.copyOf(bytes, bytes.length - 100));
        assertThatThrownBy(() -> SSTableReader.open(cut)).isInstanceOf(CorruptionException.class);
        Path foreign = dir.resolve("foreign.sst");
        Files.write(foreign, new byte[5000]);
        assertThatThrownBy(() -> SSTableReader.open(foreign))
                .satisfies(e -> assertThat(((CorruptionException) e).code()).isEqualTo(Code.BAD_MAGIC));
        ByteBuffer newer = ByteBuffer.wrap(bytes.clone());
        int trailer = bytes.length - 64;
        newer.putInt(trailer + 8, 5);
        newer.putInt(trailer + 60, SSTableFormat.crc(newer.array(), trailer, 60));
        Path future = dir.resolve("future.sst");
        Files.write(future, newer.array());
        assertThatThrownBy(() -> SSTableReader.open(future)).hasMessageContaining("SSTable format version 5")
                .hasMessageContaining("reads versions 1 to 4: open the store with the release that wrote this table")
                .satisfies(e -> assertThat(((CorruptionException) e).code()).isEqualTo(Code.UNSUPPORTED_VERSION))
                .satisfies(e -> assertThat(((CorruptionException) e).offset()).isEqualTo(trailer + 8L));
    }

    @Test
    void writerRefusesDisorderOversizeAndEmptinessAndLeavesNoPartialFile() throws IOException {
        Path path = dir.resolve("bad.sst");
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(path, options, 1, 1, 0)) {
            w.add(Entry.put(key(2), 5, new byte[1]));
            assertThatThrownBy(() -> w.add(Entry.put(key(1), 9, new byte[1])))
                    .hasMessageContaining("out of order");
            assertThatThrownBy(() -> w.add(Entry.put(key(2), 6, new byte[1]))).hasMessageContaining("out of order");
            assertThatThrownBy(() -> w.add(Entry.put(key(3), 1, new byte[600])))
                    .hasMessageContaining("does not fit a 512-byte page");
        }
        assertThat(path).doesNotExist();
        try (SSTableWriter w = SSTableWriter.create(path, SSTableOptions.DEFAULT, 1, 1, 0)) {
            assertThatThrownBy(() -> w.finish(0)).hasMessageContaining("at least one entry");
        }
        assertThat(SSTableWriter.maxEntryBytes(4096)).isEqualTo(4096 - 9 - 31);
    }
}
