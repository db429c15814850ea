package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second crash during the recovery from a first one. A crash can leave the newest write-ahead-log segment torn
 * (a write cut short) or without its header (created, then the crash). The open that recovers replays it, creates
 * a newer segment, and flushes what it replayed; if it dies before that flush is installed, the damaged segment
 * is no longer the newest, and an open that accepts damage only in the newest segment would refuse the store for
 * ever. These tests stage that second crash deterministically: a directory squatting on the file name the
 * recovery's flush will use makes that flush fail after the new segment exists, exactly where a kill would stop it.
 */
class RecoveryCrashTest {
    @TempDir
    Path tmp;

    private static StoreOptions options() {
        return StoreOptions.builder().walMode(SyncMode.SYNC).policy("binomial:k=3").build();
    }

    private static byte[] key(int i) {
        return ("key" + i).getBytes(StandardCharsets.US_ASCII);
    }

    private static List<Path> logs(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
    }

    /** A crash image of a store holding {@code count} writes only in its log. */
    private Path crashImage(int count) throws Exception {
        Path live = tmp.resolve("live");
        Path image = tmp.resolve("image");
        try (LsmStore store = LsmStore.open(live, options())) {
            for (int i = 0; i < count; i++) {
                store.put(key(i), new byte[40]);
            }
            EngineTestSupport.copyStore(live, image);
        }
        return image;
    }

    /** Opens {@code image} with its recovery's flush made to fail, as a crash at that moment would stop it. */
    private static void recoveryDiesBeforeItsFlushIsInstalled(Path image) throws Exception {
        // The reopened manifest takes the next free number, the new log segment the one after, then the tables.
        long next = Manifest.recover(image).nextFreeFileNumber();
        List<Path> blockers = List.of(image.resolve(StoreFiles.tableName(next + 2)),
                image.resolve(StoreFiles.tableName(next + 3)));
        for (Path b : blockers) {
            Files.createDirectory(b);
        }
        assertThatThrownBy(() -> LsmStore.open(image, options()).close()).isInstanceOf(IOException.class);
        for (Path b : blockers) {
            Files.delete(b);
        }
        assertThat(logs(image)).as("the recovery created a newer log segment").hasSizeGreaterThanOrEqualTo(2);
    }

    private static void assertRecovers(Path image, int count) throws Exception {
        assertThat(StoreVerifier.verify(image).problems()).isEmpty();
        try (LsmStore store = LsmStore.open(image, options())) {
            for (int i = 0; i < count; i++) {
                assertThat(store.get(key(i))).as("key %d", i).isNotNull();
            }
            assertThat(store.get(key(count))).isNull();
        }
        assertThat(StoreVerifier.verify(image).problems()).isEmpty();
    }

    @Test
    void aTornLogTailSurvivesACrashDuringTheRecoveryThatReplaysIt() throws Exception {
        Path image = crashImage(20);
        Path segment = logs(image).get(0);
        byte[] bytes = Files.readAllBytes(segment);
        Files.write(segment, Arrays.copyOf(bytes, bytes.length - 7)); // the 20th write was cut short
        recoveryDiesBeforeItsFlushIsInstalled(image);
        assertThat(Files.size(segment)).as("the torn tail was cut off").isLessThan(bytes.length - 7);
        assertRecovers(image, 19);
    }

    @Test
    void aLogSegmentWithoutHeaderSurvivesACrashDuringTheRecovery() throws Exception {
        Path image = crashImage(20);
        Path segment = logs(image).get(0);
        long number = StoreFiles.walNumber(segment.getFileName().toString()).orElseThrow();
        // A rotation created the next segment, then the crash came before its header was written.
        Path headerless = image.resolve(StoreFiles.walName(number + 50));
        Files.write(headerless, new byte[0]);
        recoveryDiesBeforeItsFlushIsInstalled(image);
        assertThat(headerless).as("the segment without a header was deleted").doesNotExist();
        assertRecovers(image, 20);
    }
}
