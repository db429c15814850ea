package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.events.EventLog;
import io.lsmpolicies.lsm.io.DirectoryLock;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.log.LogTail;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.OptionsFile;
import io.lsmpolicies.lsm.manifest.Recovered;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.merge.MergingCursor;
import io.lsmpolicies.lsm.sstable.BlockCache;
import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import io.lsmpolicies.lsm.sstable.SSTableMetadata;
import io.lsmpolicies.lsm.sstable.SSTableReader;
import io.lsmpolicies.lsm.sstable.SSTableVerifier;
import io.lsmpolicies.lsm.sstable.SSTableWriter;
import io.lsmpolicies.lsm.log.WalReplay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Rebuilds a store's manifest from the tables and write-ahead-log segments in its directory, as LevelDB's
 * {@code RepairDB} does: for a store whose CURRENT or manifest is lost or damaged. The basis of
 * {@code bin/lsm repair}.
 *
 * <p>Guarantees:
 * <ul>
 *   <li><b>Nothing is deleted.</b> A file the rebuilt store does not use is moved into the subdirectory
 *       {@value #SET_ASIDE} (a name already taken there gets a numeric suffix), with the reason in the report:
 *       a damaged table (any problem {@link SSTableVerifier} finds), a table whose data was copied into a new one,
 *       every write-ahead-log segment (its records are copied into a new table), the old manifests, CURRENT and
 *       temporary files. The {@code OPTIONS} file stays (the store's recorded settings), and so do files whose
 *       names are not the store's.</li>
 *   <li><b>Every intact record is kept:</b> every entry of every sound table, and every record of every segment
 *       up to the first damaged one in it (a torn tail is skipped as on open; after damage inside a segment the
 *       rest of that segment cannot be read).</li>
 *   <li><b>Layout.</b> Every table goes into level 0, newest first, which is right for both layouts: level 0
 *       is searched newest first, and a leveled store's policy moves level-0 tables down again. That order is
 *       only correct if no two tables' sequence ranges overlap (then for every key the newer table holds the
 *       newer version). Tables whose ranges overlap (the levels of a leveled store, or the inputs and output of a
 *       merge a crash cut short) and the segments' records are therefore merged into one new table per group of
 *       overlapping ranges, keeping every version (an exact duplicate is kept once); a table that overlaps no
 *       other is kept as it is, unread except for its check.</li>
 *   <li><b>Counters.</b> The new manifest's {@code lastSequence} is the largest sequence number of every table
 *       and record kept (and of the old manifest, if it can still be read), so no number is handed out twice;
 *       file numbers continue above every numbered file in the directory and in {@value #SET_ASIDE}.</li>
 *   <li><b>What is not kept:</b> the merge policy's state (the store continues from the policy's initial state)
 *       and the levels of a leveled store. A key deleted by a merge that dropped its tombstone can reappear if a
 *       crash left that merge's inputs behind.</li>
 *   <li><b>Crash safety.</b> New tables are written and synced before any file moves, and CURRENT is written
 *       last, so a crash during a repair leaves a directory that open refuses and a second repair completes.</li>
 * </ul>
 * REQUIRES: the store is not open (the directory lock is taken; an open store makes the repair fail).
 */
public final class StoreRepair {
    /** The subdirectory of the store that receives every file the repair does not use. */
    public static final String SET_ASIDE = "set-aside";

    private StoreRepair() {
    }

    /**
     * A table of the rebuilt store.
     *
     * @param file        its name
     * @param entries     entries (tombstones included)
     * @param minKey      its smallest key
     * @param maxKey      its largest key
     * @param minSequence its smallest sequence number
     * @param maxSequence its largest sequence number
     * @param madeFrom    empty if it was kept as it was; else the tables and segments whose entries it holds
     */
    public record Table(String file, long entries, byte[] minKey, byte[] maxKey, long minSequence, long maxSequence,
            List<String> madeFrom) {
        /**
         * Copies the list.
         *
         * @param file        its name
         * @param entries     entries (tombstones included)
         * @param minKey      its smallest key
         * @param maxKey      its largest key
         * @param minSequence its smallest sequence number
         * @param maxSequence its largest sequence number
         * @param madeFrom    empty if it was kept as it was; else the tables and segments whose entries it holds
         */
        public Table {
            madeFrom = List.copyOf(madeFrom);
        }
    }

    /**
     * A write-ahead-log segment as read.
     *
     * @param file    its name
     * @param records intact records (write batches) recovered from it
     * @param entries operations in those records
     * @param ending  {@code "complete"}, or how it ended (torn tail, damage), naming the offset
     */
    public record Segment(String file, long records, long entries, String ending) {
    }

    /**
     * A file moved into {@value #SET_ASIDE}.
     *
     * @param file   its name in the store directory
     * @param to     its path relative to the store directory
     * @param reason why the rebuilt store does not use it
     */
    public record SetAside(String file, String to, String reason) {
    }

    /**
     * What the repair found and did.
     *
     * @param directory      the store directory
     * @param manifest       the new manifest's name
     * @param tables         the rebuilt store's tables, newest first (its level 0)
     * @param walSegments    every segment read, ascending
     * @param setAside       every file moved into {@value #SET_ASIDE}
     * @param damaged        how many of those were damaged tables (their entries are not in the store)
     * @param lastSequence   the new manifest's last sequence number
     * @param nextFileNumber the new manifest's next file number
     * @param ignored        files left in place because their names are not the store's
     */
    public record Report(Path directory, String manifest, List<Table> tables, List<Segment> walSegments,
            List<SetAside> setAside, int damaged, long lastSequence, long nextFileNumber, List<String> ignored) {
        /**
         * Copies the lists.
         *
         * @param directory      the store directory
         * @param manifest       the new manifest's name
         * @param tables         the rebuilt store's tables, newest first (its level 0)
         * @param walSegments    every segment read, ascending
         * @param setAside       every file moved into {@value #SET_ASIDE}
         * @param damaged        how many of those were damaged tables (their entries are not in the store)
         * @param lastSequence   the new manifest's last sequence number
         * @param nextFileNumber the new manifest's next file number
         * @param ignored        files left in place because their names are not the store's
         */
        public Report {
            tables = List.copyOf(tables);
            walSegments = List.copyOf(walSegments);
            setAside = List.copyOf(setAside);
            ignored = List.copyOf(ignored);
        }

        /**
         * Entries in the rebuilt store's tables.
         *
         * @return the entries
         */
        public long entries() {
            return tables.stream().mapToLong(Table::entries).sum();
        }
    }

    /** A table found sound, or the log's records: what the repair lays out. */
    private record Source(String name, Path table, SSTableMetadata meta, TreeSet<Entry> logged, long minSequence,
            long maxSequence) {
    }

    /**
     * {@return {@link #repair(Path, StoreOptions, FileLayer)} with the options' file layer}
     *
     * @param dir     the store directory
     * @param options the store's options
     * @throws IOException if an I/O operation fails
     */
    public static Report repair(Path dir, StoreOptions options) throws IOException {
        return repair(dir, options, FileLayer.of(options.device(), options.writeBytesPerSecond()));
    }

    /**
     * Repairs the store in {@code dir} (see the class comment); the store then opens with {@link LsmStore#open}.
     * Options used: the SSTable format options for new tables and the manifest options.
     *
     * @param dir     the store directory
     * @param options the store's options
     * @param files   the file layer every file operation goes through
     * @return what the repair found and did
     * @throws NoSuchFileException if {@code dir} is not a directory
     * @throws IOException         if the store is open, or an I/O operation fails (files already moved stay in
     *                             {@value #SET_ASIDE}; running the repair again completes it)
     */
    public static Report repair(Path dir, StoreOptions options, FileLayer files) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "not a directory: no store to repair");
        }
        try (DirectoryLock lock = DirectoryLock.acquire(dir.resolve(LsmStore.LOCK_FILE),
                "the store in " + dir + " is open (" + LsmStore.LOCK_FILE + " is locked); close it before repairing")) {
            return new Run(dir, options, files).run();
        }
    }

    /** One repair's state. */
    private static final class Run {
        private final Path dir;
        private final Path aside;
        private final StoreOptions options;
        private final FileLayer files;
        private final List<Source> sources = new ArrayList<>();
        private final List<Segment> segments = new ArrayList<>();
        private final List<SetAside> setAside = new ArrayList<>();
        private final List<Path> toSetAside = new ArrayList<>();
        private final List<String> reasons = new ArrayList<>();
        private final List<String> ignored = new ArrayList<>();
        private final List<Table> tables = new ArrayList<>();
        private int damaged;
        private long nextFileNumber = 1;
        private long lastSequence;

        Run(Path dir, StoreOptions options, FileLayer files) {
            this.dir = dir;
            this.aside = dir.resolve(SET_ASIDE);
            this.options = options;
            this.files = files;
        }

        Report run() throws IOException {
            readOldManifest();
            List<Path> entries = new ArrayList<>(files.list(dir));
            entries.sort(Comparator.comparing(p -> p.getFileName().toString()));
            if (Files.isDirectory(aside)) {
                for (Path p : files.list(aside)) {
                    noteNumber(p.getFileName().toString().replaceFirst("\\.[0-9]+$", ""));
                }
            }
            List<Path> wal = new ArrayList<>();
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (!Files.isRegularFile(p) || name.equals(LsmStore.LOCK_FILE) || name.equals(OptionsFile.NAME)
                        || EventLog.isLogFile(name)) {
                    continue;
                }
                noteNumber(name);
                if (StoreFiles.tableNumber(name).isPresent()) {
                    readTable(p, name);
                } else if (StoreFiles.walNumber(name).isPresent()) {
                    wal.add(p);
                } else if (StoreFiles.manifestNumber(name).isPresent() || name.equals(StoreFiles.CURRENT)
                        || name.endsWith(StoreFiles.TEMP_SUFFIX)) {
                    later(p, StoreFiles.manifestNumber(name).isPresent() ? "a manifest; the repair writes a new one"
                            : name.equals(StoreFiles.CURRENT) ? "named the old manifest" : "a temporary file");
                } else {
                    ignored.add(name);
                }
            }
            wal.sort(Comparator.comparingLong(p -> StoreFiles.walNumber(p.getFileName().toString()).getAsLong()));
            readLog(wal);
            List<TableRecord> layout = layOut();
            moveAside();
            ComponentSet set = edit(layout).applyTo(ComponentSet.empty());
            String manifestName;
            try (Manifest m = Manifest.create(dir, set, options.manifest(), files)) {
                manifestName = m.path().getFileName().toString();
            }
            List<Table> newestFirst = new ArrayList<>(tables);
            java.util.Collections.reverse(newestFirst);
            return new Report(dir, manifestName, newestFirst, segments, setAside, damaged, set.lastSequence(),
                    set.nextFileNumber(), ignored);
        }

        /** The counters of the old manifest, where it can still be read: never hand out its numbers again. */
        private void readOldManifest() {
            try {
                Recovered old = Manifest.recover(dir, files);
                nextFileNumber = Math.max(nextFileNumber, old.set().nextFileNumber());
                lastSequence = Math.max(lastSequence, old.set().lastSequence());
            } catch (IOException | RuntimeException e) {
                // missing or damaged: that is what the repair is for
            }
        }

        private void noteNumber(String name) {
            for (OptionalLong n : List.of(StoreFiles.tableNumber(name), StoreFiles.walNumber(name),
                    StoreFiles.manifestNumber(name))) {
                if (n.isPresent()) {
                    nextFileNumber = Math.max(nextFileNumber, n.getAsLong() + 1);
                }
            }
        }

        private void readTable(Path p, String name) throws IOException {
            SSTableVerifier.Report check = SSTableVerifier.verify(p);
            if (!check.ok()) {
                damaged++;
                later(p, "damaged or incomplete, its entries are not in the repaired store (a crash during a flush "
                        + "or merge leaves its output incomplete; its entries are then still in the logs or in the "
                        + "merge's inputs): " + String.join("; ",
                        check.problems().subList(0, Math.min(3, check.problems().size())))
                        + (check.problems().size() > 3 ? "; ..." : ""));
                return;
            }
            try (SSTableReader r = SSTableReader.open(files, IoCause.MERGE, p, BlockCache.ofBytes(0))) {
                SSTableMetadata m = r.metadata();
                sources.add(new Source(name, p, m, null, m.minSequence(), m.maxSequence()));
            }
        }

        /** Reads every segment's intact records into one source; every segment is set aside afterwards. */
        private void readLog(List<Path> wal) throws IOException {
            TreeSet<Entry> logged = new TreeSet<>(Entry.ORDER);
            for (Path segment : wal) {
                String name = segment.getFileName().toString();
                long[] counts = {0, 0};
                String ending;
                try {
                    LogTail tail = WalReplay.replay(files, segment, batch -> {
                        counts[0]++;
                        for (Entry e : batch.entries()) {
                            counts[1]++;
                            logged.add(e);
                        }
                    });
                    ending = tail.torn() ? "torn tail at offset " + tail.validEnd() + " skipped (" + tail.detail()
                            + ")" : "complete";
                } catch (CorruptionException e) {
                    ending = "damaged, read up to the damage: " + e.getMessage();
                }
                segments.add(new Segment(name, counts[0], counts[1], ending));
                later(segment, counts[1] == 0 ? "a write-ahead-log segment with no intact record"
                        : "a write-ahead-log segment; its records are in the repaired store's tables");
            }
            if (!logged.isEmpty()) {
                long min = logged.stream().mapToLong(Entry::sequence).min().getAsLong();
                long max = logged.stream().mapToLong(Entry::sequence).max().getAsLong();
                sources.add(new Source(wal.size() == 1 ? wal.get(0).getFileName().toString()
                        : wal.size() + " write-ahead-log segments", null, null, logged, min, max));
            }
        }

        /**
         * Groups the sources whose sequence ranges overlap; keeps a lone table, writes one new table per other
         * group. Returns the tables oldest first.
         */
        private List<TableRecord> layOut() throws IOException {
            sources.sort(Comparator.comparingLong(Source::minSequence).thenComparingLong(Source::maxSequence));
            long maxFlush = sources.stream().filter(s -> s.meta() != null)
                    .mapToLong(s -> s.meta().maxFlushIndex()).max().orElse(0);
            List<TableRecord> out = new ArrayList<>();
            int i = 0;
            while (i < sources.size()) {
                List<Source> group = new ArrayList<>();
                long groupMax = sources.get(i).maxSequence();
                group.add(sources.get(i++));
                while (i < sources.size() && sources.get(i).minSequence() <= groupMax) {
                    groupMax = Math.max(groupMax, sources.get(i).maxSequence());
                    group.add(sources.get(i++));
                }
                if (group.size() == 1 && group.get(0).table() != null) {
                    Source s = group.get(0);
                    long number = StoreFiles.tableNumber(s.name()).getAsLong();
                    out.add(TableBuilder.record(number, 0, files.size(s.table()), s.meta()));
                    tables.add(table(s.name(), s.meta(), List.of()));
                } else {
                    out.add(merge(group, maxFlush));
                }
            }
            files.syncDirectory(dir);
            for (TableRecord t : out) {
                lastSequence = Math.max(lastSequence, t.maxSequence());
            }
            return out;
        }

        /** Writes {@code group}'s entries, every version once, into one new table; its sources are set aside. */
        private TableRecord merge(List<Source> group, long maxFlush) throws IOException {
            long number = nextFileNumber++;
            String name = StoreFiles.tableName(number);
            Path path = dir.resolve(name);
            long minFlushIndex = Long.MAX_VALUE;
            long maxFlushIndex = 0;
            long oldestTombstone = Long.MAX_VALUE;
            List<SSTableReader> readers = new ArrayList<>();
            List<EntryCursor> inputs = new ArrayList<>();
            List<String> madeFrom = new ArrayList<>();
            try {
                for (Source s : group) {
                    madeFrom.add(s.name());
                    if (s.table() != null) {
                        SSTableReader r = SSTableReader.open(files, IoCause.MERGE, s.table(), BlockCache.ofBytes(0));
                        readers.add(r);
                        inputs.add(r.scanInPlace(TableBuilder.mergeReadAhead(group.size())));
                        minFlushIndex = Math.min(minFlushIndex, s.meta().minFlushIndex());
                        maxFlushIndex = Math.max(maxFlushIndex, s.meta().maxFlushIndex());
                        oldestTombstone = Math.min(oldestTombstone, s.meta().oldestTombstoneMillis());
                        later(s.table(), "its entries were copied into " + name + " (its sequence numbers overlap "
                                + "another source's)");
                    } else {
                        inputs.add(EntryCursor.of(s.logged().iterator()));
                        minFlushIndex = Math.min(minFlushIndex, maxFlush + 1);
                        maxFlushIndex = Math.max(maxFlushIndex, maxFlush + 1);
                        if (s.logged().stream().anyMatch(Entry::tombstone)) {
                            oldestTombstone = Math.min(oldestTombstone, System.currentTimeMillis());
                        }
                    }
                }
                SSTableMetadata meta;
                try (SSTableWriter w = SSTableWriter.create(files, IoCause.MERGE, path, options.sstable(),
                        minFlushIndex, maxFlushIndex, System.currentTimeMillis())) {
                    byte[] previousKey = null;
                    long previousSequence = -1;
                    try (MergingCursor it = new MergingCursor(inputs)) {
                        while (it.advance()) { // an entry both a table and the log hold is written once
                            int at = it.keyOffset();
                            int end = at + it.keyLength();
                            if (previousKey == null || previousSequence != it.sequence()
                                    || !Arrays.equals(previousKey, 0, previousKey.length, it.keyArray(), at, end)) {
                                w.add(it);
                                previousKey = Arrays.copyOfRange(it.keyArray(), at, end);
                                previousSequence = it.sequence();
                            }
                        }
                    }
                    meta = w.finish(oldestTombstone);
                }
                tables.add(table(name, meta, madeFrom));
                return TableBuilder.record(number, 0, files.size(path), meta);
            } finally {
                for (SSTableReader r : readers) {
                    r.close();
                }
            }
        }

        private static Table table(String name, SSTableMetadata m, List<String> madeFrom) {
            return new Table(name, m.entries(), m.minKey(), m.maxKey(), m.minSequence(), m.maxSequence(), madeFrom);
        }

        private void later(Path p, String reason) {
            toSetAside.add(p);
            reasons.add(reason);
        }

        private void moveAside() throws IOException {
            if (toSetAside.isEmpty()) {
                return;
            }
            files.createDirectories(aside);
            for (int i = 0; i < toSetAside.size(); i++) {
                Path from = toSetAside.get(i);
                String name = from.getFileName().toString();
                Path to = aside.resolve(name);
                for (int n = 1; Files.exists(to); n++) {
                    to = aside.resolve(name + "." + n);
                }
                files.moveAtomically(from, to);
                setAside.add(new SetAside(name, dir.relativize(to).toString(), reasons.get(i)));
            }
            files.syncDirectory(aside);
            files.syncDirectory(dir);
        }

        private ManifestEdit edit(List<TableRecord> oldestFirst) {
            ManifestEdit.Builder b = ManifestEdit.builder();
            oldestFirst.forEach(b::addTable);
            return b.nextFileNumber(nextFileNumber).lastSequence(lastSequence).build();
        }
    }
}
