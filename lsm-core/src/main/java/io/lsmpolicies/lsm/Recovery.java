package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.events.StoreEvent;
import io.lsmpolicies.lsm.io.DirectoryLock;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.log.LogTail;
import io.lsmpolicies.lsm.manifest.AbandonedCreation;
import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.ManifestEdit;
import io.lsmpolicies.lsm.manifest.OptionsFile;
import io.lsmpolicies.lsm.manifest.PolicyRecord;
import io.lsmpolicies.lsm.manifest.Recovered;
import io.lsmpolicies.lsm.manifest.StoreFiles;
import io.lsmpolicies.lsm.manifest.StoredOptions;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.lsm.memtable.MemTable;
import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.log.WalReplay;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Opening and recovery: refuses a store whose manifest needs files that are gone, clears what a crashed creation
 * left, and brings a recovered component set back to life: opens its tables, restores the policy state, replays
 * the write-ahead log into MemTables, starts a new log segment, flushes what it replayed and consults the policy.
 * Opened read-only, it reads the same and changes nothing.
 */
final class Recovery {
    private final StoreContext ctx;
    private final MergeScheduler scheduler;
    private final FlushJob flushJob;
    private final WritePath writes;

    Recovery(StoreContext ctx, MergeScheduler scheduler, FlushJob flushJob, WritePath writes) {
        this.ctx = ctx;
        this.scheduler = scheduler;
        this.flushJob = flushJob;
        this.writes = writes;
    }

    /** See {@link LsmStore#open(Path, StoreOptions, FileLayer)}. */
    static LsmStore open(Path dir, StoreOptions options, FileLayer files) throws IOException {
        files.createDirectories(dir);
        DirectoryLock lock = DirectoryLock.acquire(dir.resolve(LsmStore.LOCK_FILE),
                "the store in " + dir + " is already open (" + LsmStore.LOCK_FILE + " is locked)");
        return releasingOnFailure(lock, built -> {
            Recovered recovered = null;
            Manifest manifest;
            Optional<StoredOptions> stored = Optional.empty();
            Optional<PolicySwitch> switched = Optional.empty();
            if (files.exists(dir.resolve(StoreFiles.CURRENT))) {
                recovered = Manifest.recover(dir, files);
                checkRequiredFiles(recovered);
                stored = OptionsFile.read(files, dir);
                if (stored.isPresent()) {
                    switched = PolicySwitch.check(dir, recovered.set(), stored.get().policy(), options.policy());
                }
                recovered.deleteOrphans(files);
                manifest = Manifest.reopen(recovered, options.manifest(), files);
            } else {
                clearAbandonedCreation(files, dir);
                manifest = Manifest.create(dir, ComponentSet.empty(), options.manifest(), files);
            }
            LsmStore store = built.apply(new LsmStore(dir, options, files, lock, manifest, false, switched));
            store.recovery().start(recovered, switched);
            if (!stored.equals(Optional.of(options.stored()))) {
                OptionsFile.write(files, dir, options.stored());
            }
            return store;
        });
    }

    /** See {@link LsmStore#openReadOnly(Path, StoreOptions, FileLayer)}. */
    static LsmStore openReadOnly(Path dir, StoreOptions options, FileLayer files) throws IOException {
        DirectoryLock lock = DirectoryLock.acquireShared(dir.resolve(LsmStore.LOCK_FILE),
                "the store in " + dir + " is open for writing, or already open in this process (" + LsmStore.LOCK_FILE
                        + " is locked)");
        return releasingOnFailure(lock, built -> {
            Recovered recovered = Manifest.recover(dir, files);
            checkRequiredFiles(recovered);
            LsmStore store = built.apply(new LsmStore(dir, options, files, lock, Manifest.readOnly(recovered), true,
                    Optional.empty()));
            store.recovery().start(recovered, Optional.empty());
            return store;
        });
    }

    /** An opening that hands each store it builds to {@code built} before starting it. */
    private interface Opening {
        LsmStore open(UnaryOperator<LsmStore> built) throws IOException;
    }

