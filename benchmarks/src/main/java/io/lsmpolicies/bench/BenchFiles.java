package io.lsmpolicies.bench;

import com.google.common.io.MoreFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

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

    /**
     * Writes out every dirty page of the machine ({@code sync}), so that what a benchmark measures next does not
     * share the disk with the writeback of what it wrote before.
     *
     * @throws IOException if {@code sync} cannot be run or fails
     */
    public static void syncDisks() throws IOException {
        try {
            Process sync = new ProcessBuilder("sync").inheritIO().start();
            if (sync.waitFor() != 0) {
                throw new IOException("sync failed with exit status " + sync.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while running sync");
        }
    }

    /**
     * Reads every regular file under {@code root} once, start to end, so that the page cache holds them (a read
     * phase on a "page cache warm" store, whichever system wrote last).
     *
     * @return the bytes read
     * @throws IOException if a file cannot be read
     */
    public static long readThrough(Path root) throws IOException {
        byte[] buffer = new byte[1 << 20];
        long total = 0;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                try (java.io.InputStream in = Files.newInputStream(f)) {
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        total += n;
                    }
                }
            }
        }
        return total;
    }

    /**
     * Copies the files of store directory {@code template} but its {@code LOCK} into a new temporary directory (a
     * fresh copy of a loaded store for each measurement of a benchmark that changes it).
     *
     * @param template the store to copy
     * @param prefix   the new directory's name prefix
     * @return the new directory
     */
    public static Path copyStore(Path template, String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        try (Stream<Path> files = Files.list(template)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(f) && !f.getFileName().toString().equals("LOCK")) {
                    Files.copy(f, dir.resolve(f.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return dir;
    }
}
