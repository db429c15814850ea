package io.lsmpolicies.lsm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** What the {@code Engine*} tests share: the stack policies with small parameters, file copies and byte flips. */
public final class EngineTestSupport {
    /**
     * Every registered stack policy, by name, with parameters small enough that a few dozen flushes exercise
     * its merges. Prefix's size bound is in bytes: a few flushes of an 8 KiB MemTable pass it. Adaptive weighs the
     * reads the engine tells it against merges; the tests that use this list read little or nothing between flushes,
     * so there mostly its bound (max-k) makes it merge.
     */
    static final Map<String, String> STACK_POLICY_SPECS = new TreeMap<>(Map.of(
            "adaptive", "adaptive:max-k=3",
            "bigtable", "bigtable:k=3",
            "binomial", "binomial:k=3",
            "constant", "constant:k=3",
            "exploring", "exploring:k=3",
            "minlatency", "minlatency:k=3",
            "no-merge", "no-merge",
            "prefix", "prefix:max-mergable-component-size=49152,max-tolerance-component-count=3",
            "tiered", "tiered:size-ratio=3"));

    private EngineTestSupport() {
    }

    /**
     * The specifications of {@link #STACK_POLICY_SPECS}, after checking that they name exactly the registered
     * stack policies (a stack policy added to the registry must be added here, so that the engine tests cover it).
     */
    static List<String> stackPolicySpecs() {
        assertThat(STACK_POLICY_SPECS.keySet()).as("registered stack merge policies")
                .containsExactlyElementsOf(MergePolicies.names(PolicyLayout.STACK));
        return List.copyOf(STACK_POLICY_SPECS.values());
    }

    /** Copies every file of {@code from} except the lock file into {@code to} (created): a crash image. */
    public static Path copyStore(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (!p.getFileName().toString().equals(LsmStore.LOCK_FILE)) {
                    Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return to;
    }

    /** Inverts the top bit of the byte at {@code offset} of {@code file}. */
    static void flip(Path file, long offset) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[Math.toIntExact(offset)] ^= (byte) 0x80;
        Files.write(file, bytes);
    }

    /** Files of {@code dir} whose names end with {@code suffix}, sorted by name. */
    static List<Path> filesEndingWith(Path dir, String suffix) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The entries of a scan, as {@code hex(key)=hex(value)}, in the order the iterator returned them. */
    static List<String> drain(StoreIterator it) {
        List<String> out = new ArrayList<>();
        try (it) {
            it.forEachRemaining(kv -> out.add(hex(kv.key()) + "=" + hex(kv.value())));
        }
        return out;
    }

    /** The entries of {@code map}, formatted as {@link #drain} formats a scan. */
    static List<String> format(Map<byte[], byte[]> map) {
        List<String> out = new ArrayList<>(map.size());
        map.forEach((k, v) -> out.add(hex(k) + "=" + hex(v)));
        return out;
    }

    static String hex(byte[] bytes) {
        return bytes == null ? "null" : HexFormat.of().formatHex(bytes);
    }

    /**
     * Checks the level invariants: in level 0 (newest first) flush ranges and sequence ranges of consecutive
     * tables are disjoint and descending; a stack policy uses level 0 only; every deeper level is one sorted
     * run of non-overlapping tables.
     */
    static void assertLevelInvariants(LsmStore store, String context) {
        List<List<TableRecord>> levels = store.components().levels();
        String name = store.options().policy().name();
        if (MergePolicies.factory(name).layout() == PolicyLayout.STACK) {
            for (int n = 1; n < levels.size(); n++) {
                assertThat(levels.get(n)).as("%s: level %d of a stack policy", context, n).isEmpty();
            }
        }
        List<TableRecord> level0 = levels.isEmpty() ? List.of() : levels.get(0);
        for (int i = 1; i < level0.size(); i++) {
            TableRecord newer = level0.get(i - 1);
            TableRecord older = level0.get(i);
            assertThat(older.maxFlushIndex()).as("%s: flushes of %s end before those of newer %s", context, older,
                    newer).isLessThan(newer.minFlushIndex());
            assertThat(older.maxSequence()).as("%s: sequences of %s end before those of newer %s", context, older,
                    newer).isLessThan(newer.minSequence());
        }
        for (int n = 1; n < levels.size(); n++) {
            List<TableRecord> level = levels.get(n);
            for (int i = 1; i < level.size(); i++) {
                assertThat(Arrays.compareUnsigned(level.get(i - 1).maxKey(), level.get(i).minKey()))
                        .as("%s: level %d is one sorted run (%s before %s)", context, n, level.get(i - 1),
                                level.get(i)).isNegative();
            }
        }
    }

    /**
     * Leveled-family specifications the engine tests run, sized so that small runs reach several levels:
     * two pickers of {@code leveled} and {@code universal}.
     */
    static final List<String> LEVELED_POLICY_SPECS = List.of(
            "leveled:picker=round-robin,l0-trigger=2,size-ratio=4,base-level-bytes=16384,target-file-bytes=4096",
            "leveled:picker=min-overlapping-ratio,l0-trigger=2,size-ratio=4,base-level-bytes=16384,"
                    + "target-file-bytes=4096",
            "universal:l0-trigger=3",
            // delayed compaction: virtual and real merges both happen, and reads materialise (vsmt 4)
            "delayed:vct=8,vsmt=4,picker=round-robin,l0-trigger=2,size-ratio=4,base-level-bytes=16384,"
                    + "target-file-bytes=4096");
}
