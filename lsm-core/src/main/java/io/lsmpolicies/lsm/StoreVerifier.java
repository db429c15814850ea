package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.log.LogTail;
import io.lsmpolicies.lsm.manifest.AbandonedCreation;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.Recovered;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.sstable.SSTableMetadata;
import io.lsmpolicies.lsm.sstable.SSTableReader;
import io.lsmpolicies.lsm.sstable.SSTableVerifier;
import io.lsmpolicies.lsm.log.WalReplay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Comparator;
import java.util.List;

/**
 * Checks a whole store directory without changing it: the basis of {@code bin/lsm verify} and of the crash
 * tests. It reads the manifest with {@link Manifest#recover} (which only reads) and never opens an
 * {@link LsmStore}, whose open deletes orphans and rewrites the manifest.
 *
 * <p>What is a <b>problem</b> (the store is damaged or inconsistent; {@link Report#ok()} is false):
 * <ul>
 *   <li>the manifest cannot be recovered: no CURRENT, a damaged record other than the last, an edit that does
 *       not apply (see {@link Manifest#recover});</li>
 *   <li>a table the manifest lists is missing, or its file size differs from the manifest's {@code fileBytes};</li>
 *   <li>the live write-ahead-log segment the manifest requires ({@link ComponentSet#requiredWalSegment()}) is
 *       missing;</li>
 *   <li>anything {@link SSTableVerifier} finds in a live table: a page checksum, page types, key order inside and
 *       across pages, separator keys, the Bloom filter against the contents, the file's own metadata;</li>
 *   <li>a table's metadata (entries, tombstones, min/max key, sequences, flush range, times) differs from the
 *       manifest's {@link TableRecord}, or its newest sequence number is above the manifest's
 *       {@code lastSequence};</li>
 *   <li>two tables of a level {@code >= 1} overlap in key range;</li>
 *   <li>level-0 sequence ranges do not strictly decrease from the newest table (index 0) to the oldest;</li>
 *   <li>a write-ahead-log segment that is not the newest is damaged or ends torn, or any segment is damaged
 *       other than at its tail (the same rules {@link LsmStore#open} applies when it replays them).</li>
 * </ul>
 * What is only a <b>warning</b> (what a crash legitimately leaves, and the next open cleans up): orphan files,
 * a torn final manifest record (an append that never returned), a torn tail or a missing header in the newest
 * write-ahead-log segment.
 *
 * <p>REQUIRES: no process writes the store while it is verified (the files would change under the checks). A
 * flipped byte in the manifest's final record cannot be told from a torn append, so it is a warning too.
 */
public final class StoreVerifier {
    private StoreVerifier() {
    }

    /**
     * One live table as verified.
     *
     * @param fileNumber its file number
     * @param level      its level in the manifest
     * @param fileBytes  its size according to the manifest
     * @param entries    entries found in its leaves
     * @param height     its B+-tree height (0 if it could not be opened)
     * @param problems   what is wrong with it (empty: sound and consistent with the manifest)
     */
    public record TableCheck(long fileNumber, int level, long fileBytes, long entries, int height,
            List<String> problems) {
        /**
         * Copies the problems.
         *
         * @param fileNumber its file number
         * @param level      its level in the manifest
         * @param fileBytes  its size according to the manifest
         * @param entries    entries found in its leaves
         * @param height     its B+-tree height (0 if it could not be opened)
         * @param problems   what is wrong with it (empty: sound and consistent with the manifest)
         */
        public TableCheck {
            problems = List.copyOf(problems);
        }
    }

