package io.lsmpolicies.lsm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Opening a store when the manifest cannot be written (a full disk): the error names the file, and no empty or
 * partial manifest (nor {@code CURRENT.tmp}) is left behind.
 */
class OpenOnFullDiskTest {
    @TempDir
    Path tmp;

    private static final StoreOptions OPTIONS = StoreOptions.builder().walMode(SyncMode.SYNC).policy("no-merge")
            .build();

    /** ENOSPC on every write and sync of files whose name starts with {@code prefix}. */
    private static FaultHook fullFor(String prefix) {
        return new FaultHook() {
            @Override
            public void before(FileOp op, Path path) throws IOException {
                if ((op == FileOp.WRITE || op == FileOp.SYNC) && path.getFileName().toString().startsWith(prefix)) {
                    throw new IOException("No space left on device");
                }
            }
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"MANIFEST-", "CURRENT.tmp"})
    void aManifestThatCannotBeWrittenAtOpenIsNamedAndNotLeftBehind(String failing) throws Exception {
        Path dir = tmp.resolve("db");
        try (LsmStore store = LsmStore.open(dir, OPTIONS)) {
            store.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
        }
        TreeMap<String, byte[]> before = DirectoryContents.of(dir);

        assertThatThrownBy(() -> LsmStore.open(dir, OPTIONS, FileLayer.withFaults(fullFor(failing))))
                .isInstanceOf(IOException.class)
                .hasMessageMatching("(?s).*cannot write the manifest .*MANIFEST-\\d{6}.*No space left on device.*");

        DirectoryContents.assertSame(before, DirectoryContents.of(dir));
        try (LsmStore store = LsmStore.open(dir, OPTIONS)) {
            assertThat(store.get("k".getBytes(UTF_8))).isEqualTo("v".getBytes(UTF_8));
        }
    }

    @Test
    void aLogSegmentThatCannotBeCreatedAtOpenIsNamedAndNotLeftBehind() throws Exception {
        Path dir = tmp.resolve("db");
        try (LsmStore store = LsmStore.open(dir, OPTIONS)) {
            store.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
        }
        java.util.Set<String> logsBefore = DirectoryContents.of(dir).keySet().stream().filter(n -> n.endsWith(".log"))
                .collect(java.util.stream.Collectors.toSet());
        FaultHook fullForNewLogs = new FaultHook() {
            @Override
            public void before(FileOp op, Path path) throws IOException {
                String name = path.getFileName().toString();
                if (op == FileOp.WRITE && name.endsWith(".log") && !logsBefore.contains(name)) {
                    throw new IOException("No space left on device");
                }
            }
        };

        assertThatThrownBy(() -> LsmStore.open(dir, OPTIONS, FileLayer.withFaults(fullForNewLogs)))
                .hasMessageMatching("(?s).*cannot create the write-ahead-log segment .*\\d{6}\\.log \\(removed\\): "
                        + "No space left on device.*");

        assertThat(DirectoryContents.of(dir).keySet().stream().filter(n -> n.endsWith(".log"))).hasSameElementsAs(logsBefore);
        try (LsmStore store = LsmStore.open(dir, OPTIONS)) {
            assertThat(store.get("k".getBytes(UTF_8))).isEqualTo("v".getBytes(UTF_8));
        }
    }

    @Test
    void aCreationThatCannotWriteItsManifestLeavesAnEmptyDirectory() throws Exception {
        Path dir = tmp.resolve("db");
        assertThatThrownBy(() -> LsmStore.open(dir, OPTIONS, FileLayer.withFaults(fullFor("MANIFEST-"))))
                .hasMessageContaining("MANIFEST-000001").hasMessageContaining("No space left on device");
        assertThat(DirectoryContents.of(dir)).isEmpty();
        try (LsmStore store = LsmStore.open(dir, OPTIONS)) {
            store.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
        }
        assertThat(Files.exists(dir.resolve("CURRENT"))).isTrue();
    }
}
