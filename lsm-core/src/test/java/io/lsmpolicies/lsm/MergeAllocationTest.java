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
 * fraction of the bytes it merges, mostly each input's 256 KiB read-ahead buffer. (When every entry was copied
 * out of its input page, a merge allocated about twice the bytes it merged.) Measured on the calling thread, where {@link LsmStore#compactAll()} runs the
 * merge; no timing.
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
}
