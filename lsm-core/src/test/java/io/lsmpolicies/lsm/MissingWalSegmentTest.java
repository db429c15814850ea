package io.lsmpolicies.lsm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.testing.SkipStoreChecks;
import io.lsmpolicies.lsm.testing.StoreCheck;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The live write-ahead-log segment holds the writes no table holds yet, and the manifest records that it exists:
 * a store without it is refused on open ({@code MISSING_FILE}) and reported by {@code verify}, as a missing table is;
 * it used to open silently without those writes. A store written with the log off requires no segment.
 */
class MissingWalSegmentTest {
    @TempDir
    Path tmp;

    private static StoreOptions options(SyncMode wal) {
        return StoreOptions.builder().walMode(wal).policy("binomial:k=3").build();
    }

    /** A crash image with 435 synced writes only in the log; returns the live segment. */
    private Path crashImage(Path image) throws Exception {
        try (LsmStore store = LsmStore.open(tmp.resolve("live"), options(SyncMode.SYNC))) {
            store.put("flushed".getBytes(UTF_8), "v".getBytes(UTF_8));
            store.flush();
            for (int i = 0; i < 435; i++) {
                store.put(("key" + i).getBytes(UTF_8), "in the log".getBytes(UTF_8));
            }
            EngineTestSupport.copyStore(tmp.resolve("live"), image);
        }
        long live = Manifest.recover(image).set().walNumber();
        Path segment = image.resolve(StoreFiles.walName(live));
        assertThat(segment).exists();
        return segment;
    }

    @Test
    @SkipStoreChecks(value = StoreCheck.VERIFIER, reason = "deletes the live write-ahead-log segment: what the open "
            + "and verify must report")
    void aMissingLiveSegmentIsRefusedOnOpenAndReportedByVerify() throws Exception {
        Path image = tmp.resolve("image");
        Path segment = crashImage(image);
        Files.delete(segment);
        TreeMap<String, byte[]> before = DirectoryContents.of(image);
        String name = segment.getFileName().toString();

        assertThat(StoreVerifier.verify(image).problems()).anyMatch(p -> p.startsWith(name) && p.contains("missing"));
        assertThatThrownBy(() -> LsmStore.open(image, options(SyncMode.SYNC)))
                .isInstanceOfSatisfying(CorruptionException.class,
                        e -> assertThat(e.code()).isEqualTo(CorruptionException.Code.MISSING_FILE))
                .hasMessageContaining(name).hasMessageContaining("bin/lsm repair");
        assertThatThrownBy(() -> LsmStore.openReadOnly(image, options(SyncMode.SYNC)))
                .isInstanceOf(CorruptionException.class).hasMessageContaining(name);
        DirectoryContents.assertSame(before, DirectoryContents.of(image));
    }

    @Test
    void withTheSegmentThereEveryWriteIsRecovered() throws Exception {
        Path image = tmp.resolve("image");
        crashImage(image);
        assertThat(StoreVerifier.verify(image).problems()).isEmpty();
        try (LsmStore store = LsmStore.open(image, options(SyncMode.SYNC))) {
            assertThat(store.get("key434".getBytes(UTF_8))).isEqualTo("in the log".getBytes(UTF_8));
        }
        assertThat(StoreVerifier.verify(image).problems()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void aStoreLastOpenedWithTheLogOffRequiresNoSegment(SyncMode reopenWith) throws Exception {
        Path dir = tmp.resolve("db");
        try (LsmStore store = LsmStore.open(dir, options(SyncMode.SYNC))) {
            store.put("a".getBytes(UTF_8), "1".getBytes(UTF_8));
        }
        try (LsmStore store = LsmStore.open(dir, options(SyncMode.OFF))) {
            store.put("b".getBytes(UTF_8), "2".getBytes(UTF_8));
        }
        assertThat(StoreVerifier.verify(dir).problems()).isEmpty();
        try (LsmStore store = LsmStore.open(dir, options(reopenWith))) {
            assertThat(store.get("a".getBytes(UTF_8))).isEqualTo("1".getBytes(UTF_8));
            assertThat(store.get("b".getBytes(UTF_8))).isEqualTo("2".getBytes(UTF_8));
        }
        assertThat(StoreVerifier.verify(dir).problems()).isEmpty();
    }
}
