package io.lsmpolicies.lsm.manifest;

import static io.lsmpolicies.lsm.manifest.Tables.flush;
import static io.lsmpolicies.lsm.manifest.Tables.merge;
import static io.lsmpolicies.lsm.manifest.Tables.table;
import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.testing.SkipStoreChecks;
import io.lsmpolicies.lsm.testing.StoreCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files a store does not reference after a crash: reported, deleted, and never reused by number. */
class ManifestOrphansTest {
    @TempDir
    Path dir;

    /** A store whose live tables are 6, 7, 9, 11 (level 0, newest first) and 10 (level 1); next number 12. */
    private void writeStore() throws IOException {
        try (Manifest m = Manifest.create(dir, ComponentSet.empty())) {
            for (long n = 2; n <= 7; n++) {
                m.append(flush(n));
            }
            m.append(merge(8, 5, 4, 3));
            m.append(flush(9));
            m.append(merge(10, 8, 2));
            m.append(ManifestEdit.builder().removeFile(10).addTable(table(10, 1, "a", "z")).build());
            m.append(flush(11));
        }
    }

    private List<String> manifests() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("MANIFEST-")).sorted()
                    .toList();
        }
    }

    @Test
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "a hand-written manifest whose tables were never written, "
            + "beside a foreign LOCK file")
    void orphansAreReportedAndDeletedAndForeignFilesAreLeftAlone() throws IOException {
        writeStore();
        Files.createDirectory(dir.resolve("dir.tmp"));
        for (long n : new long[] {11, 9, 7, 6, 10}) {
            Files.createFile(dir.resolve(StoreFiles.tableName(n)));
        }
        Files.delete(dir.resolve(StoreFiles.tableName(6)));
        List<String> orphans = List.of("000003.sst", "000050.sst", "CURRENT.tmp", "MANIFEST-000040", "x.tmp");
        for (String name : orphans) {
            Files.createFile(dir.resolve(name));
        }
        List<String> foreign = List.of("5.sst", "LOCK", "MANIFEST-7", "MANIFEST-abc", "notes.txt");
        for (String name : foreign) {
            Files.createFile(dir.resolve(name));
        }

        Recovered r = Manifest.recover(dir);
        assertThat(r.orphans()).containsExactlyElementsOf(orphans.stream().map(dir::resolve).toList());
        assertThat(r.missingTables()).containsExactly(6L);
        assertThat(r.nextFreeFileNumber()).isEqualTo(51);
        assertThat(r.deleteOrphans(io.lsmpolicies.lsm.io.FileLayer.plain())).isEqualTo(orphans.size());
        assertThat(r.deleteOrphans(io.lsmpolicies.lsm.io.FileLayer.plain())).isZero();
        for (String name : orphans) {
            assertThat(Files.exists(dir.resolve(name))).as(name).isFalse();
        }
        for (String name : foreign) {
            assertThat(Files.exists(dir.resolve(name))).as(name).isTrue();
        }
        assertThat(Files.isDirectory(dir.resolve("dir.tmp"))).isTrue();
        Recovered again = Manifest.recover(dir);
        assertThat(again.orphans()).isEmpty();
        assertThat(again.set()).isEqualTo(r.set());
    }

    /** A crash after a roll wrote its new manifest but before CURRENT moved: the new file is an orphan. */
    @Test
    void aManifestLeftByACrashedRollIsAnOrphanAndItsNumberIsNotReused() throws IOException {
        ComponentSet live;
        try (Manifest m = Manifest.create(dir, ComponentSet.empty())) {
            m.append(flush(2));
            live = m.current();
        }
        String stray = StoreFiles.manifestName(live.nextFileNumber());
        Files.copy(dir.resolve("MANIFEST-000001"), dir.resolve(stray));
        Files.writeString(dir.resolve("CURRENT.tmp"), stray + "\n");
        Recovered r = Manifest.recover(dir);
        assertThat(r.set()).isEqualTo(live);
        assertThat(r.orphans()).containsExactly(dir.resolve("CURRENT.tmp"), dir.resolve(stray));
        try (Manifest m = Manifest.reopen(r, ManifestOptions.DEFAULTS)) {
            assertThat(m.path().getFileName().toString()).isEqualTo(StoreFiles.manifestName(
                    live.nextFileNumber() + 1));
            assertThat(m.newFileNumber()).isEqualTo(live.nextFileNumber() + 2);
            r.deleteOrphans(io.lsmpolicies.lsm.io.FileLayer.plain());
            assertThat(Files.exists(m.path())).isTrue();
        }
        assertThat(manifests()).hasSize(1);
        assertThat(Manifest.recover(dir).set().level(0)).isEqualTo(live.level(0));
    }
}
