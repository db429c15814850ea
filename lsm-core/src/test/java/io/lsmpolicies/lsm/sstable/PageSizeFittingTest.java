package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Page sizes fitted to the entries: larger pages for large entries, exact sizes where the user gave one. */
class PageSizeFittingTest {
    @TempDir
    Path dir;

    @Test
    void theSmallestPowerOfTwoThatHoldsThreeEntriesFilledToSeventyPercent() {
        SSTableOptions d = SSTableOptions.DEFAULT;
        // 1 KB values, 23-byte YCSB keys: 3 entries, 76 % of 4 KiB (RocksDB's block size; a get reads one page).
        assertThat(d.fittedTo(10_000, 10_000 * 1023L, 4L << 20).pageSize()).isEqualTo(4096);
        assertThat(SSTableOptions.entriesPerPage(4096, 1031)).isEqualTo(3);
        assertThat(SSTableOptions.fill(4096, 1031)).isBetween(0.75, 0.76);
        assertThat(SSTableOptions.entriesPerPage(8192, 1031)).isEqualTo(7);
        assertThat(SSTableOptions.fill(8192, 1031)).isBetween(0.88, 0.89);
        // 1,500-byte entries: 2 in 4 KiB, 5 in 8 KiB; 2,000-byte ones: 4 in 8 KiB, 98 %; 3,000-byte ones 5 in 16 KiB.
        assertThat(d.fittedTo(10_000, 10_000 * 1492L, 4L << 20).pageSize()).isEqualTo(8192);
        assertThat(d.fittedTo(10_000, 10_000 * 1992L, 4L << 20).pageSize()).isEqualTo(8192);
        assertThat(d.fittedTo(10_000, 10_000 * 2992L, 4L << 20).pageSize()).isEqualTo(16 * 1024);
        // ... unless a flush is too small to span 64 such pages: its filter and metadata pages would be padding.
        // The bound is the flush's, so a small table of a store with large flushes gets the store's size.
        assertThat(d.fittedTo(60, 60 * 2992L, 4L << 20).pageSize()).isEqualTo(16 * 1024);
        assertThat(d.fittedTo(10_000, 10_000 * 2992L, 512 * 1024).pageSize()).as("512 KiB flushes").isEqualTo(8192);
        assertThat(d.fittedTo(60, 60 * 1023L, 64 * 1024).pageSize()).as("64 KiB flushes").isEqualTo(4096);
        // 100-byte values already fill 4 KiB pages.
        assertThat(d.fittedTo(100_000, 100_000 * 123L, 4L << 20).pageSize()).isEqualTo(4096);
        // An entry too large for the largest fitted page: the largest.
        assertThat(d.fittedTo(1000, 1000 * 40_000L, 64L << 20).pageSize()).isEqualTo(SSTableOptions.MAX_FITTED_PAGE_SIZE);
        // Nothing known, or an explicit size: unchanged.
        assertThat(d.fittedTo(0, 0, 4L << 20)).isEqualTo(d);
        SSTableOptions exact = SSTableOptions.builder().pageSize(4096).fitPageSize(false).build();
        assertThat(exact.fitPageSize()).isFalse();
        assertThat(exact.fittedTo(10_000, 10_000 * 1023L, 4L << 20)).isSameAs(exact);
        // Fitting never goes below the given size, and keeps the Bloom filter setting.
        SSTableOptions big = SSTableOptions.builder().pageSize(65536).bloomBitsPerKey(7).build()
                .fittedTo(100_000, 100_000 * 123L, 4L << 20);
        assertThat(big.pageSize()).isEqualTo(65536);
        assertThat(big.bloomBitsPerKey()).isEqualTo(7);
    }

    private static List<Integer> pageSizes(Path store) throws IOException {
        List<Integer> sizes = new ArrayList<>();
        try (Stream<Path> files = Files.list(store)) {
            for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".sst")).sorted()::iterator) {
                try (SSTableReader r = SSTableReader.open(p)) {
                    sizes.add(r.pageSize());
                }
            }
        }
        return sizes;
    }

    private static long load(Path store, SSTableOptions sstable) throws IOException {
        StoreOptions options = StoreOptions.builder().memtableBytes(1536 * 1024).walMode(SyncMode.ASYNC)
                .policy("binomial:k=3").sstable(sstable).build();
        try (LsmStore s = LsmStore.open(store, options)) {
            for (int i = 0; i < 6000; i++) {
                s.put(String.format("user%019d", (i * 7919L) % 6000).getBytes(StandardCharsets.UTF_8), new byte[1600]);
            }
            s.flush();
            s.awaitMerges();
            for (int i = 0; i < 6000; i += 13) {
                assertThat(s.get(String.format("user%019d", i).getBytes(StandardCharsets.UTF_8))).hasSize(1600);
            }
            return s.metrics().tables().diskBytes();
        }
    }

    @Test
    void aStoreOfLargeValuesWritesFullerPagesByDefaultAndExactPagesWhenTold() throws IOException {
        long fitted = load(dir.resolve("fitted"), SSTableOptions.DEFAULT);
        long exact = load(dir.resolve("exact"), SSTableOptions.builder().pageSize(4096).fitPageSize(false).build());
        assertThat(pageSizes(dir.resolve("fitted"))).isNotEmpty().containsOnly(8192);
        assertThat(pageSizes(dir.resolve("exact"))).isNotEmpty().containsOnly(4096);
        // Pages are packed (format version 2): the end a page's whole entries leave unused is not written, so on
        // disk the page size costs only its per-page bytes (header, checksum, offset, separator), and a table takes
        // little more than its entries (fixed pages of 16 KiB took 1.07 times their bytes).
        long entryBytes = 6000L * SSTableFormat.leafEntrySize(23, 1600, 6000);
        assertThat((double) fitted / entryBytes).as("bytes on disk over the entries' bytes, fitted pages")
                .isLessThan(1.01);
        assertThat((double) exact / entryBytes).as("bytes on disk over the entries' bytes, 4 KiB pages")
                .isLessThan(1.03);
    }
}
