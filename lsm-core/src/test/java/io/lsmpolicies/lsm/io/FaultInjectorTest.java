package io.lsmpolicies.lsm.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fault-injecting file layer on plain files: failures by count, and what a simulated power loss keeps. */
class FaultInjectorTest {
    @TempDir
    Path tmp;

    private static void write(FileLayer files, Path p, String text, boolean sync) throws Exception {
        try (FileChannel ch = files.open(p, IoCause.WAL, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)));
            if (sync) {
                ch.force(true);
            }
        }
    }

    private static String read(Path p) throws Exception {
        return Files.exists(p) ? Files.readString(p, StandardCharsets.US_ASCII) : null;
    }

    @Test
    void aPowerLossKeepsSyncedBytesAndDurableDirectoryEntriesOnly() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("d"));
        Files.writeString(dir.resolve("old"), "before", StandardCharsets.US_ASCII); // there before the injector
        FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
        FileLayer files = FileLayer.withFaults(faults);

        write(files, dir.resolve("a"), "synced", true);
        files.syncDirectory(dir); // a's entry is durable
        write(files, dir.resolve("a"), "+unsynced", false);
        write(files, dir.resolve("b"), "never-dir-synced", true); // its entry is not durable
        write(files, dir.resolve("old"), "+more", false);
        files.delete(dir.resolve("old")); // not durable either: it comes back, as it was synced
        write(files, dir.resolve("c.tmp"), "new", true);
        files.moveAtomically(dir.resolve("c.tmp"), dir.resolve("c")); // no directory sync after it

        faults.powerOff();
        assertThatThrownBy(() -> write(files, dir.resolve("a"), "x", true)).hasMessageContaining("power");
        String account = faults.crash(null);

        assertThat(read(dir.resolve("a"))).isEqualTo("synced");
        assertThat(read(dir.resolve("b"))).isNull();
        assertThat(read(dir.resolve("old"))).isEqualTo("before");
        assertThat(read(dir.resolve("c"))).isNull();
        assertThat(read(dir.resolve("c.tmp"))).isNull();
        assertThat(account).contains("unsynced byte(s) dropped");

        // powered on again: a rename followed by a directory sync survives the next loss
        write(files, dir.resolve("d.tmp"), "durable", true);
        files.moveAtomically(dir.resolve("d.tmp"), dir.resolve("d"));
        files.syncDirectory(dir);
        faults.powerOff();
        faults.crash(null);
        assertThat(read(dir.resolve("d"))).isEqualTo("durable");
        assertThat(read(dir.resolve("d.tmp"))).isNull();
    }

    @Test
    void aProcessCrashKeepsEverythingAndALaterPowerLossStillDropsWhatWasNeverSynced() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("r"));
        FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
        FileLayer files = FileLayer.withFaults(faults);
        write(files, dir.resolve("a"), "synced", true);
        files.syncDirectory(dir);
        write(files, dir.resolve("a"), "+unsynced", false);
        assertThatThrownBy(faults::restart).isInstanceOf(IllegalStateException.class); // power off first
        faults.powerOff();
        faults.restart();
        assertThat(read(dir.resolve("a"))).isEqualTo("synced+unsynced"); // the process died, the machine did not
        write(files, dir.resolve("a"), "+more", false);
        faults.powerOff();
        faults.crash(null);
        assertThat(read(dir.resolve("a"))).isEqualTo("synced");
    }

    @Test
    void tornTailsKeepAPrefixOfTheUnsyncedBytes() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("t"));
        for (long seed = 0; seed < 20; seed++) {
            FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
            FileLayer files = FileLayer.withFaults(faults);
            Path p = dir.resolve("f" + seed);
            write(files, p, "0123", true);
            files.syncDirectory(dir);
            write(files, p, "456789", false);
            faults.powerOff();
            faults.crash(new java.util.Random(seed));
            assertThat("0123456789").startsWith(read(p));
            assertThat(read(p)).startsWith("0123");
        }
    }

    @Test
    void theNthOperationOfAKindFailsOnceOrFromThenOn() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("n"));
        FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
        FileLayer files = FileLayer.withFaults(faults);
        faults.failNth(FileOp.SYNC, 2, false);
        write(files, dir.resolve("x"), "1", true);
        assertThatThrownBy(() -> write(files, dir.resolve("x"), "2", true))
                .hasMessageContaining("injected failure: SYNC #2 of " + dir.resolve("x"));
        write(files, dir.resolve("x"), "3", true); // once only
        faults.failNth(FileOp.DELETE, 1, true);
        assertThatThrownBy(() -> files.delete(dir.resolve("x"))).hasMessageContaining("DELETE #1");
        assertThatThrownBy(() -> files.delete(dir.resolve("x"))).hasMessageContaining("failing from #1 on");
        faults.clearFailures();
        files.delete(dir.resolve("x"));
        assertThat(faults.count(FileOp.DELETE)).isEqualTo(3);
        faults.failNth(FileOp.DIRECTORY_SYNC, 1, false).failNth(FileOp.RENAME, 1, false);
        assertThatThrownBy(() -> files.syncDirectory(dir)).hasMessageContaining("DIRECTORY_SYNC");
        write(files, dir.resolve("y"), "y", true);
        assertThatThrownBy(() -> files.moveAtomically(dir.resolve("y"), dir.resolve("z")))
                .hasMessageContaining("RENAME");
        assertThat(dir.resolve("y")).exists();
    }

    @Test
    void shortAndCorruptReadsAreInjectedOnTheNthRead() throws Exception {
        Path p = tmp.resolve("r");
        Files.writeString(p, "abcdefgh", StandardCharsets.US_ASCII);
        FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
        FileLayer files = FileLayer.withFaults(faults);
        faults.shortReadNth(1).corruptReadNth(2);
        try (FileChannel ch = files.open(p, IoCause.READ, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(8);
            int n = ch.read(b);
            assertThat(n).isEqualTo(4);
            assertThat(ch.position()).as("the file position follows the short read").isEqualTo(4);
            ByteBuffer c = ByteBuffer.allocate(8);
            int m = ch.read(c, 0);
            assertThat(m).isEqualTo(8);
            assertThat(new String(c.array(), StandardCharsets.US_ASCII)).isNotEqualTo("abcdefgh");
        }
    }

    @Test
    void aFullDeviceShortensTheWriteItFillsUpInAndFailsEveryLaterWriteUntilSpaceIsFreed() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("full"));
        FaultInjector faults = new FaultInjector(tmp.resolve("trash"));
        FileLayer files = FileLayer.withFaults(faults);
        Path p = dir.resolve("f");
        try (FileChannel ch = files.open(p, IoCause.WAL, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            faults.diskFullAt(FileOp.WRITE, 2, true);
            assertThat(ch.write(ByteBuffer.wrap(new byte[10]), 0)).isEqualTo(10);
            ByteBuffer src = ByteBuffer.wrap(new byte[10]);
            assertThat(ch.write(src, 10)).as("a short write").isEqualTo(5);
            assertThat(src.remaining()).isEqualTo(5);
            assertThat(faults.isFull()).isTrue();
            assertThatThrownBy(() -> ch.write(src, 15)).hasMessageStartingWith(FaultInjector.NO_SPACE);
            ch.force(true); // syncs still work on a full device
            assertThat(Files.size(p)).isEqualTo(15);
            faults.freeSpace();
            assertThat(ch.write(src, 15)).isEqualTo(5);

            faults.diskFullAt(FileOp.SYNC, 1, false);
            assertThatThrownBy(() -> ch.force(true)).hasMessageStartingWith(FaultInjector.NO_SPACE);
            assertThatThrownBy(() -> ch.write(ByteBuffer.wrap(new byte[1]), 20))
                    .hasMessageStartingWith(FaultInjector.NO_SPACE);
        }
        faults.freeSpace();
        faults.diskFullAt(FileOp.RENAME, 1, false);
        assertThatThrownBy(() -> files.moveAtomically(p, dir.resolve("g"))).hasMessageContaining(FaultInjector.NO_SPACE);
        assertThat(p).exists();
    }
}
