package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The four format versions, from committed files: {@code version1-512.sst}, written by the last build that wrote
 * fixed-size pages, {@code version2-512.sst}, by the last that wrote packed pages with the first Bloom filter layout,
 * and {@code version3-512.sst}, by the last whose separators were the children's first keys, are still read exactly
 * as before (contents, verifier, and where damage is reported); {@code version4-512.sst} is what this build's writer
 * writes, byte for byte, for the same entries. Then damage peculiar to
 * packed pages: the offsets block, page lengths that cannot be, the trailer, truncation; and a filter of the layout
 * the table's version does not hold.
 */
class SSTableFormatVersionsTest {
    private static final int PAGE = 512;
    private static final long CREATED = 1_700_000_000_000L;
    private static final long OLDEST_TOMBSTONE = 1_700_000_000_123L;

    @TempDir
    Path dir;

    /** The entries both committed files hold: 1,000 keys, every 7th a tombstone, every 11th with an older version. */
    static List<Entry> fixtureEntries() {
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            byte[] key = key(2 * i);
            long newest = 5000 + i;
            if (i % 7 == 0) {
                out.add(Entry.delete(key, newest));
            } else {
                out.add(Entry.put(key, newest, ("value-" + i + "-" + "x".repeat(i % 13))
                        .getBytes(StandardCharsets.US_ASCII)));
            }
            if (i % 11 == 0) {
                out.add(Entry.put(key, 1 + i, ("old-" + i).getBytes(StandardCharsets.US_ASCII)));
            }
        }
        return out;
    }

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = SSTableFormatVersionsTest.class.getResourceAsStream(name)) {
            assertThat(in).as("test resource %s", name).isNotNull();
            return in.readAllBytes();
        }
    }

    private Path copy(String name, byte[] bytes) throws IOException {
        Path path = dir.resolve(name);
        Files.write(path, bytes);
        return path;
    }

    /** Writes the fixture's entries with this build's writer. */
    private Path writeFixture(String name) throws IOException {
        Path path = dir.resolve(name);
        SSTableOptions options = SSTableOptions.builder().pageSize(PAGE).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(path, options, 4, 6, CREATED)) {
            for (Entry e : fixtureEntries()) {
                w.add(e);
            }
            w.finish(OLDEST_TOMBSTONE);
        }
        return path;
    }

    /** Reads {@code path} every way there is and checks it against the fixture's entries. */
    private static void assertHoldsTheFixture(Path path, int version) throws IOException {
        List<Entry> entries = fixtureEntries();
        try (SSTableReader r = SSTableReader.open(path, BlockCache.ofBytes(1 << 20))) {
            assertThat(r.version()).isEqualTo(version);
            assertThat(r.height()).as("leaves, internal pages and a root").isEqualTo(3);
            List<Entry> scanned = new ArrayList<>();
            r.scan().forEachRemaining(scanned::add);
            assertThat(scanned).isEqualTo(entries);
            assertThat(SSTableTest.drain(r.scanInPlace(3 * PAGE))).isEqualTo(entries);
            for (int i = 0; i < 2000; i++) {
                byte[] k = key(i);
                Entry newest = entries.stream().filter(e -> Arrays.equals(e.key(), k)).findFirst().orElse(null);
                assertThat(r.get(k, Long.MAX_VALUE)).as("key %d", i).isEqualTo(newest);
            }
            assertThat(r.get(key(0), 4000)).as("an older version at a snapshot").isEqualTo(entries.get(1));
            SSTableMetadata m = r.metadata();
            assertThat(m.entries()).isEqualTo(entries.size());
            assertThat(m.minFlushIndex()).isEqualTo(4);
            assertThat(m.maxFlushIndex()).isEqualTo(6);
            assertThat(m.createdMillis()).isEqualTo(CREATED);
            assertThat(m.oldestTombstoneMillis()).isEqualTo(OLDEST_TOMBSTONE);
        }
        SSTableVerifier.Report report = SSTableVerifier.verify(path);
        assertThat(report.problems()).isEmpty();
        assertThat(report.entries()).isEqualTo(entries.size());
    }

    @Test
    void aVersion1TableOfFixedPagesIsReadAsBefore() throws IOException {
        byte[] v1 = resource("version1-512.sst");
        assertThat(PackedLayout.version(v1)).isEqualTo(1);
        assertThat((v1.length - PackedLayout.TRAILER) % PAGE).as("whole pages").isZero();
        assertHoldsTheFixture(copy("v1.sst", v1), 1);
        // Damage is reported at the page's fixed offset, as it always was.
        int pages = (v1.length - PackedLayout.TRAILER) / PAGE;
        for (int p : new int[] {0, 30, 61, 63, pages - 1}) { // leaves, an internal page, the root, the metadata
            byte[] damaged = v1.clone();
            damaged[p * PAGE + 200] ^= 0x10;
            CorruptionException c = readAll(copy("v1-" + p + ".sst", damaged));
            assertThat(c).as("page %d", p).isNotNull();
            assertThat(c.offset()).isEqualTo((long) p * PAGE);
            assertThat(c.code()).isEqualTo(Code.CHECKSUM_MISMATCH);
        }
    }

    @Test
    void aVersion2TableOfPackedPagesAndTheFirstFilterLayoutIsReadAsBefore() throws IOException {
        byte[] v2 = resource("version2-512.sst");
        assertThat(PackedLayout.version(v2)).isEqualTo(2);
        assertHoldsTheFixture(copy("v2.sst", v2), 2);
        try (SSTableReader r = SSTableReader.open(copy("v2-filter.sst", v2))) {
            for (int i = 0; i < 2000; i += 2) {
                assertThat(r.mightContain(key(i))).as("key %d", i).isTrue();
            }
        }
    }

    @Test
    void aVersion3TableOfFirstKeySeparatorsIsReadAsBefore() throws IOException {
        byte[] v3 = resource("version3-512.sst");
        assertThat(PackedLayout.version(v3)).isEqualTo(3);
        assertHoldsTheFixture(copy("v3.sst", v3), 3);
    }

    /**
     * Version 4 writes a shorter separator wherever the key before a leaf differs from the leaf's first key before
     * that key's last byte (here where a digit other than the last changes between two leaves), so the same entries'
     * internal pages are smaller than version 3's.
     */
    @Test
    void theWriterWritesVersion4ExactlyAsCommitted() throws IOException {
        Path written = writeFixture("v4.sst");
        byte[] bytes = Files.readAllBytes(written);
        assertThat(bytes).as("the writer's output against the committed version-4 file")
                .isEqualTo(resource("version4-512.sst"));
        assertThat(PackedLayout.version(bytes)).isEqualTo(4);
        assertHoldsTheFixture(written, 4);
        assertThat(PackedLayout.internalBytes(bytes)).as("internal pages, version 4 against version 3")
                .isLessThan(PackedLayout.internalBytes(resource("version3-512.sst")));
        long[] starts = PackedLayout.pageStarts(bytes);
        int pages = starts.length - 1;
        assertThat(starts[pages] + 4L * pages + PackedLayout.TRAILER).as("pages, offsets, trailer: nothing else")
                .isEqualTo(bytes.length);
        for (int n = 0; n < pages; n++) {
            assertThat(starts[n + 1] - starts[n]).as("page %d", n).isBetween(9L, (long) PAGE);
        }
        byte[] v1 = resource("version1-512.sst");
        assertThat((double) bytes.length / v1.length).as("packed against fixed pages, same entries").isLessThan(0.97);
    }

    /**
     * A table's version says what its separators are: a version-4 table relabelled as version 3 (trailer resealed)
     * reads the same, but the verifier, which holds a version-3 table's separators to its children's first keys,
     * names each shortened one.
     */
    @Test
    void shortSeparatorsUnderAVersion3LabelAreReportedByTheVerifier() throws IOException {
        byte[] relabelled = Files.readAllBytes(writeFixture("v4.sst"));
        PackedLayout.relabel(relabelled, 3);
        Path path = copy("relabelled.sst", relabelled);
        assertThat(SSTableVerifier.verify(path).problems()).isNotEmpty()
                .allSatisfy(p -> assertThat(p).contains("differs from the first key of page"));
        assertThat(SSTableVerifier.verify(writeFixture("v4-again.sst")).problems()).isEmpty();
    }

    /**
     * A table's version says which Bloom filter layout it holds: a version-4 table relabelled as version 2 (trailer
     * resealed) holds a filter version 2 never held, and is refused at open, naming the filter's offset.
     */
    @Test
    void aFilterOfTheLayoutTheTablesVersionDoesNotHoldIsRefused() throws IOException {
        byte[] relabelled = Files.readAllBytes(writeFixture("v4.sst"));
        int trailer = relabelled.length - PackedLayout.TRAILER;
        ByteBuffer b = ByteBuffer.wrap(relabelled);
        b.putInt(trailer + 8, 2);
        b.putInt(trailer + 60, SSTableFormat.crc(relabelled, trailer, 60));
        Path path = copy("relabelled.sst", relabelled);
        long bloomStart = b.getInt(trailer + 28);
        assertThatThrownBy(() -> SSTableReader.open(path)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining("Bloom filter of version 2 in a table of format version 2, whose filters are of "
                        + "version 1")
                .satisfies(e -> assertThat(((CorruptionException) e).offset())
                        .isEqualTo(PackedLayout.pageStarts(relabelled)[(int) bloomStart]));
    }

    @Test
    void damageToTheOffsetsBlockIsACorruptionAtOpenNamingIt() throws IOException {
        byte[] good = Files.readAllBytes(writeFixture("good.sst"));
        long offsetsAt = PackedLayout.offsetsAt(good);
        int pages = PackedLayout.pages(good);
        for (int n : new int[] {0, pages / 2, pages - 1}) { // a flipped bit in a page's length
            byte[] damaged = good.clone();
            damaged[(int) offsetsAt + 4 * n + 3] ^= 0x01;
            Path path = copy("flipped-" + n + ".sst", damaged);
            assertThatThrownBy(() -> SSTableReader.open(path)).isInstanceOf(CorruptionException.class)
                    .hasMessageContaining("page offsets block checksum mismatch")
                    .satisfies(e -> assertThat(((CorruptionException) e).offset()).isEqualTo(offsetsAt));
            assertThat(SSTableVerifier.verify(path).problems()).singleElement().asString().startsWith("cannot open")
                    .contains("page offsets block checksum mismatch");
        }
    }

    @Test
    void pageLengthsThatCannotBeAreRefusedEvenUnderValidChecksums() throws IOException {
        byte[] good = Files.readAllBytes(writeFixture("good.sst"));
        long offsetsAt = PackedLayout.offsetsAt(good);
        int pages = PackedLayout.pages(good);
        // Longer than the page size, shorter than a header and checksum, or past the end of the pages (and the file).
        int[][] forgeries = {{3, PAGE + 1}, {5, 8}, {pages - 1, Integer.MAX_VALUE}, {0, -1}};
        for (int[] f : forgeries) {
            byte[] forged = good.clone();
            ByteBuffer.wrap(forged).putInt((int) offsetsAt + 4 * f[0], f[1]);
            PackedLayout.reseal(forged);
            Path path = copy("length-" + f[0] + ".sst", forged);
            assertThatThrownBy(() -> SSTableReader.open(path)).isInstanceOf(CorruptionException.class)
                    .hasMessageContaining("page " + f[0] + " is " + Integer.toUnsignedString(f[1]) + " bytes long")
                    .hasMessageContaining("pages of this table are 9 to 512 bytes")
                    .satisfies(e -> assertThat(((CorruptionException) e).code()).isEqualTo(Code.BAD_LENGTH))
                    .satisfies(e -> assertThat(((CorruptionException) e).offset()).isEqualTo(offsetsAt + 4L * f[0]));
        }
        // Each length possible, but together not where the trailer says the pages end.
        byte[] shifted = good.clone();
        ByteBuffer b = ByteBuffer.wrap(shifted);
        int first = b.getInt((int) offsetsAt);
        b.putInt((int) offsetsAt, first - 1);
        PackedLayout.reseal(shifted);
        Path path = copy("shifted.sst", shifted);
        assertThatThrownBy(() -> SSTableReader.open(path)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining("lengths add up to " + (offsetsAt - 1) + " bytes, but the trailer puts their end "
                        + "at offset " + offsetsAt);
        // Two pages' lengths traded: each page read at its new place fails its checksum (it covers the page number).
        byte[] traded = good.clone();
        ByteBuffer t = ByteBuffer.wrap(traded);
        int second = t.getInt((int) offsetsAt + 4);
        t.putInt((int) offsetsAt, second).putInt((int) offsetsAt + 4, first);
        PackedLayout.reseal(traded);
        if (first != second) {
            CorruptionException c = readAll(copy("traded.sst", traded));
            assertThat(c).isNotNull();
            assertThat(c.code()).isEqualTo(Code.CHECKSUM_MISMATCH);
            assertThat(c.offset()).isZero();
        }
    }

    @Test
    void thePackedPagesTrailerIsCheckedFieldByField() throws IOException {
        byte[] good = Files.readAllBytes(writeFixture("good.sst"));
        int trailer = good.length - PackedLayout.TRAILER;
        for (int i = 0; i < PackedLayout.TRAILER; i++) { // any flipped bit
            byte[] damaged = good.clone();
            damaged[trailer + i] ^= 0x02;
            Path path = copy("trailer-" + i + ".sst", damaged);
            assertThatThrownBy(() -> SSTableReader.open(path)).as("byte %d of the trailer", i)
                    .isInstanceOf(CorruptionException.class)
                    .satisfies(e -> assertThat(((CorruptionException) e).offset()).isEqualTo(trailer))
                    .satisfies(e -> assertThat(((CorruptionException) e).code())
                            .isIn(Code.BAD_MAGIC, Code.CHECKSUM_MISMATCH));
        }
        // Resealed, an impossible layout: the pages' end moved, a root past the last page, more pages than fit.
        int[][] fields = {{48, 0}, {20, 10_000}, {44, 1 << 20}};
        for (int[] f : fields) {
            byte[] forged = good.clone();
            ByteBuffer b = ByteBuffer.wrap(forged);
            if (f[0] == 48) {
                b.putLong(trailer + 48, PackedLayout.offsetsAt(good) + 1);
            } else {
                b.putInt(trailer + f[0], f[1]);
            }
            b.putInt(trailer + 60, SSTableFormat.crc(forged, trailer, 60));
            Path path = copy("layout-" + f[0] + ".sst", forged);
            assertThatThrownBy(() -> SSTableReader.open(path)).isInstanceOf(CorruptionException.class)
                    .hasMessageContaining("impossible layout")
                    .satisfies(e -> assertThat(((CorruptionException) e).code()).isEqualTo(Code.BAD_LENGTH));
        }
    }

    @Test
    void aTruncatedTableIsRefusedAtOpenWhereverItIsCut() throws IOException {
        byte[] good = Files.readAllBytes(writeFixture("good.sst"));
        long offsetsAt = PackedLayout.offsetsAt(good);
        for (long cut : new long[] {good.length - 1, good.length - PackedLayout.TRAILER, offsetsAt + 2, offsetsAt,
                PackedLayout.pageStarts(good)[3] + 100, 40}) {
            Path path = copy("cut-" + cut + ".sst", Arrays.copyOf(good, (int) cut));
            assertThatThrownBy(() -> SSTableReader.open(path)).as("cut at %d", cut)
                    .isInstanceOf(CorruptionException.class)
                    .satisfies(e -> assertThat(((CorruptionException) e).code())
                            .isIn(Code.BAD_MAGIC, Code.TRUNCATED_HEADER));
        }
    }

    /** Opens, scans both ways and probes every key; returns the corruption reported, or null if all went well. */
    private static CorruptionException readAll(Path path) throws IOException {
        try (SSTableReader r = SSTableReader.open(path)) {
            SSTableTest.drain(r.scanInPlace(3 * PAGE));
            r.scan().forEachRemaining(e -> { });
            for (int i = 0; i < 2000; i++) {
                r.get(key(i), Long.MAX_VALUE);
            }
            return null;
        } catch (CorruptionException e) {
            return e;
        } catch (UncheckedIOException e) {
            return (CorruptionException) e.getCause();
        }
    }
}
