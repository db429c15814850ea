package io.lsmpolicies.lsm.manifest;

import static io.lsmpolicies.lsm.manifest.Tables.flush;
import static io.lsmpolicies.lsm.manifest.Tables.merge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.log.LogKind;
import io.lsmpolicies.lsm.log.LogWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Recovery against every way the manifest or CURRENT can break: torn tails, flipped bytes, bad pointers. */
class ManifestCorruptionTest {
    /** Bytes of the log file header (magic, version, kind, CRC): where the first record starts. */
    private static final long LOG_HEADER_BYTES = 20;

    private static final String NAME = "MANIFEST-000001";

    @TempDir
    Path dir;

    private int stores;

    /** A written manifest: its bytes, the set after each record, where each record starts, then the file's end. */
    private record Written(byte[] bytes, List<ComponentSet> states, List<Long> starts) {
    }

    /** Creates a store, appends flushes 2..6 and a merge, and returns what it wrote. */
    private Written writeStore() throws IOException {
        Path store = Files.createDirectory(dir.resolve("origin"));
        List<ComponentSet> states = new ArrayList<>();
        List<Long> starts = new ArrayList<>();
        try (Manifest m = Manifest.create(store, ComponentSet.empty())) {
            starts.add((long) LOG_HEADER_BYTES);
            starts.add(Files.size(m.path()));
            states.add(m.current());
            List<ManifestEdit> edits = new ArrayList<>();
            for (long n = 2; n <= 6; n++) {
                edits.add(flush(n));
            }
            edits.add(merge(7, 5, 4, 3));
            for (ManifestEdit e : edits) {
                m.append(e);
                starts.add(Files.size(m.path()));
                states.add(m.current());
            }
        }
        return new Written(Files.readAllBytes(store.resolve(NAME)), states, starts);
    }

    /** A new store directory whose CURRENT names {@link #NAME}, holding {@code manifest}. */
    private Path storeWith(byte[] manifest) throws IOException {
        Path store = Files.createDirectory(dir.resolve("store-" + (stores++)));
        Files.write(store.resolve(NAME), manifest);
        Files.writeString(store.resolve(StoreFiles.CURRENT), NAME + "\n");
        return store;
    }

    private static void assertCorrupt(ThrowingCallable call, Path file, long offset, Code code, String message) {
        assertThatThrownBy(call).isInstanceOf(CorruptionException.class).hasMessageContaining(message)
                .satisfies(e -> {
                    CorruptionException c = (CorruptionException) e;
                    assertThat(c.file()).isEqualTo(file);
                    assertThat(c.offset()).isEqualTo(offset);
                    assertThat(c.code()).isEqualTo(code);
                });
    }

    @Test
    void aTornLastRecordIsToleratedAtEveryCut() throws IOException {
        Written w = writeStore();
        int records = w.states().size();
        long last = w.starts().get(records - 1);
        assertThat(w.starts().get(records)).isEqualTo(w.bytes().length);
        for (long cut = last; cut < w.bytes().length; cut++) {
            Path store = storeWith(Arrays.copyOf(w.bytes(), (int) cut));
            Recovered r = Manifest.recover(store);
            assertThat(r.set()).as("cut at %d", cut).isEqualTo(w.states().get(records - 2));
            assertThat(r.tail().torn()).isEqualTo(cut != last);
            assertThat(r.tail().validEnd()).isEqualTo(last);
        }
        Recovered whole = Manifest.recover(storeWith(w.bytes()));
        assertThat(whole.set()).isEqualTo(w.states().get(records - 1));
        assertThat(whole.tail().torn()).isFalse();
    }

    @Test
    void aWholeFinalRecordThatFailsItsChecksumIsCorruptionNotATornTail() throws IOException {
        Written w = writeStore();
        int records = w.states().size();
        long last = w.starts().get(records - 1);
        for (long at = last + 12; at < w.bytes().length; at++) { // every payload byte of the final record
            byte[] damaged = w.bytes().clone();
            damaged[(int) at] ^= (byte) 0x80;
            Path store = storeWith(damaged);
            assertCorrupt(() -> Manifest.recover(store), store.resolve(NAME), last, Code.CHECKSUM_MISMATCH,
                    "complete but fails its checksum");
        }
    }

