package io.lsmpolicies.lsm.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.sstable.BlockCache;
import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.PackedLayout;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.sstable.SSTableReader;
import io.lsmpolicies.lsm.sstable.SSTableWriter;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.lsm.log.WalRecord;
import io.lsmpolicies.lsm.log.WalReplay;
import io.lsmpolicies.lsm.log.WalWriter;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileLayerTest {
    @TempDir
    Path dir;

    @Test
    void anAsyncLogThroughAMappingCountsItsRecordsNotTheZerosItClaims() throws Exception {
        FileLayer files = FileLayer.plain();
        Path wal = dir.resolve("2.wal");
        try (WalWriter w = WalWriter.create(files, wal, SyncMode.ASYNC)) {
            for (int i = 0; i < 10; i++) {
                WriteBatch b = new WriteBatch().put(("k" + i).getBytes(), new byte[100]);
                w.append(WalRecord.of(i, b).encode());
            }
            assertThat(Files.size(wal)).as("claimed ahead").isGreaterThan(files.stats().bytesWritten(IoCause.WAL));
        }
        assertThat(files.stats().bytesWritten(IoCause.WAL)).isEqualTo(Files.size(wal));
    }

    @Test
    void mappedAppendsTakeOnlyTheLayersOwnChannelAtItsEnd() throws Exception {
        FileLayer files = FileLayer.plain();
        Path path = dir.resolve("mapped");
        try (FileChannel own = files.open(path, IoCause.WAL, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
                FileChannel other = FileLayer.plain().open(path, IoCause.WAL, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
                FileChannel plain = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            own.write(ByteBuffer.wrap(new byte[] {7, 7, 7}), 0);
            assertThatThrownBy(() -> files.mapAppends(other, 3)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a channel of this file layer");
            assertThatThrownBy(() -> files.mapAppends(plain, 3)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> files.mapAppends(own, 2)).isInstanceOf(java.io.IOException.class)
                    .hasMessageContaining("has 3 bytes, not 2");
            try (MappedAppends appends = files.mapAppends(own, 3)) {
                assertThat(appends.append(ByteBuffer.wrap(new byte[] {1, 2}))).isEqualTo(2);
                assertThat(appends.end()).isEqualTo(5);
                appends.trim();
            }
            assertThat(Files.readAllBytes(path)).containsExactly(7, 7, 7, 1, 2);
        }
    }

    @Test
    void bytesAndSyncsAreCountedByCause() throws Exception {
        FileLayer files = FileLayer.plain();
        Path wal = dir.resolve("1.wal");
        try (WalWriter w = WalWriter.create(files, wal, SyncMode.SYNC)) {
            for (int i = 0; i < 10; i++) {
                WriteBatch b = new WriteBatch().put(("k" + i).getBytes(), new byte[100]);
                w.append(WalRecord.of(i, b).encode());
            }
        }
        assertThat(files.stats().bytesWritten(IoCause.WAL)).isEqualTo(Files.size(wal));
        assertThat(files.stats().syncs(IoCause.WAL)).isGreaterThanOrEqualTo(11); // header + each append
        WalReplay.replay(files, wal, b -> { });
        assertThat(files.stats().bytesRead(IoCause.WAL)).isGreaterThanOrEqualTo(Files.size(wal));

        Path sst = dir.resolve("1.sst");
        try (SSTableWriter w = SSTableWriter.create(files, IoCause.FLUSH, sst, SSTableOptions.DEFAULT, 1, 1, 0)) {
            for (int i = 0; i < 1000; i++) {
                w.add(Entry.put(String.format("k%05d", i).getBytes(), i + 1, new byte[50]));
            }
            w.finish(Long.MAX_VALUE);
        }
        assertThat(files.stats().bytesWritten(IoCause.FLUSH)).isEqualTo(Files.size(sst));
        byte[] table = Files.readAllBytes(sst);
        long[] pageStarts = PackedLayout.pageStarts(table);
        int bloomStart = ByteBuffer.wrap(table).getInt(table.length - PackedLayout.TRAILER + 28);
        int leaves = ByteBuffer.wrap(table).getInt(table.length - PackedLayout.TRAILER + 24);
        try (SSTableReader r = SSTableReader.open(files, IoCause.READ, sst, BlockCache.ofBytes(0))) {
            // the open: the Bloom filter and metadata pages, the page offsets and the trailer, the end of the file
            assertThat(files.stats().bytesRead(IoCause.READ)).isEqualTo(table.length - pageStarts[bloomStart]);
            r.scan().forEachRemaining(e -> { });
            assertThat(files.stats().bytesRead(IoCause.READ)).as("and every leaf, as long as it is")
                    .isEqualTo(table.length - pageStarts[bloomStart] + pageStarts[leaves]);
        }
        assertThat(files.stats().bytesWritten(IoCause.MERGE)).isZero();
        assertThat(files.stats().writtenByCause()).containsEntry(IoCause.FLUSH, Files.size(sst));
    }

    @Test
    void manifestIoIsChargedToTheManifest() throws Exception {
        FileLayer files = FileLayer.plain();
        io.lsmpolicies.lsm.manifest.Manifest m = io.lsmpolicies.lsm.manifest.Manifest.create(dir,
                io.lsmpolicies.lsm.manifest.ComponentSet.empty(), io.lsmpolicies.lsm.manifest.ManifestOptions.DEFAULTS,
                files);
        m.close();
        long written = files.stats().bytesWritten(IoCause.MANIFEST);
        assertThat(written).isPositive();
        assertThat(files.stats().syncs(IoCause.MANIFEST)).isGreaterThanOrEqualTo(2); // the manifest and CURRENT
        io.lsmpolicies.lsm.manifest.Manifest.recover(dir, files);
        assertThat(files.stats().bytesRead(IoCause.MANIFEST)).isPositive();
        assertThat(files.stats().bytesWritten(IoCause.WAL)).isZero();
    }

    @Test
    void aThrottledLayerMakesEachOperationWaitForTheEmulatedDevice() throws Exception {
        DeviceProfile slow = new DeviceProfile("test", 2_000_000, 100_000_000); // 2 ms + 100 MB/s
        FileLayer files = FileLayer.throttled(slow);
        long expected = 0;
        long start = System.nanoTime();
        try (FileChannel ch = files.open(dir.resolve("t"), IoCause.MERGE, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            for (int i = 0; i < 5; i++) {
                ch.write(ByteBuffer.allocate(1 << 20));
                expected += slow.costNanos(1 << 20);
            }
        }
        // Lower bounds only: the layer waits at least what the device would take.
        assertThat(files.stats().throttledNanos()).isGreaterThanOrEqualTo(expected);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(expected);
        assertThat(expected).isEqualTo(5 * (2_000_000L + 10_485_760L));
    }

    @Test
    void theWriteRateLimitHoldsFlushAndMergeWritesToTheRateAndPassesOthers() throws Exception {
        long rate = 4 << 20; // 4 MiB/s
        FileLayer files = FileLayer.of(null, rate);
        long start = System.nanoTime();
        try (FileChannel wal = files.open(dir.resolve("w"), IoCause.WAL, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            wal.write(ByteBuffer.allocate(16 << 20)); // not limited: the WAL is foreground
        }
        assertThat(files.stats().rateLimitedNanos()).isZero();
        for (IoCause cause : new IoCause[] {IoCause.FLUSH, IoCause.MERGE}) {
            try (FileChannel ch = files.open(dir.resolve(cause.name()), cause, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                for (int i = 0; i < 8; i++) {
                    ch.write(ByteBuffer.allocate(1 << 20));
                }
            }
        }
        // 16 MiB at 4 MiB/s: the token bucket lets the first write through at once (it pays later) and may hold
        // up to one second of unused rate (4 MiB, saved while the WAL was written), so at least 11 MiB wait for
        // the rate: 2.75 s. Unlimited, this takes milliseconds. Lower bounds only.
        long atLeast = 11L * 1_000_000_000L / 4;
        assertThat(files.stats().rateLimitedNanos()).isGreaterThanOrEqualTo(atLeast - 50_000_000L);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(atLeast - 50_000_000L);
        assertThatThrownBy(() -> FileLayer.of(null, -1)).hasMessageContaining("write rate limit must be >= 0");
        assertThatThrownBy(() -> io.lsmpolicies.lsm.StoreOptions.builder().writeBytesPerSecond(-5).build())
                .hasMessageContaining("writeBytesPerSecond");
    }

    @Test
    void profilesAreValidatedAndNamed() {
        assertThat(DeviceProfile.named("ssd")).isEqualTo(DeviceProfile.SSD);
        assertThat(DeviceProfile.named("hdd").costNanos(150_000_000)).isEqualTo(8_500_000L + 1_000_000_000L);
        assertThat(DeviceProfile.named("none")).isNull();
        assertThatThrownBy(() -> DeviceProfile.named("tape")).hasMessageContaining("accepted: ssd, hdd, none");
        assertThatThrownBy(() -> new DeviceProfile("x", 0, 0)).hasMessageContaining("bytesPerSecond must be > 0");
        assertThatThrownBy(() -> FileLayer.plain().open(dir.resolve("m"), IoCause.READ, StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE).map(FileChannel.MapMode.READ_ONLY, 0, 1))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
