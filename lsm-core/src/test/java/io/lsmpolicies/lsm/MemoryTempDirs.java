package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.testing.RecordedTempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Temporary directories in memory ({@code /dev/shm}) where the system has one, else in {@code java.io.tmpdir}:
 * for tests that open many stores and simulate the device themselves ({@code FaultInjector}), whose real syncs
 * only cost time. Use as {@code @TempDir(factory = MemoryTempDirs.class)}.
 */
public final class MemoryTempDirs implements TempDirFactory {
    private static final Path SHM = Path.of("/dev/shm");

    /** A new temporary directory, in memory if possible. */
    public static Path create(String prefix) throws IOException {
        return Files.isDirectory(SHM) && Files.isWritable(SHM) ? Files.createTempDirectory(SHM, prefix)
                : Files.createTempDirectory(prefix);
    }

    /** Recorded like every {@code @TempDir}, so that the store checks after each test see its stores. */
    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
        return RecordedTempDirs.record(context, create("junit-"));
    }
}