    @Test
    void aFlippedByteInAMiddleRecordIsCorruptionAtThatRecord() throws IOException {
        Written w = writeStore();
        int middle = 3;
        long start = w.starts().get(middle);
        for (long at = start; at < w.starts().get(middle + 1); at++) {
            byte[] damaged = w.bytes().clone();
            damaged[(int) at] ^= (byte) 0x80;
            Path store = storeWith(damaged);
            assertThatThrownBy(() -> Manifest.recover(store)).as("flip at %d", at)
                    .isInstanceOf(CorruptionException.class).satisfies(e -> {
                        CorruptionException c = (CorruptionException) e;
                        assertThat(c.file()).isEqualTo(store.resolve(NAME));
                        assertThat(c.offset()).isEqualTo(start);
                        assertThat(c.code()).isIn(Code.BAD_LENGTH, Code.CHECKSUM_MISMATCH);
                    });
        }
    }

    @Test
    void aFlippedByteInTheFileHeaderIsCorruption() throws IOException {
        Written w = writeStore();
        byte[] damaged = w.bytes().clone();
        damaged[3] ^= 1;
        Path store = storeWith(damaged);
        assertCorrupt(() -> Manifest.recover(store), store.resolve(NAME), 0, Code.BAD_MAGIC, "not a log file");
    }

    @Test
    void aMissingCurrentSaysTheDirectoryHoldsNoStore() throws IOException {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        assertThatThrownBy(() -> Manifest.recover(empty)).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("holds no store").hasMessageContaining(empty.toString());
        assertThatThrownBy(() -> Manifest.recover(dir.resolve("absent"))).isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("holds no store");
    }

    @Test
    void garbageInCurrentIsCorruption() throws IOException {
        Written w = writeStore();
        for (String content : List.of("hello\n", NAME, NAME + "\n\n", "MANIFEST-1\n", "MANIFEST-000000\n", "",
                " " + NAME + "\n", "x".repeat(500))) {
            Path store = storeWith(w.bytes());
            Files.writeString(store.resolve(StoreFiles.CURRENT), content);
            assertCorrupt(() -> Manifest.recover(store), store.resolve(StoreFiles.CURRENT), 0, Code.BAD_MAGIC,
                    "CURRENT");
        }
        Path store = storeWith(w.bytes());
        Files.write(store.resolve(StoreFiles.CURRENT), new byte[] {'M', 0, (byte) 0xff});
        assertCorrupt(() -> Manifest.recover(store), store.resolve(StoreFiles.CURRENT), 0, Code.BAD_MAGIC,
                "\\x00\\xff");
    }

    @Test
    void currentNamingAMissingManifestIsCorruption() throws IOException {
        Path store = storeWith(writeStore().bytes());
        Files.writeString(store.resolve(StoreFiles.CURRENT), "MANIFEST-000077\n");
        assertCorrupt(() -> Manifest.recover(store), store.resolve(StoreFiles.CURRENT), 0, Code.MISSING_FILE,
                "CURRENT names MANIFEST-000077, which does not exist");
    }

    /** Writes a manifest of {@code payloads} with the log writer; returns each record's start offset. */
    private static long[] writeLog(Path file, List<byte[]> payloads) throws IOException {
        long[] starts = new long[payloads.size()];
        try (LogWriter w = LogWriter.create(file, LogKind.MANIFEST, Manifest.MAX_RECORD_BYTES)) {
            long at = w.size();
            for (int i = 0; i < payloads.size(); i++) {
                starts[i] = at;
                at = w.append(payloads.get(i));
            }
            w.sync();
        }
        return starts;
    }

    private Path handWritten(List<byte[]> payloads, long[] startsOut) throws IOException {
        Path store = Files.createDirectory(dir.resolve("hand-" + (stores++)));
        long[] starts = writeLog(store.resolve(NAME), payloads);
        System.arraycopy(starts, 0, startsOut, 0, starts.length);
        Files.writeString(store.resolve(StoreFiles.CURRENT), NAME + "\n");
        return store;
    }

