package io.lsmpolicies.lsm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs mounted for a test, which the test fills to the last byte: a real full disk. Mounting needs root
 * (and a kernel that allows it, e.g. not every container); where it cannot mount, the test is skipped with the
 * reason.
 */
public final class FullTmpfs implements AutoCloseable {
    private final Path mountPoint;

    private FullTmpfs(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /** Mounts a tmpfs of {@code size} (as {@code mount -o size=...} takes it, e.g. {@code 8m}) at {@code at}. */
    public static FullTmpfs mount(Path at, String size) throws IOException, InterruptedException {
        Files.createDirectories(at);
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", at.toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int exit = p.waitFor();
        Assumptions.assumeTrue(exit == 0, () -> "skipped: cannot mount a tmpfs to make a real full disk (needs root "
                + "and a kernel that allows it): mount exited " + exit + ": " + output);
        return new FullTmpfs(at);
    }

    public Path path() {
        return mountPoint;
    }

    /** Writes a filler file until the file system refuses with "No space left on device". */
    public void fill() throws IOException {
        byte[] chunk = new byte[4096];
        try (OutputStream out = Files.newOutputStream(mountPoint.resolve("filler"))) {
            while (true) {
                out.write(chunk);
                out.flush();
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
                throw e;
            }
        }
        try (OutputStream out = Files.newOutputStream(mountPoint.resolve("filler-bytes"))) {
            for (int i = 0; i < 4096; i++) {
                out.write(0);
                out.flush();
            }
        } catch (IOException e) {
            // full to the byte
        }
    }

    /** Unmounts it (its files are gone). */
    @Override
    public void close() throws IOException, InterruptedException {
        new ProcessBuilder("umount", mountPoint.toString()).inheritIO().start().waitFor();
    }
}
