package io.lsmpolicies.lsm.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * A {@link FaultHook} for reliability tests (the idea is RocksDB's and LevelDB's fault-injection environments).
 * Use it through {@code FileLayer.withFaults(injector)}. It does two things.
 *
 * <p><b>Failures.</b> {@link #failNth} fails the n-th operation of a kind (counted from when the rule is set),
 * once or from then on, with an {@link IOException} naming the operation, the file and the rule.
 * {@link #shortReadNth} makes the n-th read return fewer bytes than it read, and {@link #corruptReadNth}
 * flips a bit of the n-th read's bytes. {@link #diskFullAt} makes the device fill up at the n-th operation of a
 * kind: that operation fails with {@value #NO_SPACE} (a write may first store part of its bytes, a short write),
 * and so does every later write until {@link #freeSpace}.
 *
 * <p><b>Power loss.</b> It tracks, per file, the size at its last sync, and per directory the entries created,
 * deleted or renamed since that directory's last sync. {@link #powerOff} makes every later operation fail, as if
 * the machine had stopped. Once the store's threads are done (close it, ignoring the errors), {@link #crash}
 * rewrites the directory to what the device would hold after the power came back:
 * <ul>
 *   <li>every file is cut back to its size at its last sync (or, with torn tails, to that size plus a random
 *       part of what was written after it);</li>
 *   <li>every file created since its directory's last sync is gone;</li>
 *   <li>every file deleted or replaced by a rename since its directory's last sync is back, with its synced
 *       bytes (kept in {@code trash} until the directory is synced).</li>
 * </ul>
 * {@link #restart} instead models a process crash: nothing is undone, and what was not synced stays unsynced for a
 * later {@code crash}. A file that existed before the injector saw it counts as synced at the size it had when
 * first seen.
 * Overwrites inside a synced region are not modelled; the engine only appends. Thread-safe.
 */
public final class FaultInjector implements FaultHook {
    private record Rule(long nth, boolean fromThenOn) {
    }

    /** A file to put back at crash time: its content (the synced part) is kept in the trash. */
    private record Restore(Path path, Path copy, long size) {
    }

    /** The message of an injected full-device failure: the text of {@code ENOSPC}. */
    public static final String NO_SPACE = "No space left on device";

    /** Where the device fills up: the n-th operation of a kind, and whether a write there stores part first. */
    private record DiskFull(FileOp op, long nth, boolean partial) {
    }

    private final Path trash;
    private DiskFull diskFullRule;
    private boolean full;
    /** The thread whose write, let through by {@link #before}, is to be short: the device fills up during it. */
    private Thread shortWriter;
    private final Map<FileOp, Rule> rules = new EnumMap<>(FileOp.class);
    private final Map<FileOp, Long> counts = new EnumMap<>(FileOp.class);
    private long shortReadAt = -1;
    private long corruptReadAt = -1;
    private long readsSeen;
    private boolean off;

    private final Map<Path, Long> syncedSize = new HashMap<>();
    private final Map<Path, Set<Path>> newEntries = new HashMap<>();
    private final Map<Path, List<Restore>> restores = new HashMap<>();

    /**
     * @param trash a directory outside the store, where deleted files wait until their deletion is durable
     *
     * @throws IOException if an I/O operation fails
     */
    public FaultInjector(Path trash) throws IOException {
        this.trash = Files.createDirectories(trash);
    }

    // ------------------------------------------------------------------------------------------- failures

    /**
     * Fails the {@code n}-th operation of kind {@code op} from now on (1 = the next one); with {@code fromThenOn},
     * also every later one.
     *
     * @param op         the kind of file operation
     * @param n          which one, 1 for the next
     * @param fromThenOn whether every later one fails too
     * @return this injector
     */
    public synchronized FaultInjector failNth(FileOp op, long n, boolean fromThenOn) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, was " + n);
        }
        rules.put(op, new Rule(counts.getOrDefault(op, 0L) + n, fromThenOn));
        return this;
    }

    /**
     * {@return the {@code n}-th read from now on returns fewer bytes than it read (half, at least one fewer)}
     *
     * @param n which one, 1 for the next
     */
    public synchronized FaultInjector shortReadNth(long n) {
        shortReadAt = readsSeen + n;
        return this;
    }

    /**
     * {@return the {@code n}-th read from now on has one bit of its bytes flipped}
     *
     * @param n which one, 1 for the next
     */
    public synchronized FaultInjector corruptReadNth(long n) {
        corruptReadAt = readsSeen + n;
        return this;
    }

    /**
     * The device fills up at the {@code n}-th operation of kind {@code op} from now on (1 = the next one): that
     * operation fails with an {@link IOException} whose message starts with {@value #NO_SPACE}, and so does every
     * later write, until {@link #freeSpace()}. With {@code partial}, a write there first stores half its bytes
     * (rounded down) and returns that shorter count, as {@code write(2)} does when the space runs out in the middle
     * of it; the write after it fails. Syncs, renames and the other operations go on working once the device is
     * full, unless {@code op} is their kind and they are the n-th.
     *
     * @param op      the kind of file operation
     * @param n       which one, 1 for the next
     * @param partial whether the write there first stores half its bytes
     * @return this injector
     */
    public synchronized FaultInjector diskFullAt(FileOp op, long n, boolean partial) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, was " + n);
        }
        diskFullRule = new DiskFull(op, counts.getOrDefault(op, 0L) + n, partial);
        return this;
    }

    /** Space was freed: writes work again (a {@link #diskFullAt} rule not yet reached is dropped too). */
    public synchronized void freeSpace() {
        diskFullRule = null;
        full = false;
        shortWriter = null;
    }

    /**
     * {@return whether the device is full ({@link #diskFullAt} was reached and {@link #freeSpace} not called since)}
     */
    public synchronized boolean isFull() {
        return full;
    }

    /** Removes every failure rule (the counts go on) and frees the space of a full device. */
    public synchronized void clearFailures() {
        rules.clear();
        shortReadAt = -1;
        corruptReadAt = -1;
        freeSpace();
    }

    /**
     * {@return how many operations of kind {@code op} have been attempted}
     *
     * @param op the kind of file operation
     */
    public synchronized long count(FileOp op) {
        return counts.getOrDefault(op, 0L);
    }

    @Override
    public synchronized void before(FileOp op, Path path) throws IOException {
        if (off) {
            throw new IOException("injected power loss: " + op + " of " + path + " after the power went off");
        }
        long n = counts.merge(op, 1L, Long::sum);
        Rule rule = rules.get(op);
        if (rule != null && (n == rule.nth() || (rule.fromThenOn() && n > rule.nth()))) {
            throw new IOException("injected failure: " + op + " #" + n + " of " + path
                    + (rule.fromThenOn() ? " (failing from #" + rule.nth() + " on)" : ""));
        }
        if (full && op == FileOp.WRITE) {
            throw noSpace(op, n, path);
        }
        DiskFull d = diskFullRule;
        if (d != null && d.op() == op && n == d.nth()) {
            diskFullRule = null;
            full = true;
            if (op == FileOp.WRITE && d.partial()) {
                shortWriter = Thread.currentThread();
            } else {
                throw noSpace(op, n, path);
            }
        }
        if (op == FileOp.WRITE && !syncedSize.containsKey(path) && Files.exists(path) && !isNew(path)) {
            syncedSize.put(path, Files.size(path)); // there before we saw it: durable as it was
        }
    }

    private static IOException noSpace(FileOp op, long n, Path path) {
        return new IOException(NO_SPACE + " (injected: " + op + " #" + n + " of " + path + ")");
    }

    @Override
    public synchronized int writable(Path path, int n) throws IOException {
        if (shortWriter != Thread.currentThread()) {
            return n;
        }
        shortWriter = null;
        if (n / 2 == 0) {
            throw noSpace(FileOp.WRITE, counts.get(FileOp.WRITE), path);
        }
        return n / 2;
    }

    @Override
    public synchronized int afterRead(Path path, ByteBuffer dst, int start, int n) {
        readsSeen++;
        if (readsSeen == corruptReadAt) {
            int at = start + n / 2;
            dst.put(at, (byte) (dst.get(at) ^ 0x10));
        }
        if (readsSeen == shortReadAt) {
            return Math.max(0, Math.min(n - 1, n / 2));
        }
        return n;
    }

    // ----------------------------------------------------------------------------------------- power loss

    /** From now on every operation fails, as if the machine had stopped. */
    public synchronized void powerOff() {
        off = true;
    }

    /**
     * The process died but the machine did not: operations work again and nothing is undone. What was not synced
     * stays unsynced, so a later {@link #crash} still drops it (a process crash, then a power loss). REQUIRES:
     * {@link #powerOff} was called, to stop the store's threads as the process's death would, and none still runs.
     */
    public synchronized void restart() {
        if (!off) {
            throw new IllegalStateException("power off first: the store's threads must have stopped");
        }
        off = false;
    }

    private boolean isNew(Path path) {
        Set<Path> fresh = newEntries.get(path.getParent());
        return fresh != null && fresh.contains(path);
    }

    @Override
    public synchronized void created(Path path) {
        newEntries.computeIfAbsent(path.getParent(), d -> new HashSet<>()).add(path);
        syncedSize.put(path, 0L);
    }

    @Override
    public synchronized void synced(Path path, long size) {
        syncedSize.put(path, size);
    }

    @Override
    public synchronized void deleting(Path path) throws IOException {
        if (isNew(path)) { // its creation was never durable: nothing to bring back
            newEntries.get(path.getParent()).remove(path);
        } else {
            keepForCrash(path);
        }
        syncedSize.remove(path);
    }

    @Override
    public synchronized void renaming(Path from, Path to) throws IOException {
        if (Files.exists(to)) {
            deleting(to);
        }
        long size = syncedSize.getOrDefault(from, Files.size(from));
        if (isNew(from)) {
            newEntries.get(from.getParent()).remove(from);
        } else {
            keepForCrash(from);
        }
        syncedSize.remove(from);
        newEntries.computeIfAbsent(to.getParent(), d -> new HashSet<>()).add(to);
        syncedSize.put(to, size);
    }

    /** Copies the synced part of {@code path} to the trash, to be put back if its directory is not synced. */
    private void keepForCrash(Path path) throws IOException {
        long size = syncedSize.getOrDefault(path, Files.size(path));
        Path copy = trash.resolve(UUID.randomUUID() + "-" + path.getFileName());
        Files.copy(path, copy, StandardCopyOption.COPY_ATTRIBUTES);
        restores.computeIfAbsent(path.getParent(), d -> new ArrayList<>()).add(new Restore(path, copy, size));
    }

    @Override
    public synchronized void directorySynced(Path dir) {
        newEntries.remove(dir);
        List<Restore> done = restores.remove(dir);
        if (done != null) {
            for (Restore r : done) {
                try {
                    Files.deleteIfExists(r.copy());
                } catch (IOException e) {
                    // the trash is scratch space; a leftover copy harms nothing
                }
            }
        }
    }

    /**
     * Rewrites the files to what the device would hold after the power came back (see the class comment).
     * REQUIRES: {@link #powerOff} was called and no thread of the store still runs. With {@code random}, each
     * file keeps a random part of its unsynced tail (torn writes); without, it keeps none. Afterwards the
     * injector forgets everything and powers on.
     *
     * @param random the source of the torn tails, or null for none
     * @return a short account of what was dropped and restored, for the test's log
     * @throws IOException if an I/O operation fails
     */
    public synchronized String crash(Random random) throws IOException {
        if (!off) {
            throw new IllegalStateException("power off first: the store's threads must have stopped");
        }
        int removed = 0;
        int restored = 0;
        long droppedBytes = 0;
        for (Set<Path> fresh : newEntries.values()) {
            for (Path p : fresh) {
                if (Files.deleteIfExists(p)) {
                    removed++;
                }
            }
        }
        for (List<Restore> list : restores.values()) {
            for (int i = list.size() - 1; i >= 0; i--) {
                Restore r = list.get(i);
                Files.copy(r.copy(), r.path(), StandardCopyOption.REPLACE_EXISTING);
                truncate(r.path(), r.size());
                Files.deleteIfExists(r.copy());
                restored++;
            }
        }
        for (Map.Entry<Path, Long> e : syncedSize.entrySet()) {
            Path p = e.getKey();
            if (!Files.exists(p)) {
                continue;
            }
            long size = Files.size(p);
            long keep = e.getValue();
            if (random != null && size > keep) {
                keep += (long) (random.nextDouble() * (size - keep + 1));
            }
            if (size > keep) {
                droppedBytes += size - keep;
                truncate(p, keep);
            }
        }
        newEntries.clear();
        restores.clear();
        syncedSize.clear();
        clearFailures();
        off = false;
        return "crash: " + removed + " unsynced file(s) removed, " + restored + " deleted or replaced file(s) "
                + "restored, " + droppedBytes + " unsynced byte(s) dropped";
    }

    private static void truncate(Path p, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            if (ch.size() > size) {
                ch.truncate(size);
            }
        }
    }
}
