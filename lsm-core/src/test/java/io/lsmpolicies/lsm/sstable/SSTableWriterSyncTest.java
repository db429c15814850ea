package io.lsmpolicies.lsm.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large table is forced to the device in steps while it is written, so the force that ends it waits only for the
 * rest; a failed step fails the table like a failed write. Counted through the fault layer; no timing.
 */
class SSTableWriterSyncTest {
    @TempDir
    Path dir;

    /** Adds entries of about 1 KB until {@code bytes} key and value bytes are in, then finishes. */
    private static void fill(SSTableWriter w, long bytes) throws IOException {
        byte[] value = new byte[1000];
        for (int i = 0; (long) i * (4 + value.length) < bytes; i++) {
            w.add(Entry.put(ByteBuffer.allocate(4).putInt(i).array(), 1, value));
        }
        w.finish(Long.MAX_VALUE);
    }

    @Test
    void aLargeTableIsForcedInStepsWhileItIsWritten() throws IOException {
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        Path path = dir.resolve("1.sst");
        try (SSTableWriter w = SSTableWriter.create(FileLayer.withFaults(faults), IoCause.MERGE, path,
                SSTableOptions.DEFAULT, 1, 1, 0)) {
            fill(w, 4 * SSTableWriter.SYNC_EVERY_BYTES);
        }
        // The first step's force always starts (none runs then); a later step's starts only if the one before has
        // ended, which depends on the device. Before, the only force was the last one: one per table.
        assertThat(faults.count(FileOp.SYNC)).as("forces of one table of 4 steps").isGreaterThanOrEqualTo(2);
        try (SSTableReader r = SSTableReader.open(path)) {
            assertThat(r.metadata().entries()).isPositive();
        }
    }

    @Test
    void aSmallTableIsForcedOnce() throws IOException {
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        try (SSTableWriter w = SSTableWriter.create(FileLayer.withFaults(faults), IoCause.FLUSH, dir.resolve("2.sst"),
                SSTableOptions.DEFAULT, 1, 1, 0)) {
            fill(w, SSTableWriter.SYNC_EVERY_BYTES / 2);
        }
        assertThat(faults.count(FileOp.SYNC)).isEqualTo(1);
    }

    @Test
    void aFailedForceInTheBackgroundFailsTheTableAndRemovesIt() throws IOException {
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        faults.failNth(FileOp.SYNC, 1, false);
        Path path = dir.resolve("3.sst");
        try (SSTableWriter w = SSTableWriter.create(FileLayer.withFaults(faults), IoCause.MERGE, path,
                SSTableOptions.DEFAULT, 1, 1, 0)) {
            assertThatThrownBy(() -> fill(w, 3 * SSTableWriter.SYNC_EVERY_BYTES)).isInstanceOf(IOException.class)
                    .hasMessageContaining("injected");
        }
        assertThat(Files.exists(path)).as("an unfinished table is removed").isFalse();
    }
}
