package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SSTableVerifierTest {
    @TempDir
    Path dir;

    private Path write(String name) throws Exception {
        Path path = dir.resolve(name);
        SSTableOptions options = SSTableOptions.builder().pageSize(512).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(path, options, 1, 1, 0)) {
            for (int i = 0; i < 2000; i++) {
                byte[] key = String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII);
                w.add(i % 9 == 0 ? Entry.delete(key, i + 1) : Entry.put(key, i + 1, new byte[20]));
            }
            w.finish(5);
        }
        return path;
    }

    @Test
    void aSoundFilePasses() throws Exception {
        SSTableVerifier.Report report = SSTableVerifier.verify(write("ok.sst"));
        assertThat(report.problems()).isEmpty();
        assertThat(report.ok()).isTrue();
        assertThat(report.entries()).isEqualTo(2000);
        assertThat(report.height()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void everyDamagedPageIsReported() throws Exception {
        Path good = write("base.sst");
        byte[] bytes = Files.readAllBytes(good);
        long[] starts = PackedLayout.pageStarts(bytes);
        for (int p = 0; p < starts.length - 1; p++) {
            byte[] damaged = bytes.clone();
            damaged[(int) starts[p] + 7] ^= 0x04;
            Path path = dir.resolve("bad-" + p + ".sst");
            Files.write(path, damaged);
            SSTableVerifier.Report report = SSTableVerifier.verify(path);
            assertThat(report.ok()).as("page %d", p).isFalse();
            assertThat(String.join("\n", report.problems())).contains("offset " + starts[p] + ": ")
                    .contains("page " + p + " checksum mismatch");
        }
    }

    @Test
    void aPackedPageWithBytesAfterItsEntriesUnderAValidChecksumIsFound() throws Exception {
        // Forge leaf 0 to claim one entry fewer, its checksum right: its last entry becomes bytes the page does not
        // account for. Reads would trust the page (and miss the entry); the verifier finds the page does not end
        // where its contents do.
        Path path = write("short-count.sst");
        byte[] bytes = Files.readAllBytes(path);
        long[] starts = PackedLayout.pageStarts(bytes);
        int length = (int) (starts[1] - starts[0]);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        b.putInt(1, b.getInt(1) - 1);
        b.putInt(length - 4, SSTableFormat.pageCrc(0, java.util.Arrays.copyOf(bytes, length)));
        Files.write(path, bytes);
        SSTableVerifier.Report report = SSTableVerifier.verify(path);
        assertThat(report.problems()).anyMatch(p -> p.startsWith("offset 0: page 0 is " + length + " bytes long, but"
                + " its contents end at byte"));
        assertThat(report.problems()).anyMatch(p -> p.startsWith("metadata counts 2000 entries"));
    }

    @Test
    void keysOutOfOrderUnderAValidChecksumAreFound() throws Exception {
        // Forge a leaf whose checksum is right but whose first two keys are swapped: reads would trust it.
        Path path = write("forged.sst");
        byte[] bytes = Files.readAllBytes(path);
        // Leaf 0 starts at 0: header 5 bytes, then entries "key000000" (tombstone) and "key000001".
        int firstKey = 5 + 1 + 1 + 1 + 1; // flags, keyLen, valueLen, sequence (1 byte each here)
        assertThat(new String(bytes, firstKey, 9, StandardCharsets.US_ASCII)).isEqualTo("key000000");
        bytes[firstKey + 8] = '7'; // key000007 now precedes key000001
        int length = (int) PackedLayout.pageStarts(bytes)[1];
        ByteBuffer.wrap(bytes).putInt(length - 4, SSTableFormat.pageCrc(0, java.util.Arrays.copyOf(bytes, length)));
        Files.write(path, bytes);
        SSTableVerifier.Report report = SSTableVerifier.verify(path);
        assertThat(report.problems()).anyMatch(p -> p.contains("is not after"));
        assertThat(report.problems()).anyMatch(p -> p.contains("differs from the first key")
                || p.contains("metadata key"));
    }

    @Test
    void aFileThatCannotBeOpenedIsReportedNotThrown() throws Exception {
        Path junk = dir.resolve("junk.sst");
        Files.write(junk, new byte[100]);
        SSTableVerifier.Report report = SSTableVerifier.verify(junk);
        assertThat(report.ok()).isFalse();
        assertThat(report.problems().get(0)).startsWith("cannot open").contains("BAD_MAGIC");
    }
}
