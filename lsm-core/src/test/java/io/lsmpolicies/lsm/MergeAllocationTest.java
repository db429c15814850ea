package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge passes keys and values from its input pages to its output pages in place: the heap it allocates is a
 * fraction of the bytes it merges, mostly each input's read-ahead buffer (256 KiB, less for a merge of many
 * inputs). (When every entry was copied out of its input page, a merge allocated about twice the bytes it merged.)
 * Measured on the calling thread, where {@link LsmStore#compactAll()} runs the merge; no timing.
 */
class MergeAllocationTest {
    @TempDir
    Path dir;

    @Test
    void aMergeAllocatesAFractionOfTheBytesItMerges() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        StoreOptions options = StoreOptions.builder().policy("no-merge").walMode(SyncMode.OFF).memtableBytes(2 << 20)
                .build();
        int records = 40_000;
        long dataBytes = 0;
        try (LsmStore store = LsmStore.open(dir, options)) {
            SplittableRandom random = new SplittableRandom(3);
            for (int i = 0; i < records; i++) {
                byte[] key = ByteBuffer.allocate(8).putLong(random.nextLong()).array(); // every table spans the keys
                byte[] value = new byte[1000];
                random.nextBytes(value);
                store.put(key, value);
                dataBytes += key.length + value.length;
            }
            store.flush();
            store.awaitMerges();
            assertThat(store.metrics().tables().live()).as("tables to merge").isGreaterThan(10);
            long before = threads.getCurrentThreadAllocatedBytes();
            store.compactAll();
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(store.metrics().tables().live()).isEqualTo(1);
            assertThat(allocated).as("heap bytes allocated by a merge of %d bytes", dataBytes)
                    .isLessThan(dataBytes / 2);
        }
    }
    /**
     * The inputs of one merge share a read-ahead budget ({@link TableBuilder#MERGE_READ_AHEAD_BUDGET_BYTES}): a merge of
     * 200 tables (as a folded cascade of a tiered policy may be) reads each about 80 KiB at a time instead of
     * 256 KiB, whose buffers alone would be 51 MiB of heap live through the merge.
     */
    @Test
    void aMergeOfManyTablesSharesOneReadAheadBudget() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        StoreOptions options = StoreOptions.builder().policy("no-merge").walMode(SyncMode.OFF).memtableBytes(64 << 10)
                .subcompactions(1).build();
        try (LsmStore store = LsmStore.open(dir, options)) {
            SplittableRandom random = new SplittableRandom(7);
            while (store.metrics().tables().live() < 200) {
                byte[] value = new byte[1000];
                random.nextBytes(value);
                store.put(ByteBuffer.allocate(8).putLong(random.nextLong()).array(), value);
            }
            store.flush();
            store.awaitMerges();
            int tables = store.metrics().tables().live();
            long before = threads.getCurrentThreadAllocatedBytes();
            store.compactAll();
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(store.metrics().tables().live()).isEqualTo(1);
            // the budget, the writer's buffers and the inputs' openings (measured: 18.3 MB); with 256 KiB per input,
            // 54.8 MB
            assertThat(allocated).as("heap bytes allocated by a merge of %d tables", tables)
                    .isLessThan(TableBuilder.MERGE_READ_AHEAD_BUDGET_BYTES + 16L * 1024 * 1024);
        }
        assertThat(TableBuilder.mergeReadAhead(4)).isEqualTo(TableBuilder.MERGE_READ_AHEAD_BYTES);
        assertThat(TableBuilder.mergeReadAhead(400) * 400L).isLessThanOrEqualTo(
                TableBuilder.MERGE_READ_AHEAD_BUDGET_BYTES);
    }

    /**
     * A merge's single output of many small entries builds its Bloom filter in place, sized for its inputs' entries
     * and folded at the end, instead of keeping 12 bytes of hash per key until the end (which, in the largest merges
     * of a long load, held the largest part of the heap that lived through the merge).
     */
    @Test
    void aMergeOfManySmallEntriesKeepsNoHashPerKey() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        StoreOptions options = StoreOptions.builder().policy("no-merge").walMode(SyncMode.OFF).memtableBytes(2 << 20)
                .subcompactions(1).build();
        int records = 400_000;
        try (LsmStore store = LsmStore.open(dir, options)) {
            SplittableRandom random = new SplittableRandom(5);
            for (int i = 0; i < records; i++) {
                store.put(ByteBuffer.allocate(8).putLong(random.nextLong()).array(), new byte[8]);
            }
            store.flush();
            store.awaitMerges();
            int tables = store.metrics().tables().live();
            assertThat(tables).as("tables to merge").isGreaterThan(2);
            long before = threads.getCurrentThreadAllocatedBytes();
            store.compactAll();
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(store.metrics().tables().live()).isEqualTo(1);
            // Each input's read-ahead buffer, the inputs' openings and the writer's buffers (about 6 MiB, measured:
            // 10.8 MB in all), the filter (about 1.4 bytes a key) and its encoding; with 12 bytes of hash a key
            // kept until the end, 16.7 MB.
            assertThat(allocated).as("heap bytes allocated by a merge of %d entries from %d tables", records, tables)
                    .isLessThan(tables * 256L * 1024 + 6L * 1024 * 1024 + 4L * records);
            SplittableRandom again = new SplittableRandom(5);
            for (int i = 0; i < records; i++) {
                assertThat(store.get(ByteBuffer.allocate(8).putLong(again.nextLong()).array())).isNotNull();
            }
        }
    }
}
