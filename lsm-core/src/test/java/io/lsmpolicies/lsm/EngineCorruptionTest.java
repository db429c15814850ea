package io.lsmpolicies.lsm;

import static io.lsmpolicies.lsm.EngineTestSupport.copyStore;
import static io.lsmpolicies.lsm.EngineTestSupport.filesEndingWith;
import static io.lsmpolicies.lsm.EngineTestSupport.flip;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.sstable.PackedLayout;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.testing.SkipStoreChecks;
import io.lsmpolicies.lsm.testing.StoreCheck;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flipped bytes in every kind of file a store holds are detected through the store's own API: an SSTable page
 * or trailer, a write-ahead-log record, a manifest record, CURRENT, and a table the manifest lists but the
 * directory lacks. Each is a {@link CorruptionException} naming the damaged file (and, where the format allows,
 * the offset and a specific {@link Code}); no read ever returns a wrong value. A torn final WAL record, what a
 * crash during the last write leaves, is the one damage that is tolerated: the records before it are recovered.
 */
class EngineCorruptionTest {
    private static final int PAGE = 512;
    private static final int KEYS = 300;
    /** The SSTable trailer: 64 bytes at the end of the file (see SSTableFormat; pages as {@link PackedLayout} finds). */
    private static final int TRAILER = 64;
    /** Where the first record of a log (WAL or manifest) starts: after its 20-byte header (see LogFormat). */
    private static final int LOG_HEADER = 20;

    @TempDir
    Path dir;

    private static StoreOptions.Builder options() {
        return StoreOptions.builder().memtableBytes(1 << 20).walMode(SyncMode.SYNC).policy("no-merge")
                .sstable(SSTableOptions.builder().pageSize(PAGE).fitPageSize(false).build()).maxKeyBytes(32)
                .blockCacheBytes(64 * 1024);
    }

    private static byte[] key(int i) {
        return String.format("key%05d", i).getBytes(US_ASCII);
    }

    private static byte[] value(int i) {
        return String.format("value-%05d-%s", i, "x".repeat(i % 37)).getBytes(US_ASCII);
    }

    /** A closed store holding keys 0..KEYS-1 in one SSTable; returns the table's path. */
    private Path storeWithOneTable(Path store) throws IOException {
        try (LsmStore s = LsmStore.open(store, options().build())) {
            for (int i = 0; i < KEYS; i++) {
                s.put(key(i), value(i));
            }
            s.compactAll();
        }
        List<Path> tables = filesEndingWith(store, ".sst");
        assertThat(tables).hasSize(1);
        return tables.get(0);
    }

    private static void assertNamesFile(Throwable thrown, Path file, Code code) {
        assertThat(thrown).isInstanceOf(CorruptionException.class);
        CorruptionException c = (CorruptionException) thrown;
        assertThat(c.file()).isEqualTo(file);
        if (code != null) {
            assertThat(c.code()).isEqualTo(code);
        }
        assertThat(c).hasMessageContaining(file.toString());
    }

    // ------------------------------------------------------------------------------------------------ SSTables

