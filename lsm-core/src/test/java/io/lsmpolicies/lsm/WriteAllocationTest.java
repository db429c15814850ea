package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.memtable.MemTable;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a put allocates on the heap: its key and value once, copied into the MemTable's chunks (large arrays that
 * G1 places outside the young generation), and besides them only small objects (the batch, the log record, the index node),
 * about 300 bytes for a put of 1 KB. The write-ahead-log record is encoded where the log buffers it; when each
 * record was first encoded into an array of its own, a put of a 1 KB value allocated more than the value's bytes
 * besides. Measured on the calling thread, where puts run; no timing.
 */
class WriteAllocationTest {
    @TempDir
    Path dir;

    @Test
    void aLoggedPutCopiesItsBytesIntoTheArenaAndAllocatesLittleElse() throws IOException {
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
            MemTable memtable = store.activeMemTable();
            long arenaBefore = memtable.allocatedBytes() - (long) MemTable.INDEX_NODE_BYTES * memtable.size();
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < records; i++) {
                store.put(keys[i], values[i]);
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(store.metrics().flushes().count()).as("no flush ran on this thread").isZero();
            assertThat(store.activeMemTable()).as("the MemTable did not rotate").isSameAs(memtable);
            long arena = memtable.allocatedBytes() - (long) MemTable.INDEX_NODE_BYTES * memtable.size() - arenaBefore;
            assertThat(arena).as("chunk bytes for %d records of %d bytes", records, dataBytes)
                    .isBetween(dataBytes, dataBytes + 16L * records + (2 << 20));
            assertThat(allocated - arena).as("heap bytes besides the chunks allocated by %d logged puts", records)
                    .isLessThan(dataBytes * 3 / 8);
        }
    }

    /** Puts records made of fresh arrays, and returns weak references to those arrays. */
    private static List<WeakReference<byte[]>> putFreshRecords(LsmStore store, int records) throws IOException {
        List<WeakReference<byte[]>> refs = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(9);
        for (int i = 0; i < records; i++) {
            byte[] key = ByteBuffer.allocate(8).putLong(random.nextLong()).array();
            byte[] value = new byte[1000];
            random.nextBytes(value);
            store.put(key, value);
            refs.add(new WeakReference<>(key));
            refs.add(new WeakReference<>(value));
        }
        return refs;
    }

    /**
     * Once a put returns, the store refers to none of the caller's arrays: the log encoded them and the MemTable
     * copied them. So a load's arrays die young, where the collector frees them for nothing, instead of living in
     * the MemTable until its flush and being promoted to the old generation on the way. (Before the arena the
     * MemTable kept every one.)
     */
    @Test
    void aPutKeepsNoneOfTheCallersArrays() throws IOException {
        StoreOptions options = StoreOptions.builder().policy("no-merge").walMode(SyncMode.ASYNC)
                .memtableBytes(64 << 20).build();
        try (LsmStore store = LsmStore.open(dir, options)) {
            List<WeakReference<byte[]>> refs = putFreshRecords(store, 2000);
            for (int attempt = 0; attempt < 10 && refs.stream().anyMatch(r -> r.get() != null); attempt++) {
                System.gc(); // a full collection clears every reference to an array that only weak ones reach
            }
            assertThat(store.metrics().flushes().count()).as("every record is still in the MemTable").isZero();
            assertThat(refs.stream().filter(r -> r.get() != null).count()).as("arrays the store still holds")
                    .isZero();
        }
    }
}
