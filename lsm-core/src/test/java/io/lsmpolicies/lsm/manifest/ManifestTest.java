package io.lsmpolicies.lsm.manifest;

import static io.lsmpolicies.lsm.manifest.Tables.flush;
import static io.lsmpolicies.lsm.manifest.Tables.merge;
import static io.lsmpolicies.lsm.manifest.Tables.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manifest's files: create, append, recover, roll, reopen, orphans. */
class ManifestTest {
    @TempDir
    Path dir;

    /** Flushes 1..6 (as file numbers 2..7, MANIFEST-000001 holding number 1), merges and a policy update. */
    private static List<ManifestEdit> history() {
        List<ManifestEdit> edits = new ArrayList<>();
        for (long n = 2; n <= 7; n++) {
            edits.add(flush(n));
        }
        edits.add(merge(8, 5, 4, 3));
        edits.add(flush(9));
        edits.add(merge(10, 8, 2));
        edits.add(ManifestEdit.builder().removeFile(10).addTable(table(10, 1, "a", "z")).walNumber(3)
                .policy("binomial", new byte[] {1, 0, 0, 0, 9}).build());
        edits.add(flush(11));
        return edits;
    }

    private List<String> manifests() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("MANIFEST-")).sorted()
                    .toList();
        }
    }

    private static List<Long> level0(ComponentSet set) {
        return set.level(0).stream().map(TableRecord::fileNumber).toList();
    }

    @Test
    void createWritesASnapshotManifestAndPointsCurrentAtIt() throws IOException {
        ComponentSet initial = ComponentSet.empty().apply(ManifestEdit.builder().nextFileNumber(5)
                .addTable(table(4, 2, "a", "b")).lastSequence(10).build());
        try (Manifest m = Manifest.create(dir, initial)) {
            assertThat(m.path()).isEqualTo(dir.resolve("MANIFEST-000005"));
            assertThat(m.current()).isEqualTo(initial.apply(ManifestEdit.builder().nextFileNumber(6).build()));
        }
        assertThat(Files.readString(dir.resolve("CURRENT"))).isEqualTo("MANIFEST-000005\n");
        assertThat(Files.exists(dir.resolve("CURRENT.tmp"))).isFalse();
        Recovered r = Manifest.recover(dir);
        assertThat(r.set().level(2)).containsExactly(table(4, 2, "a", "b"));
        assertThat(r.set().nextFileNumber()).isEqualTo(6);
        assertThat(r.tail().torn()).isFalse();
        assertThatThrownBy(() -> Manifest.create(dir, ComponentSet.empty()))
                .isInstanceOf(FileAlreadyExistsException.class).hasMessageContaining("already holds a store");
    }

    @Test
    void replayEqualsTheSameEditsAppliedInMemoryAndCurrent() throws IOException {
        ComponentSet expected;
        ComponentSet live;
        try (Manifest m = Manifest.create(dir, ComponentSet.empty())) {
            expected = m.current();
            for (ManifestEdit e : history()) {
                m.append(e);
                expected = expected.apply(e);
                assertThat(m.current()).isEqualTo(expected);
            }
            live = m.current();
        }
        assertThat(level0(expected)).containsExactly(11L, 9L, 7L, 6L);
        assertThat(expected.level(1)).containsExactly(table(10, 1, "a", "z"));
        Recovered r = Manifest.recover(dir);
        assertThat(r.set()).isEqualTo(live).isEqualTo(expected);
        assertThat(r.set().policy().orElseThrow().name()).isEqualTo("binomial");
        assertThat(r.set().walNumber()).isEqualTo(3);
        assertThat(r.manifest()).isEqualTo(dir.resolve("MANIFEST-000001"));
    }

    @Test
    void anEditThatDoesNotApplyIsRefusedAndNothingIsWritten() throws IOException {
        try (Manifest m = Manifest.create(dir, ComponentSet.empty())) {
            m.append(flush(2));
            long size = Files.size(m.path());
            ComponentSet before = m.current();
            assertThatThrownBy(() -> m.append(merge(3, 2, 99))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("removes file 99");
            assertThat(Files.size(m.path())).isEqualTo(size);
            assertThat(m.current()).isEqualTo(before);
            m.append(flush(3));
            assertThat(level0(m.current())).containsExactly(3L, 2L);
        }
    }

    @Test
    void handedOutFileNumbersAreLoggedAndNeverReused() throws IOException {
        try (Manifest m = Manifest.create(dir, ComponentSet.empty())) {
            long a = m.newFileNumber();
            long b = m.newFileNumber();
            assertThat(a).isEqualTo(2);
            assertThat(b).isEqualTo(3);
            m.append(ManifestEdit.builder().addTable(Tables.flushed(a)).build());
            assertThat(m.current().nextFileNumber()).isEqualTo(4);
            m.append(ManifestEdit.builder().nextFileNumber(10).build());
            assertThat(m.newFileNumber()).isEqualTo(10);
        }
        assertThat(Manifest.recover(dir).set().nextFileNumber()).isEqualTo(10);
    }

    /** A flush of a table numbered by the manifest; returns its number. */
    private static long flushNew(Manifest m) throws IOException {
        long n = m.newFileNumber();
        m.append(ManifestEdit.builder().addTable(Tables.flushed(n)).lastSequence(100 * n + 9).build());
        return n;
    }

    /**
     * Drives {@code m} through {@code steps} flushes, merging the 3 newest level-0 tables after every 4th flush
     * and updating the policy state every 5th; after each step calls {@code check} with the level-0 model
     * (newest first).
     */
    private static void drive(Manifest m, int steps, StepCheck check) throws IOException {
        List<Long> model = new ArrayList<>();
        for (int step = 1; step <= steps; step++) {
            model.add(0, flushNew(m));
            if (step % 4 == 0) {
                long out = m.newFileNumber();
                m.append(merge(out, model.get(0), model.get(1), model.get(2)));
                model.subList(0, 3).clear();
                model.add(0, out);
            }
            if (step % 5 == 0) {
                m.append(ManifestEdit.builder().policy("binomial", new byte[] {1, (byte) step}).build());
            }
            check.after(step, model);
        }
    }

    private interface StepCheck {
        void after(int step, List<Long> level0) throws IOException;
    }

    @Test
    void rollingKeepsTheStateAndRemovesTheOldManifest() throws IOException {
        List<String> seen = new ArrayList<>();
        try (Manifest m = Manifest.create(dir, ComponentSet.empty(), new ManifestOptions(600))) {
            drive(m, 40, (step, model) -> {
                String name = m.path().getFileName().toString();
                if (!seen.contains(name)) {
                    seen.add(name);
                }
                assertThat(manifests()).containsExactly(name);
                assertThat(Files.readString(dir.resolve("CURRENT"))).isEqualTo(name + "\n");
                assertThat(level0(m.current())).isEqualTo(model);
            });
            assertThat(seen).as("rolled at least twice").hasSizeGreaterThan(2);
            assertThat(Manifest.recover(dir).set()).isEqualTo(m.current());
            assertThat(m.current().policy().orElseThrow().state()).containsExactly(1, 40);
        }
    }

    @Test
    void rollingOnEveryAppendStillRecoversEveryState() throws IOException {
        try (Manifest m = Manifest.create(dir, ComponentSet.empty(), new ManifestOptions(1))) {
            Path[] before = {m.path()};
            drive(m, 12, (step, model) -> {
                assertThat(m.path()).isNotEqualTo(before[0]);
                assertThat(Files.exists(before[0])).isFalse();
                before[0] = m.path();
                Recovered r = Manifest.recover(dir);
                assertThat(r.set()).isEqualTo(m.current());
                assertThat(level0(r.set())).isEqualTo(model);
            });
        }
        assertThat(manifests()).hasSize(1);
    }

    @Test
    void aTableMayNotTakeTheLiveManifestsNumber() throws IOException {
        try (Manifest m = Manifest.create(dir, ComponentSet.empty().apply(ManifestEdit.builder()
                .nextFileNumber(5).build()))) {
            assertThatThrownBy(() -> m.append(ManifestEdit.builder().addTable(Tables.flushed(5)).build()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("live manifest's own number");
            assertThat(m.current().tableCount()).isZero();
        }
    }

    @Test
    void reopenContinuesInANewManifestAndDeletesTheOldOne() throws IOException {
        try (Manifest m = Manifest.create(dir, ComponentSet.empty())) {
            for (ManifestEdit e : history().subList(0, 5)) {
                m.append(e);
            }
        }
        Recovered first = Manifest.recover(dir);
        ComponentSet afterReopen;
        try (Manifest m = Manifest.reopen(first, ManifestOptions.DEFAULTS)) {
            assertThat(m.path()).isNotEqualTo(first.manifest());
            assertThat(Files.exists(first.manifest())).isFalse();
            assertThat(m.current().level(0)).isEqualTo(first.set().level(0));
            assertThat(m.path()).isEqualTo(dir.resolve("MANIFEST-000007"));
            assertThat(flushNew(m)).isEqualTo(8);
            assertThat(flushNew(m)).isEqualTo(9);
            m.append(merge(m.newFileNumber(), 9, 8, 6));
            afterReopen = m.current();
        }
        assertThat(Manifest.recover(dir).set()).isEqualTo(afterReopen);
        assertThat(level0(afterReopen)).containsExactly(10L, 5L, 4L, 3L, 2L);
        assertThat(manifests()).hasSize(1);
    }

    @Test
    void afterAnIoFailureTheManifestRefusesEveryAppend() throws IOException {
        Path store = Files.createDirectory(dir.resolve("store"));
        try (Manifest m = Manifest.create(store, ComponentSet.empty(), new ManifestOptions(1))) {
            flushNew(m);
            ComponentSet before = m.current();
            try (Stream<Path> files = Files.list(store)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(store);
            Throwable first = org.assertj.core.api.Assertions.catchThrowable(() -> flushNew(m));
            assertThat(first).isInstanceOf(IOException.class);
            assertThatThrownBy(() -> flushNew(m)).isInstanceOf(IOException.class)
                    .hasMessageContaining("failed earlier").hasMessageContaining(first.getMessage())
                    .hasCause(first);
            assertThat(m.current()).isEqualTo(before);
        }
    }

    @Test
    void aClosedManifestRefusesAppends() throws IOException {
        Manifest m = Manifest.create(dir, ComponentSet.empty());
        m.close();
        m.close();
        assertThatThrownBy(() -> m.append(flush(2))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(m::newFileNumber).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void namesAndOptionsAreChecked() {
        assertThat(StoreFiles.tableName(42)).isEqualTo("000042.sst");
        assertThat(StoreFiles.manifestName(1234567)).isEqualTo("MANIFEST-1234567");
        assertThat(StoreFiles.tableNumber("000042.sst")).hasValue(42);
        assertThat(StoreFiles.tableNumber("42.sst")).isEmpty();
        assertThat(StoreFiles.tableNumber("000000.sst")).isEmpty();
        assertThat(StoreFiles.manifestNumber("MANIFEST-000007")).hasValue(7);
        assertThat(StoreFiles.manifestNumber("MANIFEST-99999999999999999999")).isEmpty();
        assertThatThrownBy(() -> StoreFiles.tableName(0)).hasMessageContaining("> 0");
        assertThatThrownBy(() -> new ManifestOptions(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rollBytes must be >= 1, was 0");
        assertThat(ManifestOptions.DEFAULTS.rollBytes()).isEqualTo(4L << 20);
    }
}
