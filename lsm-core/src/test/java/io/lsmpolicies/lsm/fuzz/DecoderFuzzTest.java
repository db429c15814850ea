package io.lsmpolicies.lsm.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.log.WalRecord;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.sstable.BlockCache;
import io.lsmpolicies.lsm.sstable.BloomFilter;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import io.lsmpolicies.lsm.sstable.SSTableReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;

/**
 * Fuzz targets for the engine's decoders: each input either decodes or is refused with the decoder's
 * typed exception ({@link CorruptionException}, or {@link IllegalArgumentException} where the caller adds the
 * file and offset); any other exception, a hang or an out-of-memory is a bug. The default build replays the
 * saved inputs under {@code src/test/resources/io/lsmpolicies/lsm/fuzz/DecoderFuzzTestInputs/<target>/};
 * {@code JAZZER_FUZZ=1 ./mvnw -pl lsm-core test -Dtest=DecoderFuzzTest#<target>} fuzzes one target (see
 * docs/reliability.md).
 */
class DecoderFuzzTest {

    /** A write-ahead-log record's payload. */
    @FuzzTest(maxDuration = "30s")
    void writeBatch(byte[] data) {
        try {
            WalRecord batch = WalRecord.decode(data);
            byte[] again = batch.encode(); // what decodes must encode to a record that decodes the same
            assertThat(WalRecord.decode(again).encode()).isEqualTo(again);
        } catch (IllegalArgumentException expected) {
            // refused, saying why
        }
    }

    /** A manifest record's payload. */
    @FuzzTest(maxDuration = "30s")
    void manifestEdit(byte[] data) {
        try {
            ManifestEdit edit = ManifestEdit.decode(data, Path.of("MANIFEST-000001"), 0);
            assertThat(ManifestEdit.decode(edit.encode(), Path.of("MANIFEST-000001"), 0)).isEqualTo(edit);
        } catch (CorruptionException expected) {
            // refused, naming file and offset
        }
    }

    /** An SSTable's Bloom filter block. */
    @FuzzTest(maxDuration = "30s")
    void bloomFilter(byte[] data) {
        try {
            BloomFilter f = BloomFilter.decode(data);
            f.mightContain(new byte[] {1, 2, 3});
        } catch (IllegalArgumentException expected) {
            // refused, saying why
        }
    }

    /** A whole SSTable file: open it, look a key up, scan it as a reader does and as a merge does. */
    @FuzzTest(maxDuration = "60s")
    void sstable(byte[] data) throws IOException {
        Path file = Files.createTempFile("fuzz", ".sst");
        try {
            Files.write(file, data);
            try (SSTableReader r = SSTableReader.open(file, BlockCache.ofBytes(0))) {
                r.get(new byte[] {'k'}, Long.MAX_VALUE);
                Iterator<?> it = r.scan();
                for (int n = 0; it.hasNext() && n < 100_000; n++) {
                    it.next();
                }
                EntryCursor inPlace = r.scanInPlace(3 * 512); // a merge's read: entries decoded in the read-ahead
                for (int n = 0; n < 100_000 && inPlace.advance(); n++) {
                    inPlace.entry();
                }
            } catch (CorruptionException expected) {
                // refused, naming file and offset
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof CorruptionException)) {
                    throw e;
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
