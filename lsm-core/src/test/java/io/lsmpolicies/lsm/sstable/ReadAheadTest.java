package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge's input ({@link SSTableReader#scanInPlace}) reads its next chunk, and checks its pages, on a background
 * thread while the merge works on the chunk before; what the reads return, and how they fail, reach the caller
 * unchanged.
 */
class ReadAheadTest {
    @TempDir
    Path dir;

    private static final int ENTRIES = 6000; // about 6 MB: more than 20 chunks of 256 KiB
    private Path path;

    private static byte[] key(int i) {
        return String.format("key%08d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[1000];
        for (int j = 0; j < v.length; j++) {
            v[j] = (byte) (i * 31 + j);
        }
        return v;
    }

    @BeforeEach
    void write() throws IOException {
        path = dir.resolve("t.sst");
        try (SSTableWriter w = SSTableWriter.create(path, new SSTableOptions(4096, 10), 1, 1, 0)) {
            for (int i = 0; i < ENTRIES; i++) {
                w.add(Entry.put(key(i), i + 1, value(i)));
            }
            w.finish(Long.MAX_VALUE);
        }
    }

    @Test
    void laterChunksAreReadInTheBackgroundAndEveryEntryComesBackInOrder() throws IOException {
        Set<String> readers = ConcurrentHashMap.newKeySet();
        FileLayer files = FileLayer.withFaults(new FaultHook() {
            @Override
            public void before(FileOp op, Path p) {
                if (op == FileOp.READ) {
                    readers.add(Thread.currentThread().getName());
                }
            }
        });
        try (SSTableReader r = SSTableReader.open(files, IoCause.MERGE, path, BlockCache.ofBytes(0));
                EntryCursor c = r.scanInPlace(256 * 1024)) {
            int i = 0;
            while (c.advance()) {
                assertThat(c.entry()).isEqualTo(Entry.put(key(i), i + 1, value(i)));
                i++;
            }
            assertThat(i).isEqualTo(ENTRIES);
        }
        assertThat(readers).as("threads that read").contains("lsm-table-read");
    }

    @Test
    void aFailedReadAheadIsThrownByTheCursor() throws IOException {
        AtomicInteger reads = new AtomicInteger();
        FileLayer files = FileLayer.withFaults(new FaultHook() {
            @Override
            public void before(FileOp op, Path p) throws IOException {
                if (op == FileOp.READ && Thread.currentThread().getName().equals("lsm-table-read")
                        && reads.incrementAndGet() == 3) {
                    throw new IOException("injected failure: " + op + " of " + p);
                }
            }
        });
        try (SSTableReader r = SSTableReader.open(files, IoCause.MERGE, path, BlockCache.ofBytes(0));
                EntryCursor c = r.scanInPlace(256 * 1024)) {
            assertThatThrownBy(() -> {
                while (c.advance()) {
                    c.keyLength();
                }
            }).isInstanceOf(IOException.class).hasMessageContaining("injected failure");
        }
    }
}
