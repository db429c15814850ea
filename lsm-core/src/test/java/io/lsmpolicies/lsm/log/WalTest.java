package io.lsmpolicies.lsm.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.io.DeviceProfile;
import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.lsm.wal.WriteBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalTest {
    @TempDir
    Path dir;

    private static WalRecord batch(long base, String... keys) {
        WriteBatch b = new WriteBatch();
        for (String k : keys) {
            if (k.startsWith("-")) {
                b.delete(k.substring(1).getBytes());
            } else {
                b.put(k.getBytes(), ("v" + k).getBytes());
            }
        }
        return WalRecord.of(base, b);
    }

    @Test
    void writeBatchesRoundTripWithConsecutiveSequences() {
        WalRecord b = batch(41, "a", "-b", "c");
        WalRecord copy = WalRecord.decode(b.encode());
        assertThat(copy.baseSequence()).isEqualTo(41);
        assertThat(copy.entries()).containsExactly(Entry.put("a".getBytes(), 41, "va".getBytes()),
                Entry.delete("b".getBytes(), 42), Entry.put("c".getBytes(), 43, "vc".getBytes()));
        assertThat(new WriteBatch().put("a".getBytes(), "va".getBytes()).delete("b".getBytes()).userBytes())
                .isEqualTo(1 + 2 + 1);
        assertThatThrownBy(() -> WalRecord.of(-1, new WriteBatch())).hasMessageContaining("sequence must be >= 0");
    }

    @Test
    void aRecordEncodedWhereTheLogBuffersItIsTheSameBytesAsItsArray() throws IOException {
        byte[] big = new byte[100_000]; // larger than the log's buffer: encoded into an array of its own
        Arrays.fill(big, (byte) 7);
        List<WalRecord> records = List.of(batch(1, "a", "-b", "c"), WalRecord.of(4, new WriteBatch()
                .put("big".getBytes(), big)), batch(5, "d"));
        Path inPlace = dir.resolve("in-place.log");
        Path copied = dir.resolve("copied.log");
        try (WalWriter a = WalWriter.create(inPlace, SyncMode.ASYNC);
                WalWriter b = WalWriter.create(copied, SyncMode.ASYNC)) {
            for (WalRecord r : records) {
                assertThat(r.encodedSize()).isEqualTo(r.encode().length);
                a.awaitDurable(a.enqueue(r));
                b.append(r.encode());
            }
        }
        assertThat(Files.readAllBytes(inPlace)).isEqualTo(Files.readAllBytes(copied));
    }

    @Test
    void aPayloadThatPutsOtherThanItsSizeIsRefusedAndTheLogGoesOn() throws IOException {
        Path path = dir.resolve("lying.log");
        try (LogWriter w = LogWriter.create(path, LogKind.WAL, 1 << 20)) {
            w.append("first".getBytes());
            LogPayload lying = new LogPayload() {
                @Override
                public int encodedSize() {
                    return 3;
                }

                @Override
                public void encodeTo(java.nio.ByteBuffer out) {
                    out.put("four".getBytes());
                }
            };
            assertThatThrownBy(() -> w.append(lying)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("put 4 bytes, not the 3 it announced");
            w.append("second".getBytes());
        }
        List<String> read = new ArrayList<>();
        try (LogReader r = LogReader.open(path, LogKind.WAL, 1 << 20, false)) {
            for (byte[] p = r.next(); p != null; p = r.next()) {
                read.add(new String(p));
            }
        }
        assertThat(read).containsExactly("first", "second");
    }

    @Test
    void anAsyncSegmentIsForcedInTheBackgroundAsItIsWritten() throws IOException {
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        byte[] value = new byte[4000];
        try (WalWriter w = WalWriter.create(FileLayer.withFaults(faults), dir.resolve("000001.log"), SyncMode.ASYNC)) {
            for (int i = 0; (long) i * value.length < 3 * WalWriter.SYNC_EVERY_BYTES; i++) {
                w.append(WalRecord.of(i, new WriteBatch().put(("k" + i).getBytes(), value)).encode());
            }
        }
        // the header's force at creation and the close's, and at least the first background force (at 8 MiB,
        // none running then); before, only the first two
        assertThat(faults.count(FileOp.SYNC)).isGreaterThanOrEqualTo(3);
    }

    @Test
    void aFailedBackgroundForceFailsTheSegment() throws IOException {
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        faults.failNth(FileOp.SYNC, 2, false); // the first background force (the first is the header's)
        byte[] value = new byte[4000];
        IOException failure = null;
        try (WalWriter w = WalWriter.create(FileLayer.withFaults(faults), dir.resolve("000001.log"), SyncMode.ASYNC)) {
            for (int i = 0; failure == null && (long) i * value.length < 16 * WalWriter.SYNC_EVERY_BYTES; i++) {
                try {
                    w.append(WalRecord.of(i, new WriteBatch().put(("k" + i).getBytes(), value)).encode());
                } catch (IOException e) {
                    failure = e;
                }
            }
            assertThat(failure).as("a later append reports the failed force").isNotNull()
                    .hasMessageContaining("injected failure");
            assertThatThrownBy(() -> w.append(batch(1, "after").encode())).isInstanceOf(IOException.class)
                    .hasMessageContaining("injected failure");
        }
    }

    /**
     * An Error in the group write (here thrown by a payload's encoding; an access fault in a mapped segment would be
     * another) fails the segment like an I/O failure: before, the leader left the group write marked as running and
     * every later writer waited for it forever.
     */
    @Test
    void anErrorInTheGroupWriteFailsTheSegmentInsteadOfLeavingWritersWaiting() throws IOException {
        try (WalWriter w = WalWriter.create(dir.resolve("000009.log"), SyncMode.ASYNC)) {
            w.append(batch(0, "first").encode());
            LogPayload broken = new LogPayload() {
                @Override
                public int encodedSize() {
                    return 8;
                }

                @Override
                public void encodeTo(java.nio.ByteBuffer out) {
                    throw new AssertionError("encoder broke");
                }
            };
            assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
                assertThatThrownBy(() -> w.awaitDurable(w.enqueue(broken))).isInstanceOf(IOException.class)
                        .hasMessageContaining("encoder broke").hasRootCauseInstanceOf(AssertionError.class);
                java.util.concurrent.atomic.AtomicReference<Throwable> seen = new java.util.concurrent.atomic
                        .AtomicReference<>();
                Thread other = new Thread(() -> {
                    try {
                        w.append(batch(1, "second").encode());
                    } catch (Throwable t) {
                        seen.set(t);
                    }
                });
                other.start();
                other.join();
                assertThat(seen.get()).as("a later writer's append").isInstanceOf(IOException.class)
                        .hasMessageContaining("encoder broke");
            });
        }
        try (LogReader r = LogReader.open(dir.resolve("000009.log"), LogKind.WAL, WalWriter.MAX_RECORD_BYTES, false)) {
            assertThat(r.next()).as("the first record").isNotNull();
            assertThat(r.next()).as("nothing of the broken one").isNull();
            assertThat(r.tail().torn()).isFalse();
        }
    }

    @Test
    void malformedBatchesSayWhatIsWrong() {
        byte[] good = batch(1, "a", "b").encode();
        byte[] version = good.clone();
        version[0] = 7;
        assertThatThrownBy(() -> WalRecord.decode(version)).hasMessageContaining("unknown write-batch version 7");
        assertThatThrownBy(() -> WalRecord.decode(Arrays.copyOf(good, good.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] type = good.clone();
        type[13] = 9;
        assertThatThrownBy(() -> WalRecord.decode(type)).hasMessageContaining("unknown type 9");
        byte[] longer = Arrays.copyOf(good, good.length + 2);
        assertThatThrownBy(() -> WalRecord.decode(longer)).hasMessageContaining("2 bytes after the last operation");
    }

    @Test
    void groupCommitKeepsEveryAcknowledgedBatchInPerThreadOrder() throws Exception {
        Path segment = dir.resolve("000001.wal");
        int threads = 8;
        int perThread = 60;
        AtomicLong sequence = new AtomicLong(1);
        // Every fsync takes at least 1 ms on this emulated device, so writers queue behind each other for sure,
        // even where the real fsync is nearly free (tmpfs).
        FileLayer slowSync = FileLayer.throttled(new DeviceProfile("slow-sync", 1_000_000, 1_000_000_000));
        try (WalWriter wal = WalWriter.create(slowSync, segment, SyncMode.SYNC)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        wal.append(batch(sequence.getAndIncrement(), "t" + thread + "-" + i).encode());
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            // Group commit: with 8 writers, one fsync serves several batches.
            assertThat(wal.syncs()).isLessThan((long) threads * perThread / 2);
        }
        Map<Integer, Integer> lastSeen = new HashMap<>();
        List<WalRecord> replayed = new ArrayList<>();
        LogTail tail = WalReplay.replay(segment, replayed::add);
        assertThat(tail.torn()).isFalse();
        assertThat(replayed).hasSize(threads * perThread);
        for (WalRecord b : replayed) {
            String key = new String(b.ops().get(0).key());
            int thread = Integer.parseInt(key.substring(1, key.indexOf('-')));
            int i = Integer.parseInt(key.substring(key.indexOf('-') + 1));
            assertThat(i).as("order of thread %d", thread).isEqualTo(lastSeen.getOrDefault(thread, -1) + 1);
            lastSeen.put(thread, i);
        }
    }

    @Test
    void aCrashedProcessLeavesEveryAcknowledgedAsyncBatchOnDisk() throws Exception {
        Path segment = dir.resolve("000002.wal");
        WalWriter wal = WalWriter.create(segment, SyncMode.ASYNC);
        for (int i = 0; i < 100; i++) {
            wal.append(batch(i, "k" + i).encode());
        }
        // No close: what the OS holds is what a killed process leaves behind.
        Path copy = dir.resolve("copy.wal");
        Files.copy(segment, copy);
        List<WalRecord> replayed = new ArrayList<>();
        WalReplay.replay(copy, replayed::add);
        assertThat(replayed).hasSize(100);
        assertThat(replayed.get(99).baseSequence()).isEqualTo(99);
        wal.close();
        assertThatThrownBy(() -> wal.append(new byte[1])).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void replayStopsCleanlyAtATornTailAndRefusesDamage() throws Exception {
        Path segment = dir.resolve("000003.wal");
        try (WalWriter wal = WalWriter.create(segment, SyncMode.SYNC)) {
            for (int i = 0; i < 10; i++) {
                wal.append(batch(i, "key" + i, "-gone" + i).encode());
            }
        }
        byte[] bytes = Files.readAllBytes(segment);
        Path torn = dir.resolve("torn.wal");
        Files.write(torn, Arrays.copyOf(bytes, bytes.length - 5));
        List<WalRecord> replayed = new ArrayList<>();
        assertThat(WalReplay.replay(torn, replayed::add).torn()).isTrue();
        assertThat(replayed).hasSize(9);

        byte[] flipped = bytes.clone();
        flipped[60] ^= 0x10;
        Path damaged = dir.resolve("damaged.wal");
        Files.write(damaged, flipped);
        assertThatThrownBy(() -> WalReplay.replay(damaged, b -> { })).isInstanceOf(CorruptionException.class);

        Path garbage = dir.resolve("garbage.wal");
        long offset;
        try (LogWriter w = LogWriter.create(garbage, LogKind.WAL, WalWriter.MAX_RECORD_BYTES)) {
            w.append(batch(1, "ok").encode());
            offset = w.size();
            w.append(new byte[] {1, 2, 3}); // intact checksum, not a write batch
            w.append(batch(2, "after").encode());
        }
        assertThatThrownBy(() -> WalReplay.replay(garbage, b -> { })).isInstanceOf(CorruptionException.class)
                .hasMessageContaining("write batch").satisfies(e ->
                        assertThat(((CorruptionException) e).offset()).isEqualTo(offset));
        assertThatThrownBy(() -> WalWriter.create(dir.resolve("off.wal"), SyncMode.OFF))
                .hasMessageContaining("OFF writes no write-ahead log");
    }

    /**
     * Regression: a failed append said "failed earlier; reopen the store", even the first time, without the cause.
     * Now the first and every later failure name the segment and the first cause, which is also their cause.
     */
    @Test
    void aFailedAppendNamesTheFirstCauseTheFirstTimeAndEveryTimeAfter() throws Exception {
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        Path segment = dir.resolve("000033.log");
        try (WalWriter wal = WalWriter.create(FileLayer.withFaults(faults), segment, SyncMode.SYNC)) {
            wal.append(batch(1, "a").encode());
            faults.diskFullAt(FileOp.WRITE, 1, true);
            IOException first = appendFailure(wal, batch(2, "b").encode());
            assertThat(first).hasMessageContaining(segment.toString()).hasMessageContaining(FaultInjector.NO_SPACE);
            assertThat(first.getCause()).hasMessageStartingWith(FaultInjector.NO_SPACE);
            faults.freeSpace();
            IOException later = appendFailure(wal, batch(3, "c").encode());
            assertThat(later).hasMessageContaining(segment.toString()).hasMessageContaining(FaultInjector.NO_SPACE);
            assertThat(later.getCause()).isSameAs(first.getCause());
        }
        List<WalRecord> replayed = new ArrayList<>();
        LogTail tail = WalReplay.replay(segment, replayed::add);
        assertThat(replayed).hasSize(1);
        assertThat(tail.torn()).as("the segment ends at its last complete record").isFalse();
    }

    /** Regression: a close whose final sync failed left the segment's file open (a descriptor leaked per failure). */
    @Test
    void aCloseWhoseSyncFailsStillReleasesTheFile() throws Exception {
        Path fds = Path.of("/proc/self/fd");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(fds), "needs /proc/self/fd (Linux)");
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        Path segment = dir.resolve("000034.log");
        WalWriter wal = WalWriter.create(FileLayer.withFaults(faults), segment, SyncMode.ASYNC);
        wal.append(batch(1, "a").encode());
        faults.diskFullAt(FileOp.SYNC, 1, false);
        assertThatThrownBy(wal::close).hasMessageContaining(FaultInjector.NO_SPACE);
        List<Path> open = new ArrayList<>();
        try (var links = Files.list(fds)) {
            for (Path fd : links.toList()) {
                try {
                    open.add(Files.readSymbolicLink(fd));
                } catch (IOException e) {
                    // closed meanwhile (the listing's own descriptor)
                }
            }
        }
        assertThat(open).doesNotContain(segment.toAbsolutePath());
    }

    private static IOException appendFailure(WalWriter wal, byte[] record) {
        try {
            wal.append(record);
        } catch (IOException e) {
            return e;
        }
        throw new AssertionError("the append succeeded");
    }
}
