package io.lsmpolicies.bench;

import com.google.common.io.MoreFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** The benchmarks' scratch directories. */
public final class BenchFiles {
    private BenchFiles() {
    }

    /** Deletes {@code root} and everything below it (Guava's {@code MoreFiles}); nothing if it does not exist. */
    public static void deleteTree(Path root) throws IOException {
        if (Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            MoreFiles.deleteRecursively(root);
        }
    }
}
