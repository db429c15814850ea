package io.lsmpolicies.lsm.testing;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The files this process holds open, read from {@code /proc/self/fd} (each entry a link to the file a descriptor
 * is open on). Only where the system has it (Linux).
 */
final class OpenFiles {
    private static final Path FDS = Path.of("/proc/self/fd");
    private static final String DELETED = " (deleted)";

    /**
     * One open file.
     *
     * @param path    the file, as the system resolved it when it was opened
     * @param deleted whether it has been deleted since (a reader holding a table a merge replaced, for instance)
     */
    record OpenFile(Path path, boolean deleted) {
        /** Its name, marked if deleted. */
        String describe() {
            return path.getFileName() + (deleted ? " (deleted)" : "");
        }
    }

    private OpenFiles() {
    }

    /** The files open now; empty if this system does not list them. */
    static Optional<List<OpenFile>> list() throws IOException {
        if (!Files.isDirectory(FDS)) {
            return Optional.empty();
        }
        List<OpenFile> open = new ArrayList<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(FDS)) {
            for (Path fd : fds) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    continue; // closed since the listing began (the listing's own descriptor, for one)
                }
                if (target.startsWith("/")) { // not a socket, pipe or anonymous inode
                    boolean deleted = target.endsWith(DELETED);
                    open.add(new OpenFile(Path.of(deleted ? target.substring(0, target.length() - DELETED.length())
                            : target), deleted));
                }
            }
        }
        return Optional.of(open);
    }
}
