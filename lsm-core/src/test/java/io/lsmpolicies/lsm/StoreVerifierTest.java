package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.SSTableMetadata;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.sstable.SSTableWriter;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StoreVerifier}'s manifest-consistency rules on component sets forged through the manifest API (an engine
 * never writes them), and write-ahead-log damage in a crash image.
 */
class StoreVerifierTest {
    @TempDir
    Path dir;

    /** Writes table {@code n} with keys {@code prefix0000..} and sequences from {@code firstSequence}. */
    private TableRecord table(long n, int level, String prefix, int count, long firstSequence) throws Exception {
        Path path = dir.resolve(StoreFiles.tableName(n));
        SSTableMetadata meta;
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(path, options, n, n, 1_700_000_000_000L)) {
            for (int i = 0; i < count; i++) {
                byte[] key = String.format("%s%04d", prefix, i).getBytes(StandardCharsets.US_ASCII);
                w.add(Entry.put(key, firstSequence + i, new byte[8]));
            }
            meta = w.finish(Long.MAX_VALUE);
        }
        return TableBuilder.record(n, level, Files.size(path), meta);
    }

    private void install(long lastSequence, TableRecord... tables) throws Exception {
        ManifestEdit.Builder edit = ManifestEdit.builder().nextFileNumber(100).lastSequence(lastSequence);
        for (TableRecord t : tables) {
            edit.addTable(t);
        }
        // The manifest takes its own number from the initial set's counter: above the tables' numbers.
        ComponentSet initial = ManifestEdit.builder().nextFileNumber(50).build().applyTo(ComponentSet.empty());
        try (Manifest m = Manifest.create(dir, initial)) {
            m.append(edit.build());
        }
    }

    @Test
    void aSoundForgedSetPasses() throws Exception {
        install(1000, table(1, 0, "a", 50, 1), table(2, 1, "b", 50, 100), table(3, 1, "c", 50, 200));
        StoreVerifier.Report report = StoreVerifier.verify(dir);
        assertThat(report.problems()).isEmpty();
        assertThat(report.warnings()).isEmpty();
        assertThat(report.tables()).extracting(StoreVerifier.TableCheck::entries).containsExactly(50L, 50L, 50L);
    }

    @Test
    void overlappingTablesInADeeperLevelAreAProblem() throws Exception {
        install(1000, table(2, 1, "b", 50, 100), table(3, 1, "b", 20, 200));
        StoreVerifier.Report report = StoreVerifier.verify(dir);
        assertThat(report.problems()).singleElement().asString().startsWith("level 1: 000002.sst")
                .contains("overlaps 000003.sst");
        assertThat(report.levelOrder()).isEqualTo(report.problems());
    }

    @Test
    void levelZeroSequenceRangesMustDecreaseFromNewestToOldest() throws Exception {
        // Added oldest first, so table 2 is listed newest; but its sequences are below table 1's.
        install(1000, table(1, 0, "a", 50, 500), table(2, 0, "a", 50, 1));
        StoreVerifier.Report report = StoreVerifier.verify(dir);
        assertThat(report.problems()).singleElement().asString().startsWith("level 0: 000002.sst (sequences 1..50) "
                + "is listed as newer than 000001.sst (sequences 500..549)");
    }

    @Test
    void sequencesAboveTheManifestsLastSequenceAreAProblem() throws Exception {
        install(10, table(1, 0, "a", 50, 1));
        assertThat(StoreVerifier.verify(dir).problems()).singleElement().asString()
                .contains("sequence numbers up to 50 are above the manifest's lastSequence 10");
    }

    @Test
    void aRecordThatDisagreesWithItsFileIsAProblem() throws Exception {
        TableRecord real = table(1, 0, "a", 50, 1);
        TableRecord wrong = new TableRecord(1, 0, real.fileBytes(), 49, 0, real.minKey(), real.maxKey(), 1, 50, 1,
                1, real.createdMillis(), Long.MAX_VALUE, real.dataBytes());
        install(1000, wrong);
        assertThat(StoreVerifier.verify(dir).problems()).singleElement().asString()
                .isEqualTo("000001.sst: the file's metadata differs from the manifest's record: entries 50 in the "
                        + "file, 49 in the manifest");
    }

    @Test
    void aDamagedWriteAheadLogRecordIsAProblemAndATornTailAWarning() throws Exception {
        Path live = dir.resolve("live");
        Path image = dir.resolve("image");
        try (LsmStore store = LsmStore.open(live, StoreOptions.builder().walMode(SyncMode.SYNC).build())) {
            for (int i = 0; i < 50; i++) {
                store.put(("key" + i).getBytes(StandardCharsets.US_ASCII), new byte[30]);
            }
            EngineTestSupport.copyStore(live, image);
        }
        Path segment;
        try (Stream<Path> files = Files.list(image)) {
            segment = files.filter(p -> p.toString().endsWith(".log")).findFirst().orElseThrow();
        }
        StoreVerifier.Report sound = StoreVerifier.verify(image);
        assertThat(sound.ok()).isTrue();
        assertThat(sound.walRecords()).isEqualTo(50);

        byte[] bytes = Files.readAllBytes(segment);
        Files.write(segment, java.util.Arrays.copyOf(bytes, bytes.length - 5));
        StoreVerifier.Report torn = StoreVerifier.verify(image);
        assertThat(torn.ok()).isTrue();
        assertThat(torn.walRecords()).isEqualTo(49);
        assertThat(torn.warnings()).singleElement().asString().startsWith(segment.getFileName() + ": ends torn");

        bytes[20 + 12 + 2] ^= 1; // inside the first record; 49 more follow
        Files.write(segment, bytes);
        StoreVerifier.Report damaged = StoreVerifier.verify(image);
        assertThat(damaged.ok()).isFalse();
        assertThat(damaged.problems()).singleElement().asString().startsWith(segment.getFileName() + ": ")
                .contains("CHECKSUM_MISMATCH");
    }


    @Test
    void listsTablesLevelZeroNewestFirst() throws Exception {
        install(1000, table(1, 0, "a", 10, 1), table(2, 0, "a", 10, 20));
        assertThat(StoreVerifier.verify(dir).tables()).extracting(StoreVerifier.TableCheck::fileNumber)
                .isEqualTo(List.of(2L, 1L));
    }
}