    /**
     * What was found.
     *
     * @param directory   the store directory
     * @param manifest    the manifest CURRENT names (null if none could be read)
     * @param tables      every live table, level 0 newest first, then deeper levels by key
     * @param walSegments write-ahead-log segments still to replay
     * @param walRecords  intact write batches in those segments
     * @param problems    every problem, each naming its file (table problems are also in {@code tables})
     * @param levelOrder  the problems that break the level order (also in {@code problems}): two tables of a level
     *                    {@code >= 1} overlap, or level 0 is not newest first; what the test suites' store checks
     *                    report on their own
     * @param warnings    what a crash leaves behind and the next open cleans up
     */
    public record Report(Path directory, Path manifest, List<TableCheck> tables, int walSegments, long walRecords,
            List<String> problems, List<String> levelOrder, List<String> warnings) {
        /**
         * Copies the lists.
         *
         * @param directory   the store directory
         * @param manifest    the manifest CURRENT names (null if none could be read)
         * @param tables      every live table, level 0 newest first, then deeper levels by key
         * @param walSegments write-ahead-log segments still to replay
         * @param walRecords  intact write batches in those segments
         * @param problems    every problem, each naming its file (table problems are also in {@code tables})
         * @param levelOrder  the problems that break the level order (also in {@code problems}): two tables of a level
         *                    {@code >= 1} overlap, or level 0 is not newest first; what the test suites' store checks
         *                    report on their own
         * @param warnings    what a crash leaves behind and the next open cleans up
         */
        public Report {
            tables = List.copyOf(tables);
            problems = List.copyOf(problems);
            levelOrder = List.copyOf(levelOrder);
            warnings = List.copyOf(warnings);
        }

        /** {@return true if no problem was found (warnings allowed)} */
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    /**
     * Verifies the store in {@code dir}. Damage is reported, never thrown.
     *
     * @param dir the store directory
     * @return the report
     * @throws IOException only if listing or reading the directory fails for a reason other than damage
     */
    public static Report verify(Path dir) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Recovered recovered;
        try {
            recovered = Manifest.recover(dir);
        } catch (NoSuchFileException e) {
            problems.add(lostCurrent(dir).orElse("no store: " + e.getMessage()));
            return new Report(dir, null, List.of(), 0, 0, problems, List.of(), warnings);
        } catch (CorruptionException e) {
            problems.add("manifest: " + e.getMessage());
            return new Report(dir, null, List.of(), 0, 0, problems, List.of(), warnings);
        }
        LogTail tail = recovered.tail();
        if (tail.torn()) {
            warnings.add(name(recovered.manifest()) + ": the final record at offset " + tail.validEnd()
                    + " is torn (" + tail.detail() + "), an append a crash cut short; it is skipped");
        }
        for (Path orphan : recovered.orphans()) {
            warnings.add(name(orphan) + ": orphan, not referenced by the manifest (the next open deletes it)");
        }
        ComponentSet set = recovered.set();
        for (long missing : recovered.missingTables()) {
            problems.add(StoreFiles.tableName(missing) + ": listed by the manifest "
                    + set.table(missing).map(t -> "at level " + t.level())
                            .orElse("as a parent of a virtual table") + " but missing");
        }
        recovered.missingWalSegment().ifPresent(n -> problems.add(StoreFiles.walName(n) + ": the manifest's live "
                + "write-ahead-log segment (the writes not yet in a table) is missing"));
        List<TableCheck> tables = new ArrayList<>();
        List<TableRecord> files = new ArrayList<>(set.parents().values()); // virtual tables' parents: real files
        files.sort(Comparator.comparingLong(TableRecord::fileNumber));
        set.levels().forEach(level -> level.stream().filter(t -> !t.isVirtual()).forEach(files::add));
        for (TableRecord t : files) {
            if (!recovered.missingTables().contains(t.fileNumber())) {
                TableCheck check = checkTable(dir, t, set.lastSequence());
                tables.add(check);
                check.problems().forEach(p -> problems.add(StoreFiles.tableName(t.fileNumber()) + ": " + p));
            }
        }
        List<String> levelOrder = new ArrayList<>();
        checkLevelZeroOrder(set.level(0), levelOrder);
        for (int level = 1; level < set.levels().size(); level++) {
            checkNoOverlap(level, set.level(level), levelOrder);
        }
        problems.addAll(levelOrder);
        long walRecords = checkWal(recovered.walSegments(), problems, warnings);
        return new Report(dir, recovered.manifest(), tables, recovered.walSegments().size(), walRecords, problems,
                levelOrder, warnings);
    }

    /**
     * Without CURRENT: if the directory holds a store's files that no crashed creation can leave, the message that
     * names them and the repair command ({@link AbandonedCreation}); it only reads.
     */
    private static java.util.Optional<String> lostCurrent(Path dir) {
        if (!Files.isDirectory(dir)) {
            return java.util.Optional.empty();
        }
        try {
            AbandonedCreation.leftovers(FileLayer.plain(), dir, LsmStore.LOCK_FILE);
            return java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.of(e.getMessage());
        }
    }

    private static TableCheck checkTable(Path dir, TableRecord t, long lastSequence) throws IOException {
        Path path = dir.resolve(StoreFiles.tableName(t.fileNumber()));
        List<String> problems = new ArrayList<>();
        long size = Files.size(path);
        if (size != t.fileBytes()) {
            problems.add("the file has " + size + " bytes, the manifest records " + t.fileBytes());
        }
        SSTableVerifier.Report report = SSTableVerifier.verify(path);
        problems.addAll(report.problems());
        if (t.maxSequence() > lastSequence) {
            problems.add("sequence numbers up to " + t.maxSequence() + " are above the manifest's lastSequence "
                    + lastSequence);
        }
        try (SSTableReader reader = SSTableReader.open(path)) {
            compareMetadata(reader.metadata(), t, problems);
        } catch (IOException e) {
            // Already reported by SSTableVerifier ("cannot open"): the metadata could not be read.
        }
        return new TableCheck(t.fileNumber(), t.level(), t.fileBytes(), report.entries(), report.height(), problems);
    }

