package io.lsmpolicies.asterix;

import io.lsmpolicies.merge.hyracks.ComponentSequence;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The disk components of a dataset's primary index, read from the files AsterixDB 0.9.8 keeps on disk: below
 * each iodevice, {@code storage/partition_<p>/<dataverse>/<dataset>/0/<dataset>/}, one B-tree file
 * {@code <start>_<end>_b} per component (beside its Bloom filter {@code _f} and compression dictionary
 * {@code _b.dic}), named by the range of flush sequence numbers it holds (Hyracks 0.3.8 numbers each index's
 * flushes 0, 1, 2, ...; a merge's output is named from the oldest input's start to the newest input's end).
 */
final class ComponentFiles {
    private static final Pattern BTREE_FILE = Pattern.compile("(\\d+)_(\\d+)_b");
    private static final Pattern PARTITION_DIR = Pattern.compile("partition_(\\d+)");

    private ComponentFiles() {
    }

    /**
     * Each partition's components, oldest first, by partition number. A merge being written shows up as a
     * range that covers others (its inputs are deleted only once it is installed); see {@link #settled}.
     */
    static Map<Integer, List<ComponentSequence>> of(Path storage, String dataverse, String dataset)
            throws IOException {
        Map<Integer, List<ComponentSequence>> byPartition = new TreeMap<>();
        for (Path file : files(storage)) {
            Matcher name = BTREE_FILE.matcher(file.getFileName().toString());
            Path index = file.getParent();
            if (!name.matches() || index.getNameCount() < 5
                    || !index.getFileName().toString().equals(dataset)
                    || !index.getParent().getParent().getFileName().toString().equals(dataset)
                    || !index.getParent().getParent().getParent().getFileName().toString().equals(dataverse)) {
                continue;
            }
            Matcher partition = PARTITION_DIR.matcher(index.getParent().getParent().getParent().getParent()
                    .getFileName().toString());
            if (!partition.matches()) {
                continue;
            }
            byPartition.computeIfAbsent(Integer.parseInt(partition.group(1)), p -> new ArrayList<>())
                    .add(new ComponentSequence(Long.parseLong(name.group(1)), Long.parseLong(name.group(2))));
        }
        byPartition.values().forEach(list -> list.sort(Comparator.comparingLong(ComponentSequence::start)
                .thenComparingLong(ComponentSequence::end)));
        return byPartition;
    }

    /**
     * Every file below {@code root}, as it is while AsterixDB runs: a file or directory that goes between its
     * listing and its visit (a query's temporary result file, a merged component's input) is left out, where
     * {@link Files#walk} would throw.
     */
    static List<Path> files(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                out.add(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
        return out;
    }

    /** Whether {@code oldestFirst} is a settled stack: ranges that follow each other without overlap. */
    static boolean settled(List<ComponentSequence> oldestFirst) {
        for (int i = 1; i < oldestFirst.size(); i++) {
            if (oldestFirst.get(i).start() <= oldestFirst.get(i - 1).end()) {
                return false;
            }
        }
        return true;
    }

    /** Flush ranges as text, 1-based as our policies count flushes, e.g. {@code [1-16, 17-20, 21]}. */
    static List<String> flushRanges(List<ComponentSequence> oldestFirst) {
        return oldestFirst.stream().map(c -> c.firstFlush() == c.lastFlush() ? Long.toString(c.firstFlush())
                : c.firstFlush() + "-" + c.lastFlush()).toList();
    }
}
