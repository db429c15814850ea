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
 * A put is logged without a copy of its own: the write-ahead-log record is encoded where the log buffers it, and
 * the MemTable keeps the caller's arrays, so the heap a writer allocates is a small fraction of the bytes it puts
 * (the entry, the skip-list node, the batch). When each record was first encoded into an array of its own, a put
 * of a 1 KB value allocated more than the value's bytes. Measured on the calling thread, where puts run; no
 * timing.
 */
class WriteAllocationTest {
    @TempDir
    Path dir;

    @Test
    void aLoggedPutAllocatesAFractionOfTheBytesItWrites() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        StoreOptions options = StoreOptions.builder().policy("no-merge").walMode(SyncMode.ASYNC)
                .memtableBytes(64 << 20).build();
        int records = 20_000;
        byte[][] keys = new byte[records][];
        byte[][] values = new byte[records][];
        long dataBytes = 0;
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < records; i++) {
            keys[i] = ByteBuffer.allocate(8).putLong(random.nextLong()).array();
            values[i] = new byte[1000];
            random.nextBytes(values[i]);
            dataBytes += keys[i].length + values[i].length;
        }
        try (LsmStore store = LsmStore.open(dir, options)) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < records; i++) {
                store.put(keys[i], values[i]);
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(store.metrics().flushes().count()).as("no flush ran on this thread").isZero();
            assertThat(allocated).as("heap bytes allocated by %d logged puts of %d bytes", records, dataBytes)
                    .isLessThan(dataBytes / 2);
        }
    }
}