    /**
     * Runs {@code opening}; if it fails, releases what it took: the store it built (threads, files, the lock), or
     * only the lock if it built none.
     */
    private static LsmStore releasingOnFailure(DirectoryLock lock, Opening opening) throws IOException {
        LsmStore[] built = {null};
        try {
            return opening.open(s -> built[0] = s);
        } catch (IOException | RuntimeException | Error e) {
            try {
                if (built[0] != null) {
                    built[0].abandon();
                } else {
                    lock.close();
                }
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Refuses a store whose manifest requires files that are not there, tables or the live write-ahead-log
     * segment: their data would be lost silently.
     */
    static void checkRequiredFiles(Recovered recovered) throws CorruptionException {
        if (!recovered.missingTables().isEmpty()) {
            throw new CorruptionException(recovered.manifest(), 0, Code.MISSING_FILE, "the manifest lists "
                    + "SSTables " + recovered.missingTables() + ", which are not in " + recovered.directory());
        }
        if (recovered.missingWalSegment().isPresent()) {
            String name = StoreFiles.walName(recovered.missingWalSegment().getAsLong());
            throw new CorruptionException(recovered.manifest(), 0, Code.MISSING_FILE, "the manifest's live "
                    + "write-ahead-log segment " + name + " is not in " + recovered.directory() + ": the writes it "
                    + "held that no table holds are lost. Restore the file if you can; 'bin/lsm repair --dir "
                    + recovered.directory() + "' rebuilds the store from what is left (it deletes nothing)");
        }
    }

    /**
     * A directory without CURRENT is new, or a creation that crashed before CURRENT was written, which can have
     * left only the first manifest and CURRENT.tmp ({@link AbandonedCreation}); those are deleted. Anything else of
     * the store's is a store whose CURRENT was lost: refused, deleting nothing. Other data is refused too.
     */
    static void clearAbandonedCreation(FileLayer files, Path dir) throws IOException {
        List<Path> leftovers = AbandonedCreation.leftovers(files, dir, LsmStore.LOCK_FILE);
        for (Path p : leftovers) {
            files.delete(p);
        }
        if (!leftovers.isEmpty()) {
            files.syncDirectory(dir);
        }
    }

    /**
     * Opens the manifest's tables, restores the policy state, replays the log ({@code recovered}: null for a new
     * store) and starts taking writes; {@code switched} says the policy changed, which the first edit records.
     * Each step is an event ({@link StoreEvent.Recovery}).
     */
    void start(Recovered recovered, Optional<PolicySwitch> switched) throws IOException {
        ComponentSet set = ctx.manifest().current();
        boolean readOnly = ctx.run().readOnly();
        step("opened", (recovered == null ? "created" : "reopened") + (readOnly ? " read-only" : "") + " with policy "
                + ctx.policy().name() + ": " + set.tableCount() + " tables, last sequence " + set.lastSequence()
                + (recovered == null || readOnly ? "" : ", " + recovered.orphans().size() + " orphan files deleted"));
        switched.ifPresent(s -> step("policy-switched", s.toString()));
        ctx.mutex().lock();
        try {
            ctx.tables().openAll(set);
            // A read-only store never consults its policy, whose parameters may not be the store's own.
            scheduler.setState(readOnly ? ctx.policy().initialState() : restoredState(set));
        } finally {
            ctx.mutex().unlock();
        }
        flushJob.recovered(java.util.stream.Stream.concat(set.parents().values().stream(),
                set.levels().stream().flatMap(List::stream)).mapToLong(TableRecord::maxFlushIndex).max().orElse(0));
        long[] lastSequence = {set.lastSequence()};
        List<LiveMemTable> replayed = recovered == null ? List.of()
                : replay(recovered.walSegments(), set, lastSequence);
        if (recovered != null && !recovered.walSegments().isEmpty()) {
            step("log-replayed", recovered.walSegments().size() + " write-ahead-log segment(s): "
                    + replayed.stream().mapToLong(m -> m.table().size()).sum() + " writes no table held, in "
                    + replayed.size() + " MemTable(s); last sequence " + lastSequence[0]);
        }
        writes.recovered(lastSequence[0]);
        List<LiveMemTable> newestFirst = new ArrayList<>(replayed);
        Collections.reverse(newestFirst);
        long walNumber = 0;
        if (!readOnly) {
            walNumber = ctx.manifest().newFileNumber();
            writes.startLog(walNumber);
        }
        ctx.mutex().lock();
        try {
            ctx.tables().install(new ReadView(new LiveMemTable(ctx.tables().newMemTable(), walNumber, System.currentTimeMillis()),
                    newestFirst, ctx.tables().version(set)));
        } finally {
            ctx.mutex().unlock();
        }
        if (readOnly) {
            return;
        }
        if (replayed.isEmpty()) {
            ManifestEdit.Builder edit = FlushJob.oldestLiveWal(ManifestEdit.builder(), walNumber,
                    ctx.options().walMode());
            if (switched.isPresent()) { // otherwise the replayed MemTables' flushes record the new policy
                ctx.mutex().lock();
                try {
                    edit.policy(ctx.policy().name(), scheduler.state().encode());
                } finally {
                    ctx.mutex().unlock();
                }
            }
            ctx.manifest().append(edit.build());
            ctx.tables().deleteWalSegmentsBelow(walNumber);
        }
        for (int i = 0; i < replayed.size(); i++) {
            flushJob.flushOldest();
            ctx.run().rethrowFailure();
        }
        step("recovered", replayed.size() + " replayed MemTable(s) flushed; taking writes");
        ctx.mutex().lock();
        try {
            scheduler.schedule();
        } finally {
            ctx.mutex().unlock();
        }
    }

    /** The policy state the manifest recorded, if it is this policy's; else the policy's initial state. */
    private PolicyState restoredState(ComponentSet set) throws CorruptionException {
        MergePolicy policy = ctx.policy();
        Optional<PolicyRecord> recorded = PolicyRecord.recordedIn(set);
        if (recorded.isEmpty() || !recorded.get().name().equals(policy.name())) {
            return policy.initialState();
        }
        try {
            return policy.decodeState(recorded.get().state());
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(ctx.manifest().path(), 0, Code.INCONSISTENT_RECORD,
                    "policy state: " + e.getMessage());
        }
    }

    /**
     * Reads the WAL segments into MemTables of at most the budget each, oldest first, raising
     * {@code lastSequence[0]} to the newest write replayed. Only the newest segment may end torn (the crash hit
     * its last write); a torn older segment, or damage anywhere else, is corruption.
     *
     * <p>The newest segment's crash damage is repaired here, before {@link #start} creates a newer segment: a torn
     * tail is cut off at the end of the last intact record, and a segment whose header never reached the file
     * (it holds no write) is deleted. Otherwise a second crash during this recovery, before its flushes are
     * installed, would leave the torn segment older than the one this open created, and every later open would
     * refuse the store as corrupt. For the same reason every segment replayed is synced as it now is: after a
     * process crash its tail may be in the operating system only, and a power loss would tear it. Read-only, the
     * files stay as they are.
     */
    private List<LiveMemTable> replay(List<Path> segments, ComponentSet set, long[] lastSequence)
            throws IOException {
        boolean readOnly = ctx.run().readOnly();
        FileLayer files = ctx.files();
        List<LiveMemTable> out = new ArrayList<>();
        long flushedUpTo = set.lastSequence();
        MemTable[] current = {ctx.tables().newMemTable()};
        long[] firstSegment = {-1};
        for (int i = 0; i < segments.size(); i++) {
            Path segment = segments.get(i);
            long number = StoreFiles.walNumber(segment.getFileName().toString()).orElseThrow();
            addWalSegment(number);
            boolean newest = i == segments.size() - 1;
            if (firstSegment[0] < 0) {
                firstSegment[0] = number;
            }
            LogTail tail;
            try {
                tail = WalReplay.replay(files, segment, batch -> {
                    for (Entry e : batch.entries()) {
                        if (e.sequence() <= flushedUpTo) {
                            continue; // already in a table: a segment flushed just before a crash
                        }
                        current[0].add(e);
                        lastSequence[0] = Math.max(lastSequence[0], e.sequence());
                    }
                    if (current[0].bytes() >= ctx.options().memtableBytes()) {
                        current[0].freeze();
                        out.add(new LiveMemTable(current[0], firstSegment[0], System.currentTimeMillis()));
                        current[0] = ctx.tables().newMemTable();
                        firstSegment[0] = number;
                    }
                });
            } catch (CorruptionException e) {
                if (newest && e.code() == Code.TRUNCATED_HEADER) {
                    // Created, then the crash came before its header was on the device: it holds no write.
                    forgetWalSegment(number);
                    if (!readOnly) {
                        files.delete(segment);
                        ctx.syncDirectory();
                        step("empty-segment-deleted", segment.getFileName() + ": created, but its header never "
                                + "reached the device; it held no write");
                    }
                    continue;
                }
                throw e;
            }
            if (tail.torn() && !newest) {
                throw new CorruptionException(segment, tail.validEnd(), Code.TORN_TAIL, "write-ahead-log segment "
                        + "ends torn (" + tail.detail() + ") but a newer segment exists, so it was complete once");
            }
            if (readOnly) {
                continue; // the torn tail, if any, was skipped in memory; the file stays as it is
            }
            try (FileChannel ch = files.open(segment, IoCause.WAL, StandardOpenOption.WRITE)) {
                if (tail.torn()) {
                    ch.truncate(tail.validEnd());
                    step("torn-tail-cut", segment.getFileName() + " cut at byte " + tail.validEnd() + " ("
                            + tail.detail() + "): the crash hit its last write, which was never acknowledged");
                }
                ch.force(true);
            }
        }
        if (!current[0].isEmpty()) {
            current[0].freeze();
            out.add(new LiveMemTable(current[0], firstSegment[0], System.currentTimeMillis()));
        }
        return out;
    }

    private void step(String step, String detail) {
        ctx.events().emit(new StoreEvent.Recovery(StoreEvents.now(), step, detail));
    }

    private void addWalSegment(long number) {
        ctx.mutex().lock();
        try {
            ctx.tables().addWalSegment(number);
        } finally {
            ctx.mutex().unlock();
        }
    }

    private void forgetWalSegment(long number) {
        ctx.mutex().lock();
        try {
            ctx.tables().forgetWalSegment(number);
        } finally {
            ctx.mutex().unlock();
        }
    }
}
