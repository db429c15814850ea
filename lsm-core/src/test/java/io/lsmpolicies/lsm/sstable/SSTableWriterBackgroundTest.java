package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Groups of leaf pages are written by a background thread; its failures reach the writer's caller. */
class SSTableWriterBackgroundTest {
    @TempDir
    Path dir;

    private static final int ENTRIES = 6000; // about 6 MB: more than 5 groups of 1 MiB

    private static byte[] key(int i) {
        return String.format("key%08d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[1000];
        for (int j = 0; j < v.length; j++) {
            v[j] = (byte) (i + j);
        }
        return v;
    }

    @Test
    void leavesAreWrittenInTheBackgroundAndTheTableReadsBack() throws Exception {
        Set<String> writers = ConcurrentHashMap.newKeySet();
        FileLayer files = FileLayer.withFaults(new FaultHook() {
            @Override
            public void before(FileOp op, Path path) {
                if (op == FileOp.WRITE) {
                    writers.add(Thread.currentThread().getName());
                }
            }
        });
        Path path = dir.resolve("t.sst");
        SSTableOptions options = SSTableOptions.builder().pageSize(4096).fitPageSize(false).build();
        try (SSTableWriter w = SSTableWriter.create(files, IoCause.MERGE, path, options, 1, 1, 0)) {
            for (int i = 0; i < ENTRIES; i++) {
                w.add(Entry.put(key(i), i + 1, value(i)));
            }
            w.finish(Long.MAX_VALUE);
        }
        assertThat(writers).as("threads that wrote").contains("lsm-table-write");
        try (SSTableReader r = SSTableReader.open(path, BlockCache.ofBytes(0))) {
            int i = 0;
            for (var it = r.scan(); it.hasNext(); i++) {
                Entry e = it.next();
                assertThat(e.key()).isEqualTo(key(i));
                assertThat(e.value()).isEqualTo(value(i));
            }
            assertThat(i).isEqualTo(ENTRIES);
        }
    }

    @Test
    void aFailedBackgroundWriteIsThrownToTheCallerAndTheFileGoes() throws Exception {
        AtomicInteger writes = new AtomicInteger();
        FileLayer files = FileLayer.withFaults(new FaultHook() {
            @Override
            public void before(FileOp op, Path path) throws IOException {
                if (op == FileOp.WRITE && writes.incrementAndGet() == 3) {
                    throw new IOException("injected failure: " + op + " of " + path);
                }
            }
        });
        Path path = dir.resolve("failing.sst");
        assertThatThrownBy(() -> {
            SSTableOptions options = SSTableOptions.builder().pageSize(4096).fitPageSize(false).build();
            try (SSTableWriter w = SSTableWriter.create(files, IoCause.MERGE, path, options, 1, 1, 0)) {
                for (int i = 0; i < ENTRIES; i++) {
                    w.add(Entry.put(key(i), i + 1, value(i)));
                }
                w.finish(Long.MAX_VALUE);
            }
        }).isInstanceOf(IOException.class).hasMessageContaining("injected failure");
        assertThat(Files.exists(path)).as("an unfinished table is deleted").isFalse();
    }
}
