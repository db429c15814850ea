package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The group buffers {@link SSTableWriter}s keep between tables, and tables written with buffers left dirty. */
class GroupBuffersTest {
    @TempDir
    Path dir;

    private static void drain() {
        while (GroupBuffers.kept() > 0) {
            GroupBuffers.take(SSTableWriter.WRITE_BUFFER_BYTES);
        }
    }

    @Test
    void aBufferGivenBackIsTakenAgainAndAtMostEightOfTheUsualSizeAreKept() {
        drain();
        byte[] given = GroupBuffers.take(SSTableWriter.WRITE_BUFFER_BYTES);
        assertThat(given).hasSize(SSTableWriter.WRITE_BUFFER_BYTES);
        GroupBuffers.give(given);
        assertThat(GroupBuffers.take(SSTableWriter.WRITE_BUFFER_BYTES)).isSameAs(given);
        for (int i = 0; i < GroupBuffers.KEPT + 3; i++) {
            GroupBuffers.give(new byte[SSTableWriter.WRITE_BUFFER_BYTES]);
        }
        assertThat(GroupBuffers.kept()).isEqualTo(GroupBuffers.KEPT);
        drain();
        GroupBuffers.give(new byte[4 * SSTableWriter.WRITE_BUFFER_BYTES]); // a writer of pages larger than a group
        assertThat(GroupBuffers.kept()).as("only buffers of the usual size are kept").isZero();
        int large = 4 * SSTableWriter.WRITE_BUFFER_BYTES;
        assertThat(GroupBuffers.take(large)).hasSize(large);
    }

    /** Writes the same entries with the writer's two buffers full of {@code fill} first; the file's bytes. */
    private byte[] tableWithBuffersLeft(byte fill, SSTableOptions options) throws IOException {
        drain();
        for (int i = 0; i < 2; i++) {
            byte[] dirty = new byte[SSTableWriter.WRITE_BUFFER_BYTES];
            Arrays.fill(dirty, fill);
            GroupBuffers.give(dirty);
        }
        Path path = dir.resolve("t-" + (fill & 0xff) + "-" + options.pageSize() + ".sst");
        SplittableRandom random = new SplittableRandom(42);
        try (SSTableWriter w = SSTableWriter.create(FileLayer.plain(), IoCause.MERGE, path, options, 1, 1, 0)) {
            for (int i = 0; i < 3000; i++) {
                byte[] value = new byte[random.nextInt(2000)];
                for (int j = 0; j < value.length; j++) {
                    value[j] = (byte) random.nextInt(256);
                }
                w.add(i % 7 == 0 ? Entry.delete(key(i), i + 1) : Entry.put(key(i), i + 1, value));
            }
            w.finish(0);
        }
        assertThat(GroupBuffers.kept()).as("the writer gave its buffers back").isEqualTo(2);
        return Files.readAllBytes(path);
    }

    private static byte[] key(int i) {
        return String.format("key%08d", i).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void aTableIsTheSameBytesWhateverItsBuffersHeldBefore() throws IOException {
        for (SSTableOptions options : new SSTableOptions[] {
                SSTableOptions.builder().pageSize(4096).fitPageSize(false).build(),
                SSTableOptions.builder().pageSize(16384).fitPageSize(false).build()}) {
            byte[] zeros = tableWithBuffersLeft((byte) 0, options);
            assertThat(zeros.length).as("several groups").isGreaterThan(2 * SSTableWriter.WRITE_BUFFER_BYTES);
            assertThat(tableWithBuffersLeft((byte) 0x5A, options)).isEqualTo(zeros);
            assertThat(tableWithBuffersLeft((byte) 0xFF, options)).isEqualTo(zeros);
        }
    }
}
