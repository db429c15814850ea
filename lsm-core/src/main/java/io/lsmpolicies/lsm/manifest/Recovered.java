package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.log.LogTail;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What {@link Manifest#recover} found in a store directory.
 *
 * @param directory          the store directory
 * @param manifest           the manifest CURRENT names, which was replayed
 * @param set                the component set after every intact record of {@code manifest}
 * @param tail               how the manifest ended; {@code tail.torn()} means the last append was cut by a crash
 *                           (that append never returned, so no caller relied on it) and was skipped
 * @param orphans            files the store wrote that {@code set} does not reference, ascending by name:
 *                           {@code *.sst} not in the set, {@code MANIFEST-*} other than {@code manifest}, and
 *                           {@code *.tmp}, and write-ahead-log segments below {@code set.walNumber()} (their
 *                           MemTables were flushed). Safe to delete: {@link #deleteOrphans}
 * @param walSegments        write-ahead-log segments numbered {@code set.walNumber()} or above, ascending: the
 *                           writes not yet in any table, to replay
 * @param missingTables      live file numbers whose {@code .sst} file is not in the directory, ascending. An
 *                           engine must refuse to open a store with missing tables (their data is lost)
 * @param nextFreeFileNumber the smallest file number above {@code set.nextFileNumber() - 1} and above every
 *                           numbered file in the directory (an orphan of a crash may hold a number the manifest
 *                           never recorded): where {@link Manifest#reopen} starts handing out numbers
 */
public record Recovered(Path directory, Path manifest, ComponentSet set, LogTail tail, List<Path> orphans,
        List<Path> walSegments, List<Long> missingTables, long nextFreeFileNumber) {

    /**
     * Checks the state.
     *
     * @param directory          the store directory
     * @param manifest           the manifest CURRENT names, which was replayed
     * @param set                the component set after every intact record of {@code manifest}
     * @param tail               how the manifest ended; {@code tail.torn()} means the last append was cut by a crash
     *                           (that append never returned, so no caller relied on it) and was skipped
     * @param orphans            files the store wrote that {@code set} does not reference, ascending by name:
     *                           {@code *.sst} not in the set, {@code MANIFEST-*} other than {@code manifest}, and
     *                           {@code *.tmp}, and write-ahead-log segments below {@code set.walNumber()} (their
     *                           MemTables were flushed). Safe to delete: {@link #deleteOrphans}
     * @param walSegments        write-ahead-log segments numbered {@code set.walNumber()} or above, ascending: the
     *                           writes not yet in any table, to replay
     * @param missingTables      live file numbers whose {@code .sst} file is not in the directory, ascending. An
     *                           engine must refuse to open a store with missing tables (their data is lost)
     * @param nextFreeFileNumber the smallest file number above {@code set.nextFileNumber() - 1} and above every
     *                           numbered file in the directory (an orphan of a crash may hold a number the manifest
     *                           never recorded): where {@link Manifest#reopen} starts handing out numbers
     */
    public Recovered {
        orphans = List.copyOf(orphans);
        walSegments = List.copyOf(walSegments);
        missingTables = List.copyOf(missingTables);
    }

    /**
     * The write-ahead-log segment the manifest requires ({@link ComponentSet#requiredWalSegment()}) if it is not in
     * the directory: the writes it held that no table holds are lost. Empty if none is required or it is there.
     *
     * @return the missing segment's number, or empty
     */
    public OptionalLong missingWalSegment() {
        long required = set.requiredWalSegment();
        if (required == 0) {
            return OptionalLong.empty();
        }
        String name = StoreFiles.walName(required);
        return walSegments.stream().anyMatch(p -> p.getFileName().toString().equals(name)) ? OptionalLong.empty()
                : OptionalLong.of(required);
    }

    /**
     * Deletes every orphan (those already gone are skipped), then forces the directory.
     *
     * <p>REQUIRES: no append runs meanwhile (a roll writes {@code CURRENT.tmp}, which may be in the list), and
     * no writer other than a {@link Manifest} reopened from this result has used the directory since the
     * recovery (such a manifest's new files are numbered from {@link #nextFreeFileNumber()}, so never listed).
     *
     * @param files the file layer every file operation goes through
     * @return how many files were deleted
     * @throws IOException if an I/O operation fails
     */
    public int deleteOrphans(FileLayer files) throws IOException {
        int deleted = 0;
        for (Path p : orphans) {
            if (files.deleteIfExists(p)) {
                deleted++;
            }
        }
        if (deleted > 0) {
            files.syncDirectory(directory);
        }
        return deleted;
    }

    /**
     * Lists {@code dir} and sorts its store files into orphans, present tables and the highest number in use;
     * names that are not the store's (see {@link StoreFiles}) and entries that are not regular files are ignored.
     */
    static Recovered survey(FileLayer files, Path dir, Path manifest, ComponentSet set, LogTail tail)
            throws IOException {
        List<Path> orphans = new ArrayList<>();
        List<Path> wal = new ArrayList<>();
        Set<Long> tablesPresent = new HashSet<>();
        long nextFree = set.nextFileNumber();
        List<Path> entries = files.list(dir);
        Set<Long> live = set.fileNumbers();
        for (Path p : entries) {
            if (!Files.isRegularFile(p)) {
                continue;
            }
            String name = p.getFileName().toString();
            OptionalLong table = StoreFiles.tableNumber(name);
            OptionalLong manifestNumber = StoreFiles.manifestNumber(name);
            OptionalLong walNumber = StoreFiles.walNumber(name);
            if (name.endsWith(StoreFiles.TEMP_SUFFIX)) {
                orphans.add(p);
            } else if (table.isPresent()) {
                nextFree = Math.max(nextFree, table.getAsLong() + 1);
                tablesPresent.add(table.getAsLong());
                if (!live.contains(table.getAsLong())) {
                    orphans.add(p);
                }
            } else if (walNumber.isPresent()) {
                nextFree = Math.max(nextFree, walNumber.getAsLong() + 1);
                (walNumber.getAsLong() < set.walNumber() ? orphans : wal).add(p);
            } else if (manifestNumber.isPresent()) {
                nextFree = Math.max(nextFree, manifestNumber.getAsLong() + 1);
                if (!p.equals(manifest)) {
                    orphans.add(p);
                }
            }
        }
        List<Long> missing = new ArrayList<>();
        for (long n : live) {
            if (!tablesPresent.contains(n)) {
                missing.add(n);
            }
        }
        missing.sort(null);
        wal.sort(java.util.Comparator.comparingLong(p -> StoreFiles.walNumber(p.getFileName().toString()).getAsLong()));
        return new Recovered(dir, manifest, set, tail, orphans, wal, missing, nextFree);
    }
}
