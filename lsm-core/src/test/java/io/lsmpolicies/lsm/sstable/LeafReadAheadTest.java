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
import java.util.concurrent.CompletableFuture;
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

    /**
     * A cursor that reads ahead takes a buffer from those its thread keeps and gives it back at its end or close, so
     * the next scan's cursors reuse it; cursors open at once each have their own, whatever order they are read in.
     */
    @Test
    void readAheadBuffersAreReusedAndNeverSharedByOpenCursors() throws Exception {
        Path path = table(6_000); // 2,000 leaves
        // a thread of its own: it starts with no kept buffer
        CompletableFuture.runAsync(() -> {
            try {
                reuse(path);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, r -> new Thread(r, "read-ahead-test").start()).get();
    }

    private static void reuse(Path path) throws IOException {
        try (SSTableReader r = SSTableReader.open(path)) {
            assertThat(LeafReadAhead.keptBuffers()).isZero();
            try (TableCursor c = r.seek(key(0), Long.MAX_VALUE)) {
                c.forEachRemaining(e -> { });
                assertThat(LeafReadAhead.keptBuffers()).as("given back at the end").isEqualTo(1);
            }
            assertThat(LeafReadAhead.keptBuffers()).as("closing after the end gives nothing twice").isEqualTo(1);
            try (TableCursor a = r.seek(key(0), Long.MAX_VALUE);
                 TableCursor b = r.seek(key(3_000), Long.MAX_VALUE)) {
                for (int i = 0; i < 2_400; i++) { // both read ahead, interleaved: each from its own buffer
                    assertThat(a.next().key()).isEqualTo(key(i));
                    assertThat(b.next().key()).isEqualTo(key(3_000 + i));
                }
                assertThat(LeafReadAhead.keptBuffers()).as("both in use").isZero();
            }
            assertThat(LeafReadAhead.keptBuffers()).as("both given back at close").isEqualTo(2);
            for (int round = 0; round < 3 * LeafReadAhead.KEPT_PER_THREAD; round++) {
                try (TableCursor c = r.seek(key(round), Long.MAX_VALUE)) {
                    for (int i = 0; i < 100; i++) {
                        assertThat(c.next().key()).isEqualTo(key(round + i));
                    }
                }
            }
            assertThat(LeafReadAhead.keptBuffers()).as("a scan at a time reuses what is kept").isEqualTo(2);
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
