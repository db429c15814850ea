package io.lsmpolicies.lsm.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.SSTableMetadata;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.sstable.SSTableReader;
import io.lsmpolicies.lsm.sstable.SSTableWriter;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * {@link StoreInvariants} on small fixture test classes run through JUnit's engine test kit, with the extension
 * auto-detected and {@link RecordedTempDirs} as the default factory, as in the module's suite: each deliberately
 * broken invariant fails its fixture with a message naming the store directory and the check; a sound store, a
 * store closed in {@code @AfterEach} or shared by a class until {@code @AfterAll}, and a stated skip pass.
 */
class StoreInvariantsTest {
    /** The configuration parameter that enables the fixtures: set by {@link #run}, absent in the module's suite. */
    private static final String FIXTURE = "io.lsmpolicies.lsm.testing.fixture";
    private static final StoreOptions OPTIONS = StoreOptions.builder().walMode(SyncMode.OFF).policy("no-merge")
            .build();

    /** Runs {@code fixture} in a nested JUnit engine configured as the module's suite is. */
    private static Events run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture))
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .configurationParameter("junit.jupiter.tempdir.factory.default", RecordedTempDirs.class.getName())
                .configurationParameter(FIXTURE, "true")
                .execute().allEvents();
    }

    @Test
    void aStoreClosedByTheTestPasses() {
        run(ClosesItsStore.class).assertThatEvents().haveExactly(1, event(test(), finishedSuccessfully()));
    }

    @Test
    void aStoreLeftOpenIsReported() throws IOException {
        try {
            run(LeavesItsStoreOpen.class).assertThatEvents().haveExactly(1, event(test(), finishedWithFailure(
                    instanceOf(AssertionError.class), message(m -> m.contains(LeavesItsStoreOpen.dir + ": RELEASED: "
                            + "the store is still open (this process holds ") && m.contains("LOCK")))));
        } finally {
            LeavesItsStoreOpen.store.close();
            deleteTree(LeavesItsStoreOpen.dir.getParent());
        }
    }

    @Test
    void aTableReaderLeftOpenIsReported() throws IOException {
        try {
            run(LeaksATableReader.class).assertThatEvents().haveExactly(1, event(test(), finishedWithFailure(
                    instanceOf(AssertionError.class), message(m -> m.contains(LeaksATableReader.dir + ": RELEASED: "
                            + "the store is closed but this process still holds "
                            + LeaksATableReader.reader.path().getFileName() + " open")))));
        } finally {
            LeaksATableReader.reader.close();
        }
    }

    @Test
    void aDamagedTableIsReportedAfterTheAfterEachMethodsRan() {
        // The fixture damages a table in @AfterEach: the check runs after it, and before JUnit deletes the directory.
        run(DamagesATableInAfterEach.class).assertThatEvents().haveExactly(1, event(test(), finishedWithFailure(
                instanceOf(AssertionError.class), message(m -> m.contains(DamagesATableInAfterEach.store
                        + ": VERIFIER: " + DamagesATableInAfterEach.damaged + ": ")))));
    }

    @Test
    void overlappingTablesInALevelAreReportedOnceUnderTheLevelOrder() {
        run(OverlapsInLevelOne.class).assertThatEvents().haveExactly(1, event(test(), finishedWithFailure(
                instanceOf(AssertionError.class), message(m -> m.contains(OverlapsInLevelOne.dir
                        + ": LEVEL_ORDER: level 1: 000002.sst") && m.contains("overlaps 000003.sst")
                        && !m.contains("VERIFIER")))));
    }

    @Test
    void aStatedSkipPassesAndSkipsOnlyWhatItNames() throws IOException {
        try {
            Events events = run(SkipsTheVerifier.class);
            events.assertThatEvents().haveExactly(1, event(test("damagesATable"), finishedSuccessfully()));
            events.assertThatEvents().haveExactly(1, event(test("damagesATableAndLeaksItsReader"), finishedWithFailure(
                    instanceOf(AssertionError.class), message(m -> m.contains(": RELEASED: the store is closed but")
                            && !m.contains(": VERIFIER: ")
                            && m.contains("(skipped [VERIFIER]: damages a table: the damage is what it checks)")))));
        } finally {
            SkipsTheVerifier.reader.close();
        }
    }

    @Test
    void aSkipWithoutAReasonFails() {
        run(SkipsWithoutAReason.class).assertThatEvents().haveExactly(1, event(test(), finishedWithFailure(
                instanceOf(AssertionError.class), message(m -> m.startsWith("@SkipStoreChecks on ")
                        && m.contains("must name at least one check and the reason")))));
    }

    @Test
    void aClassDirectoryIsCheckedAfterTheClassNotAfterEachTest() {
        Events events = run(SharesAStoreAcrossTests.class);
        events.assertThatEvents().haveExactly(2, event(test(), finishedSuccessfully()));
        events.assertThatEvents().haveExactly(1, event(container(SharesAStoreAcrossTests.class), finishedWithFailure(
                instanceOf(AssertionError.class), message(m -> m.contains("after the tests of "
                        + SharesAStoreAcrossTests.class.getName()) && m.contains(SharesAStoreAcrossTests.store
                        + ": VERIFIER: ")))));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Fixtures: only run from the tests above (OnlyFromTheTestKit), never by the suite itself.

    /** Enables a fixture only inside {@link #run}. */
    static final class OnlyFromTheTestKit implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(FIXTURE).isPresent()
                    ? ConditionEvaluationResult.enabled("run by StoreInvariantsTest")
                    : ConditionEvaluationResult.disabled("a fixture of StoreInvariantsTest, which runs it itself");
        }
    }

    /** Opens a store, writes a table and closes the store. */
    static Path writeStore(Path dir) throws IOException {
        try (LsmStore store = LsmStore.open(dir, OPTIONS)) {
            for (int i = 0; i < 2000; i++) {
                store.put(String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII), new byte[100]);
            }
            store.flush();
        }
        return dir;
    }

    /** The store's table with the lowest number. */
    static Path firstTable(Path store) throws IOException {
        try (Stream<Path> files = Files.list(store)) {
            return files.filter(p -> p.toString().endsWith(".sst")).sorted().findFirst().orElseThrow();
        }
    }

    /** Flips one byte in the middle of the store's first table; its name. */
    static String damageATable(Path store) throws IOException {
        Path table = firstTable(store);
        try (FileChannel ch = FileChannel.open(table, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            long at = ch.size() / 2;
            ch.read(b, at);
            b.put(0, (byte) (b.get(0) ^ 0x5a)).rewind();
            ch.write(b, at);
        }
        return table.getFileName().toString();
    }

    static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @ExtendWith(OnlyFromTheTestKit.class)
    static class ClosesItsStore {
        @TempDir
        Path dir;
        LsmStore store;

        @BeforeEach
        void open() throws IOException {
            store = LsmStore.open(dir.resolve("store"), OPTIONS);
        }

        @Test
        void writes() throws IOException {
            store.put("k".getBytes(StandardCharsets.US_ASCII), new byte[10]);
            store.flush();
        }

        @AfterEach
        void close() throws IOException {
            store.close();
        }
    }

    @ExtendWith(OnlyFromTheTestKit.class)
    static class LeavesItsStoreOpen {
        static Path dir;
        static LsmStore store;

        @Test
        void forgetsToClose(@TempDir(cleanup = CleanupMode.NEVER) Path tmp) throws IOException {
            dir = tmp.resolve("store");
            store = LsmStore.open(dir, OPTIONS);
        }
    }

    @ExtendWith(OnlyFromTheTestKit.class)
    static class LeaksATableReader {
        static Path dir;
        static SSTableReader reader;

        @Test
        void readsATable(@TempDir Path tmp) throws IOException {
            dir = writeStore(tmp.resolve("store"));
            reader = SSTableReader.open(firstTable(dir));
        }
    }

    @ExtendWith(OnlyFromTheTestKit.class)
    static class DamagesATableInAfterEach {
        static Path store;
        static String damaged;
        @TempDir
        Path dir;

        @Test
        void writes() throws IOException {
            store = writeStore(dir.resolve("store"));
        }

        @AfterEach
        void damage() throws IOException {
            damaged = damageATable(store);
        }
    }

    @ExtendWith(OnlyFromTheTestKit.class)
    static class OverlapsInLevelOne {
        static Path dir;

        @Test
        void forgesALevel(@TempDir Path tmp) throws IOException {
            dir = tmp;
            TableRecord a = forgeTable(dir, 2, "b", 50);
            TableRecord b = forgeTable(dir, 3, "b", 20);
            ManifestEdit edit = ManifestEdit.builder().nextFileNumber(100).lastSequence(1000).addTable(a).addTable(b)
                    .build();
            try (Manifest m = Manifest.create(dir, ManifestEdit.builder().nextFileNumber(50).build()
                    .applyTo(ComponentSet.empty()))) {
                m.append(edit);
            }
            // The lock file a store's open leaves, since the checks look at directories a store was opened in
            // (LsmStore.open itself refuses this level).
            Files.createFile(dir.resolve(LsmStore.LOCK_FILE));
        }
    }

    @ExtendWith(OnlyFromTheTestKit.class)
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "damages a table: the damage is what it checks")
    static class SkipsTheVerifier {
        static SSTableReader reader;

        @Test
        void damagesATable(@TempDir Path tmp) throws IOException {
            damageATable(writeStore(tmp.resolve("store")));
        }

        @Test
        void damagesATableAndLeaksItsReader(@TempDir Path tmp) throws IOException {
            Path store = writeStore(tmp.resolve("store"));
            damageATable(store);
            reader = SSTableReader.open(firstTable(store));
        }
    }

    @ExtendWith(OnlyFromTheTestKit.class)
    static class SkipsWithoutAReason {
        @Test
        @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = " ")
        void saysNothing() {
        }
    }

    @ExtendWith(OnlyFromTheTestKit.class)
    static class SharesAStoreAcrossTests {
        @TempDir
        static Path shared;
        static Path store;
        static LsmStore lsm;

        @BeforeAll
        static void open() throws IOException {
            store = shared.resolve("store");
            lsm = LsmStore.open(store, OPTIONS);
        }

        @Test
        void writesOnce() throws IOException {
            lsm.put("a".getBytes(StandardCharsets.US_ASCII), new byte[100]);
            lsm.flush();
        }

        @Test
        void writesAgain() throws IOException {
            lsm.put("b".getBytes(StandardCharsets.US_ASCII), new byte[100]);
            lsm.flush();
        }

        @AfterAll
        static void closeAndDamage() throws IOException {
            lsm.close();
            damageATable(store);
        }
    }

    /** Writes table {@code n} of {@code count} keys {@code prefix0000..} (sequences from 1) into {@code dir}. */
    static TableRecord forgeTable(Path dir, long n, String prefix, int count) throws IOException {
        Path path = dir.resolve(StoreFiles.tableName(n));
        SSTableMetadata meta;
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(path, options, n, n, 1_700_000_000_000L)) {
            for (int i = 0; i < count; i++) {
                byte[] key = String.format("%s%04d", prefix, i).getBytes(StandardCharsets.US_ASCII);
                w.add(Entry.put(key, n * 100 + i, new byte[8]));
            }
            meta = w.finish(Long.MAX_VALUE);
        }
        return new TableRecord(n, 1, Files.size(path), meta.entries(), meta.tombstones(), meta.minKey(),
                meta.maxKey(), meta.minSequence(), meta.maxSequence(), meta.minFlushIndex(), meta.maxFlushIndex(),
                meta.createdMillis(), meta.oldestTombstoneMillis(), meta.dataBytes());
    }
}