    private static byte[] snapshotOfFlushes() {
        ComponentSet set = ComponentSet.empty();
        for (long n = 1; n <= 3; n++) {
            set = set.apply(flush(n));
        }
        return set.snapshot().encode();
    }

    @Test
    void removingAnUnknownFileIsCorruptionAtThatRecordsOffset() throws IOException {
        long[] starts = new long[3];
        Path store = handWritten(List.of(snapshotOfFlushes(), flush(4).encode(), merge(5, 4, 99).encode()), starts);
        assertThat(starts[0]).isEqualTo(LOG_HEADER_BYTES);
        assertCorrupt(() -> Manifest.recover(store), store.resolve(NAME), starts[2], Code.INCONSISTENT_RECORD,
                "removes file 99");
    }

    @Test
    void addingALiveFileAgainIsCorruptionAtThatRecordsOffset() throws IOException {
        long[] starts = new long[2];
        Path store = handWritten(List.of(snapshotOfFlushes(),
                ManifestEdit.builder().addTable(Tables.flushed(2)).build().encode()), starts);
        assertCorrupt(() -> Manifest.recover(store), store.resolve(NAME), starts[1], Code.INCONSISTENT_RECORD,
                "adds file 2");
    }

    @Test
    void anUnknownTagInARecordIsCorruption() throws IOException {
        long[] starts = new long[3];
        Path store = handWritten(List.of(snapshotOfFlushes(), new byte[] {ManifestEdit.FORMAT_VERSION, 9, 0, 0},
                flush(4).encode()), starts);
        assertCorrupt(() -> Manifest.recover(store), store.resolve(NAME), starts[1], Code.UNKNOWN_TAG, "tag 9");
    }

    @Test
    void anUnknownVersionInARecordIsRefused() throws IOException {
        byte[] future = flush(4).encode();
        future[0] = ManifestEdit.FORMAT_VERSION + 1;
        long[] starts = new long[2];
        Path store = handWritten(List.of(snapshotOfFlushes(), future), starts);
        assertCorrupt(() -> Manifest.recover(store), store.resolve(NAME), starts[1], Code.UNSUPPORTED_VERSION,
                "version " + (ManifestEdit.FORMAT_VERSION + 1));
    }

    @Test
    void aBadLengthInsideARecordIsCorruption() throws IOException {
        byte[] edit = flush(4).encode();
        edit[1 + 1 + 8 + 4 + 24 + 3] = 100;
        long[] starts = new long[2];
        Path store = handWritten(List.of(snapshotOfFlushes(), edit), starts);
        assertCorrupt(() -> Manifest.recover(store), store.resolve(NAME), starts[1], Code.BAD_LENGTH,
                "minKey length 100");
    }

    @Test
    void aManifestWithoutAnIntactSnapshotIsCorruption() throws IOException {
        Path empty = handWritten(List.of(), new long[0]);
        assertCorrupt(() -> Manifest.recover(empty), empty.resolve(NAME), LOG_HEADER_BYTES,
                Code.INCONSISTENT_RECORD, "no intact snapshot record");

        long[] starts = new long[1];
        Path torn = handWritten(List.of(snapshotOfFlushes()), starts);
        byte[] whole = Files.readAllBytes(torn.resolve(NAME));
        Files.write(torn.resolve(NAME), Arrays.copyOf(whole, whole.length - 1));
        assertCorrupt(() -> Manifest.recover(torn), torn.resolve(NAME), LOG_HEADER_BYTES, Code.TORN_TAIL,
                "no intact snapshot record");
    }

    @Test
    void aWalLogNamedAsTheManifestIsRefused() throws IOException {
        Path store = Files.createDirectory(dir.resolve("wal"));
        try (LogWriter w = LogWriter.create(store.resolve(NAME), LogKind.WAL, 1024)) {
            w.sync();
        }
        Files.writeString(store.resolve(StoreFiles.CURRENT), NAME + "\n");
        assertCorrupt(() -> Manifest.recover(store), store.resolve(NAME), 12, Code.BAD_MAGIC,
                "expected a MANIFEST log");
    }
}
