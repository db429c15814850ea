package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MemTables that follow one another log into one write-ahead-log segment until it holds {@code walSegmentBytes},
 * so a rotation does not sync a segment, create one and sync the directory on the writer's path each time; a
 * segment goes once every MemTable that wrote in it is flushed, and a store reopened after its writes holds them
 * all. With 0, each MemTable has a segment of its own (as before the option).
 */
class WalSegmentTest {
    @TempDir
    Path dir;

    /** Counts the log segments the store creates. */
    private static final class CreatedSegments implements FaultHook {
        final Set<Path> segments = ConcurrentHashMap.newKeySet();

        @Override
        public void created(Path path) {
            if (path.getFileName().toString().endsWith(".log")) {
                segments.add(path);
            }
        }
    }

    private static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1 << 20})
    void memTablesShareASegmentUntilItHoldsTheSegmentSize(long segmentBytes) throws IOException {
        StoreOptions options = StoreOptions.builder().policy("no-merge").walMode(SyncMode.ASYNC)
                .memtableBytes(64 << 10).walSegmentBytes(segmentBytes).build();
        int records = 4_000;
        CreatedSegments created = new CreatedSegments();
        long flushes;
        try (LsmStore store = LsmStore.open(dir, options, FileLayer.withFaults(created))) {
            for (int i = 0; i < records; i++) {
                byte[] value = new byte[500]; // the store keeps the array
                value[0] = (byte) i;
                store.put(key(i), value);
            }
            flushes = store.metrics().flushes().count() + 1;
            store.flush(); // starts a new segment: what the old ones held is in tables now
            store.awaitMerges(); // and the obsolete segments' deletion, queued by the flush, is done
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.filter(p -> p.toString().endsWith(".log")).count())
                        .as("segments left once every MemTable is flushed").isEqualTo(1);
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(p -> p.toString().endsWith(".log")).mapToLong(p -> p.toFile().length()).sum())
                    .as("log bytes left after the close").isLessThan(100);
        }
        assertThat(flushes).as("MemTables flushed").isGreaterThan(25);
        if (segmentBytes == 0) {
            assertThat(created.segments).as("a segment per MemTable").hasSizeGreaterThanOrEqualTo((int) flushes);
        } else {
            // about 2 MB of records in segments of 1 MiB: the first, one or two more, and the flush's and the close's
            assertThat(created.segments).as("segments of %d bytes", segmentBytes).hasSizeLessThanOrEqualTo(6);
        }
        try (LsmStore store = LsmStore.open(dir, options)) {
            for (int i = 0; i < records; i++) {
                byte[] v = store.get(key(i));
                assertThat(v).as("record %d", i).isNotNull().hasSize(500);
                assertThat(v[0]).isEqualTo((byte) i);
            }
        }
    }
}