    /** Every field the manifest copies from the table's metadata block must be equal. */
    private static void compareMetadata(SSTableMetadata m, TableRecord t, List<String> problems) {
        List<String> diffs = new ArrayList<>();
        differs(diffs, "entries", m.entries(), t.entries());
        differs(diffs, "tombstones", m.tombstones(), t.tombstones());
        if (!Arrays.equals(m.minKey(), t.minKey())) {
            diffs.add("minKey " + hex(m.minKey()) + " in the file, " + hex(t.minKey()) + " in the manifest");
        }
        if (!Arrays.equals(m.maxKey(), t.maxKey())) {
            diffs.add("maxKey " + hex(m.maxKey()) + " in the file, " + hex(t.maxKey()) + " in the manifest");
        }
        differs(diffs, "minSequence", m.minSequence(), t.minSequence());
        differs(diffs, "maxSequence", m.maxSequence(), t.maxSequence());
        differs(diffs, "minFlushIndex", m.minFlushIndex(), t.minFlushIndex());
        differs(diffs, "maxFlushIndex", m.maxFlushIndex(), t.maxFlushIndex());
        differs(diffs, "createdMillis", m.createdMillis(), t.createdMillis());
        differs(diffs, "oldestTombstoneMillis", m.oldestTombstoneMillis(), t.oldestTombstoneMillis());
        differs(diffs, "dataBytes", m.dataBytes(), t.dataBytes());
        if (!diffs.isEmpty()) {
            problems.add("the file's metadata differs from the manifest's record: " + String.join("; ", diffs));
        }
    }

    private static void differs(List<String> diffs, String field, long inFile, long inManifest) {
        if (inFile != inManifest) {
            diffs.add(field + " " + inFile + " in the file, " + inManifest + " in the manifest");
        }
    }

    /**
     * Level 0 is newest first: each table's sequences must lie strictly above those of the next (older) one, unless
     * the two are key ranges of one component (a merge split by key), which share their flushes.
     */
    private static void checkLevelZeroOrder(List<TableRecord> level0, List<String> problems) {
        for (int i = 0; i + 1 < level0.size(); i++) {
            TableRecord newer = level0.get(i);
            TableRecord older = level0.get(i + 1);
            if (!newer.sharesComponentWith(older) && newer.minSequence() <= older.maxSequence()) {
                problems.add("level 0: " + StoreFiles.tableName(newer.fileNumber()) + " (sequences "
                        + newer.minSequence() + ".." + newer.maxSequence() + ") is listed as newer than "
                        + StoreFiles.tableName(older.fileNumber()) + " (sequences " + older.minSequence() + ".."
                        + older.maxSequence() + "), but the ranges do not decrease");
            }
        }
    }

    /** A level {@code >= 1} is partitioned by key: sorted by minKey, each table must end before the next starts. */
    private static void checkNoOverlap(int level, List<TableRecord> tables, List<String> problems) {
        for (int i = 0; i + 1 < tables.size(); i++) {
            TableRecord a = tables.get(i);
            TableRecord b = tables.get(i + 1);
            if (Arrays.compareUnsigned(a.maxKey(), b.minKey()) >= 0) {
                problems.add("level " + level + ": " + StoreFiles.tableName(a.fileNumber()) + " (keys " + hex(a.minKey())
                        + ".." + hex(a.maxKey()) + ") overlaps " + StoreFiles.tableName(b.fileNumber()) + " (keys "
                        + hex(b.minKey()) + ".." + hex(b.maxKey()) + ")");
            }
        }
    }

    /** Replays each segment as {@link LsmStore#open} would, counting intact batches. */
    private static long checkWal(List<Path> segments, List<String> problems, List<String> warnings)
            throws IOException {
        long records = 0;
        for (int i = 0; i < segments.size(); i++) {
            Path segment = segments.get(i);
            boolean newest = i == segments.size() - 1;
            long[] count = {0};
            try {
                LogTail tail = WalReplay.replay(segment, batch -> count[0]++);
                if (tail.torn()) {
                    String what = name(segment) + ": ends torn at offset " + tail.validEnd() + " (" + tail.detail() + ")";
                    if (newest) {
                        warnings.add(what + ", a write a crash cut short; it is skipped");
                    } else {
                        problems.add(what + ", but a newer segment exists, so it was complete once");
                    }
                }
            } catch (CorruptionException e) {
                if (newest && e.code() == Code.TRUNCATED_HEADER) {
                    warnings.add(name(segment) + ": created but its header never written (a crash); it holds no "
                            + "writes");
                } else {
                    problems.add(name(segment) + ": " + e.getMessage());
                }
            }
            records += count[0];
        }
        return records;
    }

    private static String name(Path p) {
        return p.getFileName().toString();
    }

    private static String hex(byte[] key) {
        return "0x" + HexFormat.of().formatHex(key);
    }
}
