package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cursor reads its first {@value LeafReadAhead#AFTER_LEAVES} leaves one at a time through the cache, then the
 * leaves after them several per read, doubling up to {@value LeafReadAhead#MAX_BYTES} bytes: a seek that reads a few
 * entries reads as before, a long scan makes a fraction of the reads, every entry the same, and damage to a leaf
 * read ahead is reported at that leaf.
 */
class LeafReadAheadTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return String.format("key%08d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private Path table(int n) throws IOException {
        Path path = dir.resolve("t.sst");
        SSTableOptions options = SSTableOptions.builder().pageSize(4096).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(path, options, 1, 1, 0)) {
            for (int i = 0; i < n; i++) {
                w.add(Entry.put(key(i), 1 + i, new byte[1000]));
            }
            w.finish(Long.MAX_VALUE);
        }
        return path;
    }

    /** Opens {@code path} through a layer that counts the reads of the file. */
    private static SSTableReader counting(Path path, AtomicInteger reads) throws IOException {
        FileLayer layer = FileLayer.withFaults(new FaultHook() {
            @Override
            public void before(FileOp op, Path file) {
                if (op == FileOp.READ) {
                    reads.incrementAndGet();
                }
            }
        });
        return SSTableReader.open(layer, IoCause.READ, path, BlockCache.ofBytes(1 << 20));
    }

    @Test
    void aLongScanReadsSeveralLeavesAtOnceAndReturnsEveryEntry() throws IOException {
        int n = 30_000; // 3 entries a leaf: 10,000 leaves
        Path path = table(n);
        AtomicInteger reads = new AtomicInteger();
        try (SSTableReader r = counting(path, reads)) {
            long leaves = r.leafCount();
            int atOpen = reads.get();
            List<Entry> scanned = new ArrayList<>();
            try (TableCursor c = r.seek(key(0), Long.MAX_VALUE)) {
                c.forEachRemaining(scanned::add);
            }
            assertThat(scanned).hasSize(n);
            for (int i = 0; i < n; i++) {
                assertThat(scanned.get(i).key()).isEqualTo(key(i));
            }
            int scanReads = reads.get() - atOpen;
            assertThat(scanReads).as("reads for %d leaves (128 KiB holds 32 of them)", leaves)
                    .isLessThan((int) (leaves / 20));
            // a seek that reads one entry reads its leaf and the next (the cursor's look-ahead entry) at most
            int before = reads.get();
            try (TableCursor c = r.seek(key(20_000), Long.MAX_VALUE)) {
                assertThat(c.next().key()).isEqualTo(key(20_000));
            }
            assertThat(reads.get() - before).isLessThanOrEqualTo(2);
        }
    }

    @Test
    void damageToALeafReadAheadIsReportedAtThatLeaf() throws IOException {
        Path path = table(3_000);
        long offset;
        try (SSTableReader r = SSTableReader.open(path)) {
            offset = r.offsets().offset(500);
        }
        byte[] bytes = Files.readAllBytes(path);
        bytes[(int) offset + 100] ^= 0x04;
        Files.write(path, bytes);
        try (SSTableReader r = SSTableReader.open(path);
             TableCursor c = r.seek(key(0), Long.MAX_VALUE)) {
            assertThatThrownBy(() -> c.forEachRemaining(e -> { }))
                    .isInstanceOf(UncheckedIOException.class)
                    .cause().isInstanceOf(CorruptionException.class)
                    .hasMessageContaining("page 500 checksum mismatch")
                    .satisfies(e -> assertThat(((CorruptionException) e).offset()).isEqualTo(offset));
        }
    }
}
