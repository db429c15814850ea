package io.lsmpolicies.lsm.log;

import static io.lsmpolicies.lsm.log.LogFormatTest.assertSameRecords;
import static io.lsmpolicies.lsm.log.LogFormatTest.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.io.MappedAppends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log written through a memory mapping ({@link LogWriter} created {@code mapped}, as an {@code async} write-ahead
 * log is): the zeros claimed ahead of the records while it is open, what a power loss leaves, and what the file
 * layer (its byte counts and its fault hook) sees of the appends.
 */
class MappedLogTest {
    private static final int MAX = 1 << 20;

    @TempDir
    Path dir;

    /** {@code n} records of 1 to 6,000 random bytes. */
    private static List<byte[]> records(long seed, int n) {
        SplittableRandom random = new SplittableRandom(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] r = new byte[1 + random.nextInt(6000)];
            for (int j = 0; j < r.length; j++) {
                r[j] = (byte) random.nextInt(256);
            }
            out.add(r);
        }
        return out;
    }

    @Test
    void anOpenMappedLogEndsInClaimedZerosThatAReaderTakesForItsEndAndItsCloseCutsThem() throws IOException {
        Path path = dir.resolve("000001.log");
        List<byte[]> records = records(1, 1500); // about 4.5 MB: several steps
        LogWriter w = LogWriter.create(FileLayer.plain(), path, LogKind.WAL, MAX, true);
        for (int i = 0; i < records.size(); i++) {
            w.append(records.get(i));
            if (i % 7 == 0) {
                w.flush();
            }
        }
        w.flush();
        long end = w.size();
        byte[] image = Files.readAllBytes(path); // what a killed process leaves
        assertThat((long) image.length).isGreaterThan(end).isLessThanOrEqualTo(end + MappedAppends.STEP_BYTES);
        byte[] claimed = Arrays.copyOfRange(image, (int) end, image.length);
        assertThat(claimed).as("the claimed bytes after the last record").containsOnly((byte) 0);
        try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, true)) {
            assertSameRecords(readAll(r), records);
            assertThat(r.tail().torn()).isTrue();
            assertThat(r.tail().validEnd()).isEqualTo(end);
            assertThat(r.tail().detail()).contains("zero-filled");
        }
        try (LogReader strict = LogReader.open(path, LogKind.WAL, MAX, false)) {
            assertThatThrownBy(() -> readAll(strict)).isInstanceOf(CorruptionException.class)
                    .satisfies(e -> assertThat(((CorruptionException) e).code()).isEqualTo(Code.TORN_TAIL));
        }
        w.close();
        assertThat(Files.size(path)).as("closed, the file ends at its last record").isEqualTo(end);
        try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, false)) {
            assertSameRecords(readAll(r), records);
            assertThat(r.tail()).isEqualTo(new LogTail(false, end, "clean end"));
        }
    }

    /**
     * The power goes off after some records were forced and more were appended: the device keeps the forced ones
     * and, with torn tails, a random part of the rest (zeros included), never anything out of order.
     */
    @Test
    void aPowerLossKeepsWhatWasForcedAndAtMostAPrefixOfTheRest() throws IOException {
        for (int seed = 0; seed < 16; seed++) {
            FaultInjector faults = new FaultInjector(dir.resolve("trash-" + seed));
            Path path = dir.resolve("power-" + seed + ".log");
            List<byte[]> forced = records(seed, 300);
            List<byte[]> after = records(seed + 1000, 300);
            FileLayer layer = FileLayer.withFaults(faults);
            LogWriter w = LogWriter.create(layer, path, LogKind.WAL, MAX, true);
            layer.syncDirectory(dir); // the file's creation is durable
            for (byte[] r : forced) {
                w.append(r);
            }
            w.sync();
            for (byte[] r : after) {
                w.append(r);
            }
            w.flush();
            faults.powerOff();
            try {
                w.close();
            } catch (IOException e) {
                // the power is off: the close's force fails
            }
            faults.crash(seed == 0 ? null : new Random(seed));
            List<byte[]> all = new ArrayList<>(forced);
            all.addAll(after);
            try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, true)) {
                List<byte[]> read = readAll(r);
                assertThat(read.size()).as("seed %d", seed).isBetween(forced.size(), all.size());
                assertSameRecords(read, all.subList(0, read.size()));
                if (seed == 0) {
                    assertThat(read).as("without torn tails only the forced records").hasSameSizeAs(forced);
                }
            }
        }
    }

    @Test
    void appendsAreChargedAsTheLogsBytesAndEachPassesTheFaultHook() throws IOException {
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        FileLayer layer = FileLayer.withFaults(faults);
        Path path = dir.resolve("000002.log");
        List<byte[]> records = records(7, 10);
        try (LogWriter w = LogWriter.create(layer, path, LogKind.WAL, MAX, true)) {
            long writes = faults.count(FileOp.WRITE);
            long bytes = layer.stats().bytesWritten(IoCause.WAL);
            long payload = 0;
            for (byte[] r : records) {
                w.append(r);
                w.flush();
                payload += LogFormat.RECORD_HEADER_BYTES + r.length;
            }
            assertThat(layer.stats().bytesWritten(IoCause.WAL) - bytes).as("the records, not the zeros claimed")
                    .isEqualTo(payload);
            assertThat(faults.count(FileOp.WRITE) - writes).as("one per flush and one for the claimed step")
                    .isEqualTo(records.size() + 1);
            long end = w.size();
            faults.failNth(FileOp.WRITE, 1, false);
            w.append(new byte[] {1, 2, 3});
            assertThatThrownBy(w::flush).isInstanceOf(IOException.class).hasMessageContaining("injected failure");
            assertThat(Files.size(path)).as("cut back to the last flushed record, zeros and all").isEqualTo(end);
        }
        try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, false)) {
            assertSameRecords(readAll(r), records);
        }
    }
}
