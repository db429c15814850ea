package io.lsmpolicies.lsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lsmpolicies.lsm.EngineTestSupport;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.sstable.PackedLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/lsm verify} on a loaded store: sound, then with each kind of damage. */
class CliVerifyTest {
    /** One loaded store, copied for each test (loading takes a second or two). */
    @TempDir
    static Path shared;
    private static Path template;

    @TempDir
    Path tmp;
    private Path dir;

    @BeforeAll
    static void loadOnce() {
        template = shared.resolve("template");
        CliRunner.Result load = CliRunner.run("load", "--dir", template, "--records", 2500, "--value-size", 50,
                "--key-order", "ordered", "--memtable-size", "16KB", "--wal", "async", "--policy", "binomial",
                "--param", "k=4");
        assertThat(load.exit()).as(load.err()).isZero();
    }

    @BeforeEach
    void copyTemplate() throws Exception {
        dir = tmp.resolve("db");
        EngineTestSupport.copyStore(template, dir);
        assertThat(tables()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(verify().exit()).isZero();
    }

    private CliRunner.Result verify() {
        return CliRunner.run("verify", "--dir", dir);
    }

    private List<Path> tables() {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(p -> p.toString().endsWith(".sst")).sorted().forEach(out::add);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    private static void flip(Path file, long offset) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) offset] ^= 0x10;
        Files.write(file, bytes);
    }

    private static List<String> problems(CliRunner.Result r) {
        List<String> out = new ArrayList<>();
        r.json().get("problems").forEach(p -> out.add(p.asText()));
        return out;
    }

    @Test
    void aFlippedByteInAnSSTablePageIsAProblem() throws Exception {
        Path table = tables().get(0);
        long page1 = PackedLayout.pageStarts(Files.readAllBytes(table))[1];
        flip(table, page1 + 100); // inside page 1 (a leaf: every table here has several)
        CliRunner.Result r = verify();
        assertThat(r.exit()).isEqualTo(1);
        JsonNode report = r.json();
        assertThat(report.get("ok").asBoolean()).isFalse();
        assertThat(problems(r)).anyMatch(p -> p.startsWith(table.getFileName() + ": offset " + page1
                + ": page 1 checksum mismatch"));
        assertThat(report.get("tables")).anyMatch(t -> !t.get("ok").asBoolean());
    }

    @Test
    void aFlippedByteInTheLastPageOfAnSSTableIsAProblem() throws Exception {
        Path table = tables().get(tables().size() - 1);
        long[] starts = PackedLayout.pageStarts(Files.readAllBytes(table));
        flip(table, starts[starts.length - 2] + 7); // the last page: metadata
        CliRunner.Result r = verify();
        assertThat(r.exit()).isEqualTo(1);
        assertThat(problems(r)).anyMatch(p -> p.startsWith(table.getFileName() + ": cannot open")
                && p.contains("CHECKSUM_MISMATCH"));
    }

    @Test
    void aFlippedByteInTheManifestIsAProblem() throws Exception {
        String manifest = Files.readString(dir.resolve(StoreFiles.CURRENT), StandardCharsets.US_ASCII).strip();
        flip(dir.resolve(manifest), 20 + 12 + 3); // inside the first record (the snapshot); more records follow
        CliRunner.Result r = verify();
        assertThat(r.exit()).isEqualTo(1);
        assertThat(problems(r)).singleElement().asString().startsWith("manifest: ").contains(manifest)
                .contains("CHECKSUM_MISMATCH");
    }

    @Test
    void aDamagedCurrentPointerIsAProblem() throws Exception {
        Files.writeString(dir.resolve(StoreFiles.CURRENT), "MANIFEST-9x\n");
        CliRunner.Result r = verify();
        assertThat(r.exit()).isEqualTo(1);
        assertThat(problems(r)).singleElement().asString().contains("BAD_MAGIC");
    }

    @Test
    void aTableReplacedByAnotherDisagreesWithTheManifest() throws Exception {
        List<Path> tables = tables();
        Path victim = tables.get(0);
        Files.copy(tables.get(1), victim, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        CliRunner.Result r = verify();
        assertThat(r.exit()).isEqualTo(1);
        assertThat(problems(r)).anyMatch(p -> p.startsWith(victim.getFileName() + ": the file's metadata differs "
                + "from the manifest's record") && p.contains("minSequence"));
    }

    @Test
    void aMissingTableIsAProblem() throws Exception {
        Path victim = tables().get(0);
        Files.delete(victim);
        CliRunner.Result r = verify();
        assertThat(r.exit()).isEqualTo(1);
        assertThat(problems(r)).anyMatch(p -> p.equals(victim.getFileName() + ": listed by the manifest at level 0 "
                + "but missing"));
    }

    @Test
    void aTruncatedTableIsAProblem() throws Exception {
        Path victim = tables().get(0);
        byte[] bytes = Files.readAllBytes(victim);
        Files.write(victim, java.util.Arrays.copyOf(bytes, bytes.length - 100));
        CliRunner.Result r = verify();
        assertThat(r.exit()).isEqualTo(1);
        assertThat(problems(r)).anyMatch(p -> p.startsWith(victim.getFileName() + ": the file has "
                + (bytes.length - 100) + " bytes, the manifest records " + bytes.length));
    }

    @Test
    void anOrphanIsOnlyAWarning() throws Exception {
        Files.copy(tables().get(0), dir.resolve(StoreFiles.tableName(999_999)));
        Files.write(dir.resolve("CURRENT.tmp"), new byte[3]);
        CliRunner.Result r = verify();
        assertThat(r.exit()).as(r.out()).isZero();
        List<String> warnings = new ArrayList<>();
        r.json().get("warnings").forEach(w -> warnings.add(w.asText()));
        assertThat(warnings).containsExactly(
                "999999.sst: orphan, not referenced by the manifest (the next open deletes it)",
                "CURRENT.tmp: orphan, not referenced by the manifest (the next open deletes it)");
        // Verify changed nothing: the orphans are still there.
        assertThat(dir.resolve("CURRENT.tmp")).exists();
    }

    @Test
    void verifyWritesNothing() throws Exception {
        List<String> before = listing();
        long manifestBytes = Files.size(dir.resolve(Files.readString(dir.resolve(StoreFiles.CURRENT)).strip()));
        assertThat(verify().exit()).isZero();
        assertThat(listing()).isEqualTo(before);
        assertThat(Files.size(dir.resolve(Files.readString(dir.resolve(StoreFiles.CURRENT)).strip())))
                .isEqualTo(manifestBytes);
    }

    private List<String> listing() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
