package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.memtable.ChunkPool;
import io.lsmpolicies.lsm.memtable.MemTable;
import io.lsmpolicies.lsm.sstable.BlockCache;
import io.lsmpolicies.lsm.sstable.SSTableReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * The store's open tables and what reads see: one {@link TableHandle} per live table (file number to handle), the
 * published {@link ReadView}, and the write-ahead-log segments still needed. It owns the files' lifetimes: a
 * replaced table's file is deleted once no {@link Version} holds it (reference counts; the unlink itself runs on
 * the {@link FilePurger}'s thread), a log segment once every
 * write it holds is in a table (on that thread too). It owns the MemTables' lifetimes too: a MemTable holds one
 * reference for the read views that show it, released when a view without it is installed, and one for each read
 * that {@link #acquire acquired} a view showing it, so that its arena chunks go back to the pool only once no read
 * can still reach them. Mutations REQUIRE the mutex; {@link #acquire} is lock-free.
 */
final class TableSet {
    private final FileLayer files;
    private final Path dir;
    private final BlockCache cache;
    private final StoreStatistics stats;
    private final StoreMutex mutex;
    private final FilePurger purger;
    private final Map<Long, TableHandle> tables = new HashMap<>();
    private final TreeSet<Long> walSegments = new TreeSet<>();
    private volatile ReadView readView;
    private final long memtableBytes;
    /** Chunks of flushed MemTables for new ones: two MemTables' worth, what a burst of flushes hands on. */
    private final ChunkPool chunks;

    TableSet(FileLayer files, Path dir, BlockCache cache, StoreStatistics stats, StoreMutex mutex,
             FilePurger purger, long memtableBytes) {
        this.memtableBytes = memtableBytes;
        this.chunks = new ChunkPool(memtableBytes, 2);
        this.purger = purger;
        this.files = files;
        this.dir = dir;
        this.cache = cache;
        this.stats = stats;
        this.mutex = mutex;
    }

    Path tablePath(long number) {
        return dir.resolve(StoreFiles.tableName(number));
    }

    /** Opens every table of {@code set}, the parents of virtual tables first. REQUIRES: the mutex. */
    void openAll(ComponentSet set) throws IOException {
        assert mutex.held();
        for (TableRecord t : set.parents().values()) { // before the virtual tables that point at them
            tables.put(t.fileNumber(), open(t));
            stats.tableOnDisk(t.fileBytes());
        }
        for (List<TableRecord> level : set.levels()) {
            for (TableRecord t : level) {
                tables.put(t.fileNumber(), open(t));
                stats.tableOnDisk(t.fileBytes());
            }
        }
    }

    /**
     * A handle on {@code t}; for a virtual table, over its parents' handles, which must be open. REQUIRES: the
     * mutex, for a virtual table.
     */
    private TableHandle open(TableRecord t) throws IOException {
        if (t.isVirtual()) {
            assert mutex.held();
            List<TableHandle> parents = new ArrayList<>();
            for (TableRecord p : t.parents()) {
                TableHandle h = tables.get(p.fileNumber());
                if (h == null || h.isVirtual()) {
                    throw new IllegalStateException("virtual table " + t.fileNumber() + ": parent " + p.fileNumber()
                            + " is not an open real table");
                }
                parents.add(h);
            }
            return TableHandle.virtual(t, parents);
        }
        SSTableReader reader = SSTableReader.open(files, IoCause.READ, tablePath(t.fileNumber()), cache);
        return new TableHandle(t, reader, h -> {
            stats.tableDeleted(h.record().fileBytes()); // in no version any more: no longer the store's bytes
            purger.delete(h.path());
        });
    }

    /**
     * Handles on tables an edit is about to add, opened before the edit is logged: once it is in the manifest,
     * installing it must not fail halfway (a logged table missing from the open ones would break every later
     * version). On failure the handles already open are released. REQUIRES: the mutex, for a virtual table.
     */
    List<TableHandle> openNew(List<TableRecord> added) throws IOException {
        List<TableHandle> opened = new ArrayList<>(added.size());
        try {
            for (TableRecord t : added) {
                opened.add(open(t));
            }
            return opened;
        } catch (IOException | RuntimeException e) {
            release(opened);
            throw e;
        }
    }

    /** Closes handles {@link #openNew} opened for an edit that was not logged (their files are not deleted). */
    static void release(List<TableHandle> handles) {
        for (TableHandle h : handles) {
            h.ref();
            try {
                h.unref();
            } catch (IOException e) {
                // closing a reader that was never used; the store's error is the one that stopped the edit
            }
        }
    }

    /** Makes the logged tables {@code added} live with the handles {@link #openNew} gave. REQUIRES: the mutex. */
    void addAll(List<TableRecord> added, List<TableHandle> handles) {
        assert mutex.held();
        for (int i = 0; i < added.size(); i++) {
            tables.put(added.get(i).fileNumber(), handles.get(i));
        }
    }

    /**
     * A trivial move's new record for the same file: the old handle is forgotten (it closes when its versions go,
     * never deleting the file) and {@code moved} takes its place. REQUIRES: the mutex.
     */
    void replace(TableHandle moved) {
        assert mutex.held();
        tables.put(moved.fileNumber(), moved);
    }

    /** Forgets a table that left the set and marks it obsolete: its file goes with its last reference. */
    TableHandle retire(long number) {
        assert mutex.held();
        TableHandle h = tables.remove(number);
        h.markObsolete();
        return h;
    }

    /** The live table {@code number}, or null. REQUIRES: the mutex. */
    TableHandle get(long number) {
        assert mutex.held();
        return tables.get(number);
    }

    /** REQUIRES: the mutex. */
    boolean contains(long number) {
        assert mutex.held();
        return tables.containsKey(number);
    }

    /** Every open handle. REQUIRES: the mutex. */
    Collection<TableHandle> all() {
        assert mutex.held();
        return tables.values();
    }

    /**
     * Forgets the handles of tables that are no longer live in {@code set} (in no level and no virtual table's
     * parent): a real one is marked obsolete, so its file goes once no version or virtual table holds it;
     * {@code forgotten} hears each number. REQUIRES: the mutex.
     */
    void dropDead(ComponentSet set, LongConsumer forgotten) {
        assert mutex.held();
        Set<Long> live = set.fileNumbers();
        for (var it = tables.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            long n = e.getKey();
            if (live.contains(n) || set.table(n).isPresent()) {
                continue;
            }
            it.remove();
            forgotten.accept(n);
            if (!e.getValue().isVirtual()) {
                e.getValue().markObsolete();
            }
        }
    }

    /**
     * Whether no live table outside {@code inputs} (and {@code reads}, the real tables behind them) can hold an
     * older version of a key inside them, so a tombstone with nothing older behind it can be dropped. MemTables
     * only hold newer versions; {@code newerThanInputs} is the newest sequence merged besides the inputs (a
     * MemTable's), or 0. REQUIRES: the mutex.
     */
    boolean isBottommost(List<TableHandle> inputs, List<TableHandle> reads, long newerThanInputs) {
        assert mutex.held();
        Set<Long> ids = new HashSet<>();
        long maxSequence = newerThanInputs;
        for (TableHandle h : inputs) {
            ids.add(h.fileNumber());
            maxSequence = Math.max(maxSequence, h.record().maxSequence());
        }
        for (TableHandle h : reads) { // a virtual input's parents are inputs too
            ids.add(h.fileNumber());
        }
        for (TableHandle t : tables.values()) {
            if (ids.contains(t.fileNumber()) || t.record().minSequence() > maxSequence) {
                continue;
            }
            for (TableHandle h : inputs) {
                if (h.overlaps(t.record())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A version of {@code set} over the open handles (one reference taken on each). REQUIRES: the mutex. */
    Version version(ComponentSet set) {
        assert mutex.held();
        return new Version(set, tables);
    }

    /** The read view now (no reference taken: for the structure's bookkeeping, not for reading tables). */
    ReadView view() {
        return readView;
    }

    /**
     * Publishes {@code next} and releases the store's reference on the version it replaces, then wakes every
     * waiter. REQUIRES: the mutex.
     */
    void install(ReadView next) {
        assert mutex.held();
        ReadView old = readView;
        readView = next;
        if (old != null && old.version() != next.version()) {
            old.version().unref();
        }
        if (old != null) {
            releaseIfLeft(old.active().table(), next);
            old.immutables().forEach(m -> releaseIfLeft(m.table(), next));
        }
        mutex.signalAll();
    }

    /** Releases the views' reference on {@code m} if {@code next} no longer shows it (its flush is installed). */
    private static void releaseIfLeft(MemTable m, ReadView next) {
        if (next.active().table() == m) {
            return;
        }
        for (LiveMemTable n : next.immutables()) {
            if (n.table() == m) {
                return;
            }
        }
        m.release();
    }

    /** A new MemTable for the store's budget, its chunks from the store's pool. */
    MemTable newMemTable() {
        return new MemTable(memtableBytes, chunks);
    }

    /** {@return the pool of arena chunks} */
    ChunkPool chunks() {
        return chunks;
    }

    /**
     * The current read view with a reference taken on its version and on each of its MemTables, lock-free; give
     * them back with {@link #release(ReadView)}.
     */
    ReadView acquire(RunState run) {
        while (true) {
            run.checkOpen();
            ReadView rv = readView;
            if (rv.version().tryRef()) {
                if (retainMemTables(rv)) {
                    return rv;
                }
                rv.version().unref(); // a flush installed since: the next view holds its tables
            }
        }
    }

    private static boolean retainMemTables(ReadView rv) {
        if (!rv.active().table().tryRetain()) {
            return false;
        }
        List<LiveMemTable> immutables = rv.immutables();
        for (int i = 0; i < immutables.size(); i++) {
            if (!immutables.get(i).table().tryRetain()) {
                for (int j = 0; j < i; j++) {
                    immutables.get(j).table().release();
                }
                rv.active().table().release();
                return false;
            }
        }
        return true;
    }

    /** Gives back what {@link #acquire} took on {@code rv}: its MemTables' references and its version's. */
    static void release(ReadView rv) {
        rv.active().table().release();
        rv.immutables().forEach(m -> m.table().release());
        rv.version().unref();
    }

    /** A log segment was created (before any edit names it). REQUIRES: the mutex. */
    void addWalSegment(long number) {
        assert mutex.held();
        walSegments.add(number);
    }

    /** A segment deleted at recovery (it held no write). REQUIRES: the mutex. */
    void forgetWalSegment(long number) {
        assert mutex.held();
        walSegments.remove(number);
    }

    /** Deletes the log segments numbered below {@code number}: every write they hold is in a table. */
    void deleteWalSegmentsBelow(long number) throws IOException {
        List<Long> obsolete;
        mutex.lock();
        try {
            obsolete = new ArrayList<>(walSegments.headSet(number));
            walSegments.removeAll(obsolete);
        } finally {
            mutex.unlock();
        }
        for (long n : obsolete) {
            purger.delete(dir.resolve(StoreFiles.walName(n)));
        }
    }

    /**
     * Drops the store's reference on its version (or, before any view, closes the handles opened so far), so
     * every reader closes once the reads in flight end.
     *
     * @throws IOException if closing a reader failed
     */
    void close() throws IOException {
        mutex.lock();
        try {
            if (readView != null) {
                readView.version().unref();
            } else {
                for (TableHandle h : tables.values()) {
                    h.ref();
                    h.unref();
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            mutex.unlock();
        }
    }
}
