package io.lsmpolicies.lsm.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.merge.PolicySpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OPTIONS file: round trip, atomic replacement under failures, and every kind of damage refused. */
class OptionsFileTest {
    @TempDir
    Path dir;

    private static final StoredOptions OPTIONS = new StoredOptions(PolicySpec.parse("binomial:k=4"),
            "FLUSH_THEN_MERGE", 4L << 20, 4096, 10, 1024, 3000);

    private static final FileLayer FILES = FileLayer.plain();

    @Test
    void roundTrips() throws Exception {
        assertThat(OptionsFile.read(FILES, dir)).isEmpty();
        OptionsFile.write(FILES, dir, OPTIONS);
        assertThat(OptionsFile.read(FILES, dir)).contains(OPTIONS);
        assertThat(Files.readString(dir.resolve(OptionsFile.NAME))).startsWith("lsm-options 1\npolicy=binomial:k=4\n");
        StoredOptions other = new StoredOptions(PolicySpec.parse("tiered:size-ratio=8"), "MERGE_MEMTABLE", 1 << 16,
                512, 1, 16, 100);
        OptionsFile.write(FILES, dir, other);
        assertThat(OptionsFile.read(FILES, dir)).contains(other);
        assertThat(dir.resolve(OptionsFile.NAME + StoreFiles.TEMP_SUFFIX)).doesNotExist();
    }

    @Test
    void everyFlippedBitAndEveryTruncationIsRefused() throws Exception {
        byte[] good = OptionsFile.encode(OPTIONS);
        for (int i = 0; i < good.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] bad = good.clone();
                bad[i] ^= (byte) (1 << bit);
                int at = i;
                assertThatThrownBy(() -> OptionsFile.decode(dir, bad, bad.length)).as("bit %d of byte %d", bit, at)
                        .isInstanceOf(CorruptionException.class);
            }
        }
        for (int n = 0; n < good.length; n++) {
            int length = n;
            assertThatThrownBy(() -> OptionsFile.decode(dir, good, length)).as("cut at %d", length)
                    .isInstanceOf(CorruptionException.class);
        }
    }

    @Test
    void anUnknownSettingOrVersionUnderAValidChecksumIsRefusedWithItsCode() throws Exception {
        assertThat(code("lsm-options 1\npolicy=binomial:k=4\ncompression=zstd\n"
                + "merge-order=FLUSH_THEN_MERGE\nmemtable-bytes=1\npage-bytes=4096\nbloom-bits-per-key=10\n"
                + "max-key-bytes=1\nmax-value-bytes=1\n")).isEqualTo(Code.UNKNOWN_TAG);
        assertThat(code("lsm-options 2\npolicy=binomial:k=4\n")).isEqualTo(Code.UNSUPPORTED_VERSION);
        assertThat(code("LSM-options 1\n")).isEqualTo(Code.BAD_MAGIC);
        assertThat(code("lsm-options 1\npolicy=binomial:k=4\n")).isEqualTo(Code.INCONSISTENT_RECORD); // missing
        assertThat(code("lsm-options 1\npolicy=binomial:k=4\npolicy=binomial:k=5\n"))
                .isEqualTo(Code.INCONSISTENT_RECORD);
        assertThat(code("lsm-options 1\nno equals sign\n")).isEqualTo(Code.INCONSISTENT_RECORD);
        Files.write(dir.resolve(OptionsFile.NAME), new byte[OptionsFile.MAX_BYTES + 1]);
        assertThatThrownBy(() -> OptionsFile.read(FILES, dir)).isInstanceOf(CorruptionException.class)
                .hasMessageContaining(OptionsFile.NAME).hasMessageContaining("BAD_LENGTH");
    }

    /** Decodes {@code body} with a valid checksum line appended and returns the refusal's code. */
    private Code code(String body) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        CRC32C c = new CRC32C();
        c.update(b);
        byte[] file = (body + String.format("crc32c=%08x\n", c.getValue())).getBytes(StandardCharsets.UTF_8);
        try {
            OptionsFile.decode(dir, file, file.length);
        } catch (CorruptionException e) {
            return e.code();
        }
        throw new AssertionError("accepted: " + body);
    }

    @Test
    void aFailedReplacementLeavesTheOldFileWholeAndNoTemporaryFile() throws Exception {
        OptionsFile.write(FILES, dir, OPTIONS);
        byte[] before = Files.readAllBytes(dir.resolve(OptionsFile.NAME));
        StoredOptions next = new StoredOptions(PolicySpec.parse("binomial:k=8"), "FLUSH_THEN_MERGE", 4L << 20, 4096,
                10, 1024, 3000);
        for (FileOp op : new FileOp[] {FileOp.WRITE, FileOp.SYNC, FileOp.RENAME}) {
            FaultInjector faults = new FaultInjector(dir.resolveSibling("trash-" + op));
            faults.failNth(op, 1, false);
            assertThatThrownBy(() -> OptionsFile.write(FileLayer.withFaults(faults), dir, next)).as(op.name())
                    .isInstanceOf(java.io.IOException.class);
            assertThat(Files.readAllBytes(dir.resolve(OptionsFile.NAME))).as(op.name()).isEqualTo(before);
            assertThat(OptionsFile.read(FILES, dir)).contains(OPTIONS);
            assertThat(dir.resolve(OptionsFile.NAME + StoreFiles.TEMP_SUFFIX)).as(op.name()).doesNotExist();
        }
    }
}
