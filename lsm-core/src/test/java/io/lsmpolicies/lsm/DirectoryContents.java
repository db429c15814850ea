package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Every file under a store directory but the lock file, with its bytes: to check that nothing changed. */
public final class DirectoryContents {
    private DirectoryContents() {
    }

    /** Every regular file under {@code dir} but {@link LsmStore#LOCK_FILE}, by relative path, with its bytes. */
    public static TreeMap<String, byte[]> of(Path dir) throws IOException {
        TreeMap<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(p) && !p.getFileName().toString().equals(LsmStore.LOCK_FILE)) {
                    out.put(dir.relativize(p).toString(), Files.readAllBytes(p));
                }
            }
        }
        return out;
    }

    /** The same files with the same bytes. */
    public static void assertSame(TreeMap<String, byte[]> before, TreeMap<String, byte[]> after) {
        assertThat(after.keySet()).containsExactlyElementsOf(before.keySet());
        before.forEach((name, bytes) -> assertThat(after.get(name)).as(name).isEqualTo(bytes));
    }
}