    @Test
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "flips a byte in every page of a table: the damage is what "
            + "it reads back")
    void aFlippedByteInAnyPageOfAnSSTableIsReportedAndNoWrongValueIsReturned() throws IOException {
        Path pristine = dir.resolve("pristine");
        Path table = storeWithOneTable(pristine);
        long size = Files.size(table);
        long[] starts = PackedLayout.pageStarts(Files.readAllBytes(table));
        int pages = starts.length - 1;
        assertThat(pages).as("pages of the table").isGreaterThan(20);
        for (int p = 0; p <= pages + 1; p++) { // every page, then the page offsets block, then the trailer
            Path store = copyStore(pristine, dir.resolve("page-" + p));
            Path damaged = store.resolve(table.getFileName());
            long at = p < pages ? (starts[p] + starts[p + 1]) / 2 : p == pages ? starts[pages] + 4 * 3 : size - 20;
            long expected = p < pages ? starts[p] : p == pages ? starts[pages] : size - TRAILER;
            flip(damaged, at);
            List<CorruptionException> reported = readEverything(store, "page " + p);
            assertThat(reported).as("damage in page %d of %d went unnoticed", p, pages).isNotEmpty();
            for (CorruptionException c : reported) {
                assertNamesFile(c, damaged, null);
                assertThat(c.offset()).as("offset reported for damage in page %d", p).isEqualTo(expected);
            }
        }
    }

    /**
     * Opens the store and reads every key by get and all of them by scan; every value returned must be the right
     * one. Returns what was reported: the failed open, or every failed read.
     */
    private List<CorruptionException> readEverything(Path store, String context) throws IOException {
        List<CorruptionException> reported = new ArrayList<>();
        LsmStore s;
        try {
            s = LsmStore.open(store, options().build());
        } catch (CorruptionException e) {
            reported.add(e);
            return reported;
        }
        try (s) {
            for (int i = 0; i < KEYS; i++) {
                try {
                    assertThat(s.get(key(i))).as("%s: get key %d", context, i).isEqualTo(value(i));
                } catch (CorruptionException e) {
                    reported.add(e);
                }
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                expected.add(EngineTestSupport.hex(key(i)) + "=" + EngineTestSupport.hex(value(i)));
            }
            try {
                List<String> got = EngineTestSupport.drain(s.scan(null, null));
                assertThat(got).as("%s: full scan", context).isEqualTo(expected);
            } catch (CorruptionException e) {
                reported.add(e);
            } catch (UncheckedIOException e) {
                assertThat(e.getCause()).isInstanceOf(CorruptionException.class);
                reported.add((CorruptionException) e.getCause());
            }
        }
        return reported;
    }

    @Test
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "damages a table's trailer, metadata and Bloom filter: "
            + "what the open must name")
    void aDamagedTrailerMetadataOrBloomFilterFailsTheOpenNamingTheTable() throws IOException {
        Path pristine = dir.resolve("pristine");
        Path table = storeWithOneTable(pristine);
        long size = Files.size(table);
        ByteBuffer trailer = ByteBuffer.wrap(Files.readAllBytes(table), (int) (size - TRAILER), TRAILER).slice();
        long bloomStart = trailer.getInt(28);
        long metaStart = trailer.getInt(36);
        long[] starts = PackedLayout.pageStarts(Files.readAllBytes(table));

        Path magic = copyStore(pristine, dir.resolve("magic"));
        flip(magic.resolve(table.getFileName()), size - TRAILER);
        assertThatThrownBy(() -> LsmStore.open(magic, options().build()))
                .satisfies(e -> assertNamesFile(e, magic.resolve(table.getFileName()), Code.BAD_MAGIC));

        Path crc = copyStore(pristine, dir.resolve("trailer"));
        flip(crc.resolve(table.getFileName()), size - TRAILER + 26); // inside leafPages
        assertThatThrownBy(() -> LsmStore.open(crc, options().build()))
                .satisfies(e -> assertNamesFile(e, crc.resolve(table.getFileName()), Code.CHECKSUM_MISMATCH));

        for (long page : new long[] {bloomStart, metaStart}) {
            Path store = copyStore(pristine, dir.resolve("blob-" + page));
            flip(store.resolve(table.getFileName()), starts[(int) page] + 7);
            assertThatThrownBy(() -> LsmStore.open(store, options().build())).satisfies(e -> {
                assertNamesFile(e, store.resolve(table.getFileName()), Code.CHECKSUM_MISMATCH);
                assertThat(((CorruptionException) e).offset()).isEqualTo(starts[(int) page]);
            });
        }

        Path offsets = copyStore(pristine, dir.resolve("offsets"));
        flip(offsets.resolve(table.getFileName()), starts[starts.length - 1] + 1); // page 0's length
        assertThatThrownBy(() -> LsmStore.open(offsets, options().build())).satisfies(e -> {
            assertNamesFile(e, offsets.resolve(table.getFileName()), Code.CHECKSUM_MISMATCH);
            assertThat(e).hasMessageContaining("page offsets block checksum mismatch");
        });
    }

    @Test
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "damages a page a merge then reads: the merge must stop "
            + "and keep its inputs")
    void aMergeThatMeetsADamagedPageStopsWritesWithTheCorruptionAndLeavesTheInputs() throws IOException {
        Path store = dir.resolve("store");
        try (LsmStore s = LsmStore.open(store, options().build())) {
            for (int i = 0; i < KEYS; i++) {
                s.put(key(i), value(i));
                if (i == KEYS / 2) {
                    s.flush();
                }
            }
        }
        List<Path> tables = filesEndingWith(store, ".sst");
        assertThat(tables).hasSize(2);
        Path older = tables.get(0); // keys 0..150, in leaf page 0 onwards
        flip(older, 100);
        // Constant with k = 1 merges both tables as soon as the store opens.
        LsmStore s = LsmStore.open(store, options().policy("constant:k=1").build());
        try {
            assertThatThrownBy(s::awaitMerges).isInstanceOf(IOException.class)
                    .satisfies(e -> assertNamesFile(e.getCause(), older, Code.CHECKSUM_MISMATCH));
            assertThatThrownBy(() -> s.put(key(0), value(1))).isInstanceOf(IOException.class)
                    .hasMessageContaining("stopped taking writes")
                    .satisfies(e -> assertNamesFile(e.getCause(), older, Code.CHECKSUM_MISMATCH));
            assertThat(s.get(key(KEYS - 1))).as("reads go on").isEqualTo(value(KEYS - 1));
            assertThatThrownBy(() -> s.get(key(0))).satisfies(e -> assertNamesFile(e, older, null));
        } finally {
            s.close();
        }
        assertThat(filesEndingWith(store, ".sst")).as("the inputs stay; no output is left").isEqualTo(tables);
    }

    // ------------------------------------------------------------------------------------------------ WAL

    /**
     * A crash image with {@code n} acknowledged, unflushed single-put batches in one WAL segment: the files of a
     * store open in SYNC mode, copied while it is open (each acknowledged record is already fsynced; nothing is
     * written during the copy). Returns the image's WAL segment.
     */
    private Path crashImage(int n) throws IOException {
        Path live = dir.resolve("live");
        Path image = dir.resolve("image");
        try (LsmStore s = LsmStore.open(live, options().build())) {
            for (int i = 0; i < n; i++) {
                s.put(key(i), value(i));
            }
            copyStore(live, image);
        }
        List<Path> segments = filesEndingWith(image, ".log");
        assertThat(segments).as("WAL segments of the crash image").hasSize(1);
        assertThat(filesEndingWith(image, ".sst")).as("nothing was flushed").isEmpty();
        return segments.get(0);
    }

    /** Offsets of the records of a log file (WAL or manifest), in order, from its framing. */
    private static List<Long> recordOffsets(Path log) throws IOException {
        List<Long> starts = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ)) {
            long size = ch.size();
            long at = LOG_HEADER;
            while (at < size) {
                starts.add(at);
                ByteBuffer length = ByteBuffer.allocate(4);
                ch.read(length, at);
                at += 12 + length.flip().getInt();
            }
            assertThat(at).as("records of %s end at the end of the file", log).isEqualTo(size);
        }
        return starts;
    }

    @Test
    void anIntactCrashImageRecoversEveryAcknowledgedWrite() throws IOException {
        Path segment = crashImage(50);
        assertThat(recordOffsets(segment)).hasSize(50);
        try (LsmStore s = LsmStore.open(segment.getParent(), options().build())) {
            for (int i = 0; i < 50; i++) {
                assertThat(s.get(key(i))).as("key %d", i).isEqualTo(value(i));
            }
        }
    }

    @Test
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "damages a write-ahead-log record: what the open must name")
    void aDamagedWalRecordInTheMiddleOfASegmentFailsTheOpenNamingSegmentAndOffset() throws IOException {
        Path segment = crashImage(50);
        long record = recordOffsets(segment).get(25);
        flip(segment, record + 12 + 5); // a payload byte
        assertThatThrownBy(() -> LsmStore.open(segment.getParent(), options().build())).satisfies(e -> {
            assertNamesFile(e, segment, Code.CHECKSUM_MISMATCH);
            assertThat(((CorruptionException) e).offset()).isEqualTo(record);
        });
        flip(segment, record + 12 + 5);
        flip(segment, record + 1); // the length instead
        assertThatThrownBy(() -> LsmStore.open(segment.getParent(), options().build())).satisfies(e -> {
            assertNamesFile(e, segment, Code.BAD_LENGTH);
            assertThat(((CorruptionException) e).offset()).isEqualTo(record);
        });
    }

    @Test
    void aTornFinalWalRecordIsSkippedAndEveryRecordBeforeItRecovered() throws IOException {
        Path segment = crashImage(50);
        long last = recordOffsets(segment).get(49);
        long size = Files.size(segment);
        Path image = segment.getParent();
        Path truncated = copyStore(image, dir.resolve("truncated"));
        try (FileChannel ch = FileChannel.open(truncated.resolve(segment.getFileName()), StandardOpenOption.WRITE)) {
            ch.truncate(size - 3); // the crash cut the final write short
        }
        Path garbled = copyStore(image, dir.resolve("garbled"));
        flip(garbled.resolve(segment.getFileName()), last + 12 + 5); // final record whole in length, not in content
        for (Path store : List.of(truncated, garbled)) {
            for (int session = 0; session < 2; session++) {
                try (LsmStore s = LsmStore.open(store, options().build())) {
                    for (int i = 0; i < 49; i++) {
                        assertThat(s.get(key(i))).as("%s, session %d: key %d", store, session, i)
                                .isEqualTo(value(i));
                    }
                    assertThat(s.get(key(49))).as("%s: the torn write", store).isNull();
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ manifest

    /** A closed store whose manifest holds the creation snapshot and several edits (two flushes). */
    private Path storeWithEdits() throws IOException {
        Path store = dir.resolve("store");
        try (LsmStore s = LsmStore.open(store, options().build())) {
            for (int i = 0; i < 100; i++) {
                s.put(key(i), value(i));
                if (i == 49 || i == 99) {
                    s.flush();
                }
            }
        }
        return store;
    }

    private static Path manifestOf(Path store) throws IOException {
        String name = Files.readString(store.resolve("CURRENT"), US_ASCII).strip();
        return store.resolve(name);
    }

    @Test
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "damages manifest records: what the open must name")
    void aDamagedManifestRecordFailsTheOpenNamingManifestAndOffset() throws IOException {
        Path pristine = storeWithEdits();
        Path manifest = manifestOf(pristine);
        List<Long> records = recordOffsets(manifest);
        assertThat(records).as("manifest records").hasSizeGreaterThanOrEqualTo(3);
        // The final record too: a crash leaves it short (skipped as torn), never whole with other contents. Skipping
        // a whole damaged final edit would lose what followed it: here the second flush, whose WAL segment is gone.
        for (int r = 0; r < records.size(); r++) {
            long at = records.get(r);
            Path payload = copyStore(pristine, dir.resolve("payload-" + r));
            flip(payload.resolve(manifest.getFileName()), at + 12 + 2);
            assertThatThrownBy(() -> LsmStore.open(payload, options().build())).satisfies(e -> {
                assertNamesFile(e, payload.resolve(manifest.getFileName()), Code.CHECKSUM_MISMATCH);
                assertThat(((CorruptionException) e).offset()).isEqualTo(at);
            });
            Path length = copyStore(pristine, dir.resolve("length-" + r));
            flip(length.resolve(manifest.getFileName()), at + 2);
            assertThatThrownBy(() -> LsmStore.open(length, options().build())).satisfies(e -> {
                assertNamesFile(e, length.resolve(manifest.getFileName()), Code.BAD_LENGTH);
                assertThat(((CorruptionException) e).offset()).isEqualTo(at);
            });
        }
        try (LsmStore s = LsmStore.open(pristine, options().build())) {
            assertThat(s.get(key(99))).as("the undamaged original").isEqualTo(value(99));
        }
    }

    @Test
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "damages CURRENT: what the open must name")
    void aDamagedCurrentFileFailsTheOpenNamingIt() throws IOException {
        Path pristine = storeWithEdits();
        Path flipped = copyStore(pristine, dir.resolve("flipped"));
        flip(flipped.resolve("CURRENT"), 0);
        assertThatThrownBy(() -> LsmStore.open(flipped, options().build()))
                .satisfies(e -> assertNamesFile(e, flipped.resolve("CURRENT"), Code.BAD_MAGIC));
        Path dangling = copyStore(pristine, dir.resolve("dangling"));
        Files.writeString(dangling.resolve("CURRENT"), "MANIFEST-999999\n", US_ASCII);
        assertThatThrownBy(() -> LsmStore.open(dangling, options().build()))
                .satisfies(e -> assertNamesFile(e, dangling.resolve("CURRENT"), Code.MISSING_FILE))
                .hasMessageContaining("MANIFEST-999999");
    }

    // snippet:start skip-store-checks (docs/reliability.md shows these lines)
    @Test
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "deletes a live table: what the open must name")
    void aMissingSSTableListedByTheManifestFailsTheOpen() throws IOException {
        // snippet:end skip-store-checks
        Path store = storeWithEdits();
        List<Path> tables = filesEndingWith(store, ".sst");
        assertThat(tables).hasSize(2);
        Files.delete(tables.get(1));
        Path manifest = manifestOf(store);
        String number = tables.get(1).getFileName().toString().replace(".sst", "").replaceFirst("^0+", "");
        assertThatThrownBy(() -> LsmStore.open(store, options().build()))
                .satisfies(e -> assertNamesFile(e, manifest, Code.MISSING_FILE))
                .hasMessageContaining("[" + number + "]");
        assertThat(filesEndingWith(store, ".sst")).as("nothing was deleted").containsExactly(tables.get(0));
    }
}
