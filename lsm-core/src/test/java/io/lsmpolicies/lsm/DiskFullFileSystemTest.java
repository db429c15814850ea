package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A store on a real file system that fills up: a 16 MiB tmpfs is mounted for the test (this needs root and
 * {@code mount}; elsewhere the test is skipped and says why). Puts of 3,000-byte values, with WAL {@code sync} and
 * with {@code async}, run until one fails: once with flushes (a flush is most likely to find the file system full),
 * once with a MemTable larger than the file system (the write-ahead log fills it: short writes with {@code sync}, the
 * write of zeros that claims the mapping's next step with {@code async}). Then 1 MiB is freed (a file put there first
 * is deleted) before the failed store is closed: a store that wrote again after a failure (its close flushed a
 * half-written buffer again) would use that space to damage its log. The store, copied to a large disk, opens with
 * every acknowledged record; after the tmpfs is grown (remounted larger), it opens in place with every acknowledged
 * record and takes writes again. The tmpfs is unmounted in any case. A few seconds.
 */
class DiskFullFileSystemTest {
    private static final int VALUE_BYTES = 3000;

    @TempDir
    Path tmp;

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    /** Runs a command; its exit status and output. */
    private record Run(int exit, String output) {
    }

    private static Run run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Run(-1, "timed out: " + String.join(" ", command));
        }
        return new Run(p.exitValue(), output);
    }

    /**
     * @param memtableBytes 1 MiB: flushes run, and the space most likely runs out in one (a background failure);
     *                      64 MiB, more than the file system: nothing is flushed, and the write-ahead log fills it
     * @param walMode       {@code SYNC}, whose log is written with {@code write(2)}, or {@code ASYNC}, whose log is
     *                      written through a memory mapping that claims space a step ahead (the claim fails)
     */
    @ParameterizedTest(name = "MemTable of {0} bytes, WAL {1}")
    @CsvSource({"1048576, SYNC", "67108864, SYNC", "1048576, ASYNC", "67108864, ASYNC"})
    void aStoreOnAFileSystemThatFilledUpOpensWithEveryAcknowledgedRecord(int memtableBytes, SyncMode walMode)
            throws Exception {
        StoreOptions options = StoreOptions.builder().memtableBytes(memtableBytes).walMode(walMode)
                .policy("binomial:k=3").build();
        Assumptions.assumeTrue(System.getProperty("os.name", "").startsWith("Linux"),
                "mounting a small tmpfs needs Linux");
        Path mount = Files.createDirectories(tmp.resolve("tmpfs"));
        Run mounted;
        try {
            mounted = run("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", mount.toString());
        } catch (IOException e) {
            mounted = new Run(-1, e.toString());
        }
        Assumptions.assumeTrue(mounted.exit() == 0, "mounting a 16 MiB tmpfs needs root and mount(8): "
                + mounted.output());
        try {
            Path dir = mount.resolve("store");
            Path ballast = mount.resolve("ballast");
            Files.write(ballast, new byte[1 << 20]);
            Map<Integer, byte[]> acked = new LinkedHashMap<>();
            Throwable error = null;
            Random random = new Random(5);
            LsmStore store = LsmStore.open(dir, options);
            try {
                for (int i = 0; i < 20_000 && error == null; i++) {
                    byte[] value = new byte[VALUE_BYTES];
                    random.nextBytes(value);
                    try {
                        store.put(key(i), value);
                        acked.put(i, value);
                    } catch (IOException | RuntimeException e) {
                        error = e;
                    }
                }
            } finally {
                Files.delete(ballast); // space is freed while the failed store is still open, as an operator does
                try {
                    store.close();
                } catch (IOException | RuntimeException e) {
                    // the store failed; the WAL holds what was acknowledged
                }
            }
            assertThat(error).as("the file system filled up").isNotNull();
            assertThat(DiskFullTest.namesNoSpace(error)).as("%s", error).isTrue();
            if (memtableBytes > (16 << 20)) {
                assertThat(error).as("the log filled the file system").hasMessageContaining("write-ahead log");
            }
            System.out.println("DiskFullFileSystemTest: " + acked.size() + " puts acknowledged, then: " + error);

            Path copy = tmp.resolve("copy");
            copyDirectory(dir, copy);
            assertHolds(copy, options, acked, "copied to a large disk");

            Run grown = run("mount", "-o", "remount,size=64m", mount.toString());
            assertThat(grown.exit()).as(grown.output()).isZero();
            assertHolds(dir, options, acked, "in place, the file system grown");
            try (LsmStore reopened = LsmStore.open(dir, options)) {
                reopened.put(key(99_999), new byte[] {1});
                assertThat(reopened.get(key(99_999))).containsExactly(1);
            }
        } finally {
            Run unmounted = run("umount", mount.toString());
            assertThat(unmounted.exit()).as("umount: %s", unmounted.output()).isZero();
        }
    }

    private static void assertHolds(Path dir, StoreOptions options, Map<Integer, byte[]> acked, String context)
            throws IOException {
        try (LsmStore store = LsmStore.open(dir, options)) {
            for (Map.Entry<Integer, byte[]> e : acked.entrySet()) {
                assertThat(store.get(key(e.getKey()))).as("record %d, %s", e.getKey(), context)
                        .isEqualTo(e.getValue());
            }
        }
        StoreVerifier.Report report = StoreVerifier.verify(dir);
        assertThat(report.problems()).as(context).isEmpty();
    }

    private static void copyDirectory(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        List<Path> files;
        try (Stream<Path> listing = Files.list(from)) {
            files = listing.toList();
        }
        for (Path f : files) {
            if (!f.getFileName().toString().equals(LsmStore.LOCK_FILE)) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }
}
