package io.lsmpolicies.lsm.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.FileOp;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The log format against every way a file can break: flipped bytes, truncation, zero fill, bad headers. */
class LogFormatTest {
    private static final int MAX = 1 << 20;

    @TempDir
    Path dir;

    private int files;

    /** Writes {@code records} to a new log and returns its path. */
    private Path write(List<byte[]> records) throws IOException {
        return write(records, false);
    }

    /** Writes {@code records} to a new log, through a mapping if {@code mapped}, and returns its path. */
    private Path write(List<byte[]> records, boolean mapped) throws IOException {
        Path path = dir.resolve("log-" + (files++));
        try (LogWriter w = LogWriter.create(FileLayer.plain(), path, LogKind.WAL, MAX, mapped)) {
            for (byte[] r : records) {
                w.append(r);
            }
            w.sync();
        }
        return path;
    }

    private static List<byte[]> records(long seed, int n) {
        SplittableRandom random = new SplittableRandom(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] r = new byte[random.nextInt(4) == 0 ? random.nextInt(200_000) : random.nextInt(300)];
            for (int j = 0; j < r.length; j++) {
                r[j] = (byte) random.nextInt(256);
            }
            out.add(r);
        }
        out.add(1, new byte[0]);
        return out;
    }

    /** Reads every record; the tail is checked by the caller through the returned reader. */
    static List<byte[]> readAll(LogReader reader) throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (byte[] r = reader.next(); r != null; r = reader.next()) {
            out.add(r);
        }
        return out;
    }

    static void assertSameRecords(List<byte[]> actual, List<byte[]> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i)).as("record %d", i).isEqualTo(expected.get(i));
        }
    }

    /** Offsets at which each record starts. */
    private static long[] starts(List<byte[]> records) {
        long[] starts = new long[records.size() + 1];
        long at = LogFormat.HEADER_BYTES;
        for (int i = 0; i < records.size(); i++) {
            starts[i] = at;
            at += LogFormat.RECORD_HEADER_BYTES + records.get(i).length;
        }
        starts[records.size()] = at;
        return starts;
    }

    @ParameterizedTest(name = "mapped {0}")
    @ValueSource(booleans = {false, true})
    void recordsRoundTripAndTheTailIsClean(boolean mapped) throws IOException {
        List<byte[]> records = records(1, 60);
        Path path = write(records, mapped);
        try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, true)) {
            assertSameRecords(readAll(r), records);
            assertThat(r.tail()).isEqualTo(new LogTail(false, Files.size(path), "clean end"));
            assertThat(r.next()).isNull();
        }
    }

    @Test
    void appendReportsTheOffsetPastEachRecord() throws IOException {
        List<byte[]> records = records(2, 10);
        long[] starts = starts(records);
        try (LogWriter w = LogWriter.create(dir.resolve("offsets"), LogKind.WAL, MAX)) {
            for (int i = 0; i < records.size(); i++) {
                assertThat(w.append(records.get(i))).isEqualTo(starts[i + 1]);
            }
        }
    }

    @Test
    void everyTruncationOfTheLastRecordIsATornTailAfterTheIntactRecords() throws IOException {
        List<byte[]> records = new ArrayList<>(records(3, 5));
        records.add(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20});
        byte[] whole = Files.readAllBytes(write(records));
        long[] starts = starts(records);
        long last = starts[records.size() - 1];
        for (long cut = last; cut < whole.length; cut++) {
            Path path = dir.resolve("cut-" + cut);
            Files.write(path, Arrays.copyOf(whole, (int) cut));
            try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, true)) {
                assertSameRecords(readAll(r), records.subList(0, records.size() - 1));
                LogTail tail = r.tail();
                assertThat(tail.torn()).as("cut at %d", cut).isEqualTo(cut != last);
                assertThat(tail.validEnd()).isEqualTo(last);
                assertThat(tail.wholeRecord()).as("a cut record is not whole").isFalse();
            }
            if (cut != last) {
                try (LogReader strict = LogReader.open(path, LogKind.WAL, MAX, false)) {
                    assertThatThrownBy(() -> readAll(strict)).isInstanceOf(CorruptionException.class)
                            .satisfies(e -> assertThat(((CorruptionException) e).code()).isEqualTo(Code.TORN_TAIL))
                            .satisfies(e -> assertThat(((CorruptionException) e).offset()).isEqualTo(last));
                }
            }
        }
    }

    @Test
    void aZeroFilledRemainderIsATornTail() throws IOException {
        List<byte[]> records = records(4, 8);
        Path path = write(records);
        Files.write(path, new byte[8192], java.nio.file.StandardOpenOption.APPEND);
        try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, true)) {
            assertSameRecords(readAll(r), records);
            assertThat(r.tail().torn()).isTrue();
            assertThat(r.tail().detail()).contains("zero-filled");
        }
    }

    /**
     * Regression: after a short write on a full device, closing the log wrote the same buffer again at the
     * advanced position (the first bytes of a record twice), a log no reader takes for torn. Now the file is cut
     * back to the last record a flush or sync completed, and nothing is written after the failure.
     */
    @ParameterizedTest(name = "mapped {0}")
    @ValueSource(booleans = {false, true})
    void aShortWriteOnAFullDeviceLeavesTheLogAtItsLastCompleteRecord(boolean mapped) throws IOException {
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        FileLayer layer = FileLayer.withFaults(faults);
        Path path = dir.resolve("full.log");
        List<byte[]> records = nonZeroRecords();
        LogWriter w = LogWriter.create(layer, path, LogKind.WAL, MAX, mapped);
        w.append(records.get(0));
        w.sync();
        w.append(records.get(1));
        w.flush();
        long end = w.size();
        faults.diskFullAt(FileOp.WRITE, 1, true); // half of the next write lands, the write after it fails
        w.append(records.get(2));
        IOException first = catchIo(w::sync);
        assertThat(first).hasMessageContaining(FaultInjector.NO_SPACE);
        assertThat(Files.size(path)).isEqualTo(end);
        faults.freeSpace();
        IOException later = catchIo(() -> w.append(records.get(2)));
        assertThat(later).hasMessageContaining(path.toString()).hasMessageContaining(FaultInjector.NO_SPACE)
                .hasCause(first);
        assertThat(catchIo(w::flush)).hasCause(first);
        w.close();
        assertThat(Files.size(path)).as("close writes nothing after a failure").isEqualTo(end);
        try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, false)) {
            assertSameRecords(readAll(r), records.subList(0, 2));
            assertThat(r.tail().torn()).isFalse();
        }
    }

    /** A failed sync cuts off the records that call flushed: they were never made durable. */
    @ParameterizedTest(name = "mapped {0}")
    @ValueSource(booleans = {false, true})
    void aFailedSyncCutsOffTheRecordsItFlushed(boolean mapped) throws IOException {
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        Path path = dir.resolve("sync.log");
        List<byte[]> records = nonZeroRecords();
        try (LogWriter w = LogWriter.create(FileLayer.withFaults(faults), path, LogKind.WAL, MAX, mapped)) {
            w.append(records.get(0));
            w.sync();
            long end = w.size();
            faults.diskFullAt(FileOp.SYNC, 1, false);
            w.append(records.get(1));
            assertThat(catchIo(w::sync)).hasMessageContaining(FaultInjector.NO_SPACE);
            assertThat(Files.size(path)).isEqualTo(end);
        }
        try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, false)) {
            assertSameRecords(readAll(r), records.subList(0, 1));
        }
    }

    /** A log whose header cannot be written is not left behind (it holds nothing; an open would refuse it). */
    @Test
    void aLogWhoseHeaderCannotBeWrittenIsDeleted() throws IOException {
        FaultInjector faults = new FaultInjector(dir.resolve("trash"));
        faults.diskFullAt(FileOp.WRITE, 1, true);
        Path path = dir.resolve("MANIFEST-000009");
        assertThatThrownBy(() -> LogWriter.create(FileLayer.withFaults(faults), path, LogKind.MANIFEST, MAX))
                .hasMessageContaining(FaultInjector.NO_SPACE);
        assertThat(path).doesNotExist();
    }

    @FunctionalInterface
    private interface IoCall {
        void run() throws IOException;
    }

    private static IOException catchIo(IoCall call) {
        try {
            call.run();
        } catch (IOException e) {
            return e;
        }
        throw new AssertionError("expected an IOException");
    }

    /** Three records of non-zero bytes: the zeros a test writes are the only ones in the file. */
    private static List<byte[]> nonZeroRecords() {
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            byte[] r = new byte[100 + 50 * i];
            Arrays.fill(r, (byte) (0x31 + i));
            records.add(r);
        }
        return records;
    }

    /**
     * A power loss on a file system that shows blocks never written as zeros: the file has its new size, and its
     * bytes from some offset on are zeros. Wherever that offset is (a record boundary, inside a header, inside a
     * payload), with or without zeros past the last record, the log ends torn at the record the zeros start in.
     */
    @Test
    void zerosFromAnyOffsetToTheEndOfTheFileAreATornTail() throws IOException {
        List<byte[]> records = nonZeroRecords();
        byte[] whole = Files.readAllBytes(write(records));
        long[] starts = starts(records);
        for (int grown : new int[] {0, 700}) {
            for (int z = (int) starts[0]; z < whole.length; z++) {
                byte[] image = Arrays.copyOf(whole, whole.length + grown);
                Arrays.fill(image, z, image.length, (byte) 0);
                Path path = dir.resolve("zeros-" + grown + "-" + z);
                Files.write(path, image);
                int damaged = 0;
                while (damaged + 1 < records.size() && starts[damaged + 1] <= z) {
                    damaged++;
                }
                try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, true)) {
                    assertSameRecords(readAll(r), records.subList(0, damaged));
                    assertThat(r.tail().torn()).as("zeros from %d, %d bytes grown", z, grown).isTrue();
                    assertThat(r.tail().validEnd()).as("zeros from %d", z).isEqualTo(starts[damaged]);
                    assertThat(r.tail().wholeRecord()).as("zeros from %d", z).isFalse();
                    assertThat(r.tail().detail()).contains("zero-filled");
                }
            }
        }
    }

    /** Zeros (from a boundary or from inside a record) with an intact record after them: corruption, not a tail. */
    @Test
    void anIntactRecordAfterZerosIsCorruption() throws IOException {
        List<byte[]> records = nonZeroRecords();
        byte[] whole = Files.readAllBytes(write(records));
        long[] starts = starts(records);
        for (int z = (int) starts[1]; z < starts[2]; z++) {
            byte[] image = whole.clone();
            Arrays.fill(image, z, (int) starts[2], (byte) 0);
            Path path = dir.resolve("zeros-then-record-" + z);
            Files.write(path, image);
            try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, true)) {
                assertThat(r.next()).isEqualTo(records.get(0));
                assertThatThrownBy(r::next).as("zeros from %d", z).isInstanceOf(CorruptionException.class)
                        .satisfies(e -> assertThat(((CorruptionException) e).offset()).isEqualTo(starts[1]));
            }
        }
    }

    @Test
    void everyFlippedByteOfAMiddleRecordIsCorruptionAtThatRecord() throws IOException {
        List<byte[]> records = List.of(new byte[] {9, 9, 9}, "middle record payload".getBytes(), new byte[] {7, 7});
        byte[] whole = Files.readAllBytes(write(records));
        long[] starts = starts(records);
        for (long at = starts[1]; at < starts[2]; at++) {
            byte[] damaged = whole.clone();
            damaged[(int) at] ^= 0x40;
            Path path = dir.resolve("flip-" + at);
            Files.write(path, damaged);
            try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, true)) {
                assertThat(r.next()).isEqualTo(records.get(0));
                assertThatThrownBy(r::next).as("flip at %d", at).isInstanceOf(CorruptionException.class)
                        .satisfies(e -> {
                            CorruptionException c = (CorruptionException) e;
                            assertThat(c.offset()).isEqualTo(starts[1]);
                            assertThat(c.code()).isIn(Code.BAD_LENGTH, Code.CHECKSUM_MISMATCH);
                            assertThat(c.file()).isEqualTo(path);
                            assertThat(c.getMessage()).contains(path.toString()).contains("offset " + starts[1]);
                        });
            }
        }
    }

    @Test
    void aDamagedFinalRecordIsTornWhenToleratedAndCorruptionOtherwise() throws IOException {
        List<byte[]> records = List.of(new byte[] {1}, new byte[] {2, 2, 2, 2});
        byte[] whole = Files.readAllBytes(write(records));
        whole[whole.length - 1] ^= 1;
        Path path = dir.resolve("last");
        Files.write(path, whole);
        try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, true)) {
            assertSameRecords(readAll(r), records.subList(0, 1));
            assertThat(r.tail().torn()).isTrue();
            assertThat(r.tail().wholeRecord()).as("a whole record, damaged").isTrue();
        }
        try (LogReader r = LogReader.open(path, LogKind.WAL, MAX, false)) {
            assertThat(r.next()).containsExactly(1);
            assertThatThrownBy(r::next).isInstanceOf(CorruptionException.class);
        }
    }

    @Test
    void headersAreChecked() throws IOException {
        Path path = write(List.of(new byte[] {1}));
        byte[] whole = Files.readAllBytes(path);

        assertThatThrownBy(() -> LogReader.open(path, LogKind.MANIFEST, MAX, true))
                .isInstanceOf(CorruptionException.class).hasMessageContaining("expected a MANIFEST log, found a WAL log");

        Path text = dir.resolve("text");
        Files.writeString(text, "these are not the bytes you are looking for");
        assertThatThrownBy(() -> LogReader.open(text, LogKind.WAL, MAX, true))
                .satisfies(e -> assertThat(((CorruptionException) e).code()).isEqualTo(Code.BAD_MAGIC));

        Path short_ = dir.resolve("short");
        Files.write(short_, Arrays.copyOf(whole, 11));
        assertThatThrownBy(() -> LogReader.open(short_, LogKind.WAL, MAX, true))
                .satisfies(e -> assertThat(((CorruptionException) e).code()).isEqualTo(Code.TRUNCATED_HEADER));

        byte[] flipped = whole.clone();
        flipped[17] ^= 1;
        Path badCrc = dir.resolve("badcrc");
        Files.write(badCrc, flipped);
        assertThatThrownBy(() -> LogReader.open(badCrc, LogKind.WAL, MAX, true))
                .satisfies(e -> assertThat(((CorruptionException) e).code()).isEqualTo(Code.CHECKSUM_MISMATCH));

        ByteBuffer future = ByteBuffer.wrap(whole.clone());
        future.putInt(8, 99);
        future.putInt(16, LogFormat.crc(future.array(), 0, 16));
        Path newer = dir.resolve("newer");
        Files.write(newer, future.array());
        assertThatThrownBy(() -> LogReader.open(newer, LogKind.WAL, MAX, true))
                .satisfies(e -> assertThat(((CorruptionException) e).code()).isEqualTo(Code.UNSUPPORTED_VERSION))
                .hasMessageContaining("version 99");
    }

    @Test
    void recordsAboveTheMaximumAreRefusedOnBothSides() throws IOException {
        try (LogWriter w = LogWriter.create(dir.resolve("small"), LogKind.WAL, 10)) {
            assertThatThrownBy(() -> w.append(new byte[11])).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("11 bytes exceeds the maximum of 10 bytes");
        }
        Path path = write(List.of(new byte[100], new byte[5]));
        try (LogReader r = LogReader.open(path, LogKind.WAL, 50, true)) {
            assertThatThrownBy(r::next).isInstanceOf(CorruptionException.class)
                    .hasMessageContaining("record length 100 exceeds the maximum of 50");
        }
        assertThatThrownBy(() -> LogWriter.create(path, LogKind.WAL, MAX))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
    }
}
