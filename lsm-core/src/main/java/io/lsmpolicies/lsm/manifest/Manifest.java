package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.log.LogKind;
import io.lsmpolicies.lsm.log.LogReader;
import io.lsmpolicies.lsm.log.LogTail;
import io.lsmpolicies.lsm.log.LogWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The manifest: an append-only log of {@link ManifestEdit}s (one checksummed {@link LogKind#MANIFEST} record
 * each) whose replay rebuilds the {@link ComponentSet}, plus the CURRENT file that names the live manifest.
 *
 * <p>Contracts:
 * <ul>
 *   <li>The first record of every manifest is a snapshot of the whole set (the edit that rebuilds it from an
 *       empty set), synced before CURRENT points at the file; so a manifest that CURRENT names is never empty.</li>
 *   <li>{@link #append} is durable when it returns (the record is forced to the device), and
 *       {@link #current()} then includes the edit. An edit that fails {@link ManifestEdit#applyTo} is refused
 *       before any I/O and changes nothing.</li>
 *   <li>CURRENT moves by write-then-rename ({@link StoreFiles#writeCurrent}); a crash leaves it naming the old
 *       manifest or the new one. A manifest file is deleted only after CURRENT has moved away from it.</li>
 *   <li>File numbers come from one counter: {@link #newFileNumber()} for tables, and the manifest's own
 *       number when it rolls. Every append logs a {@code nextFileNumber} above every number handed out.</li>
 *   <li>After an I/O failure the manifest refuses every further append (the state on disk is unknown); the
 *       store must be recovered. {@link #current()} keeps the last durable set.</li>
 * </ul>
 * Thread-safe: appends are serialised. REQUIRES: one {@code Manifest} per directory at a time (the caller
 * locks the directory).
 */
public final class Manifest implements Closeable {
    /** Largest record (a snapshot of every table); readers use the same bound. */
    static final int MAX_RECORD_BYTES = 256 << 20;

    private final Path dir;
    private final ManifestOptions options;
    private final FileLayer files;
    private LogWriter writer;
    /** The manifest file a read-only manifest was read from; null for a writable one. */
    private Path readOnlyPath;
    private long manifestNumber;
    private volatile ComponentSet current;
    private long nextFileNumber;
    private IOException failure;
    private boolean closed;

    private Manifest(Path dir, ManifestOptions options, FileLayer files, ComponentSet set, long nextFileNumber) {
        this.dir = dir;
        this.options = options;
        this.files = files;
        this.current = set;
        this.nextFileNumber = Math.max(nextFileNumber, set.nextFileNumber());
    }

    /**
     * {@return {@link #create(Path, ComponentSet, ManifestOptions)} with {@link ManifestOptions#DEFAULTS}}
     *
     * @param dir     the store directory
     * @param initial the store's first component set
     * @throws IOException if an I/O operation fails
     */
    public static Manifest create(Path dir, ComponentSet initial) throws IOException {
        return create(dir, initial, ManifestOptions.DEFAULTS);
    }

    /**
     * Starts a new store in {@code dir} (which must exist): writes {@code MANIFEST-<n>} with
     * {@code n = initial.nextFileNumber()}, whose one record is a snapshot of {@code initial} with
     * {@code nextFileNumber} bumped to {@code n + 1}; syncs it; points CURRENT at it.
     *
     * @param dir     the store directory
     * @param initial the store's first component set
     * @param options the store's options
     * @return the manifest
     * @throws FileAlreadyExistsException if {@code dir} already holds a store (a CURRENT file)
     */
    public static Manifest create(Path dir, ComponentSet initial, ManifestOptions options) throws IOException {
        return create(dir, initial, options, FileLayer.plain());
    }

    /**
     * As {@link #create(Path, ComponentSet, ManifestOptions)}, with all I/O through {@code files}.
     *
     * @param dir     the store directory
     * @param initial the store's first component set
     * @param options the store's options
     * @param files   the file layer every file operation goes through
     * @return the manifest
     * @throws IOException if an I/O operation fails
     */
    public static Manifest create(Path dir, ComponentSet initial, ManifestOptions options, FileLayer files)
            throws IOException {
        Path currentFile = dir.resolve(StoreFiles.CURRENT);
        if (files.exists(currentFile)) {
            throw new FileAlreadyExistsException(currentFile.toString(), null,
                    "the directory " + dir + " already holds a store");
        }
        Manifest m = new Manifest(dir, options, files, initial, initial.nextFileNumber());
        m.startManifest(initial);
        return m;
    }

    /**
     * Continues a recovered store: writes a new manifest holding a snapshot of {@code recovered.set()} (so a
     * torn tail of the old one is left behind), points CURRENT at it, then deletes the old manifest. Numbers
     * are handed out from {@link Recovered#nextFreeFileNumber()}.
     *
     * @param recovered what {@link #recover} read
     * @param options   the store's options
     * @return the manifest
     * @throws IOException if an I/O operation fails
     */
    public static Manifest reopen(Recovered recovered, ManifestOptions options) throws IOException {
        return reopen(recovered, options, FileLayer.plain());
    }

    /**
     * As {@link #reopen(Recovered, ManifestOptions)}, with all I/O through {@code files}.
     *
     * @param recovered what {@link #recover} read
     * @param options   the store's options
     * @param files     the file layer every file operation goes through
     * @return the manifest
     * @throws IOException if an I/O operation fails
     */
    public static Manifest reopen(Recovered recovered, ManifestOptions options, FileLayer files) throws IOException {
        Manifest m = new Manifest(recovered.directory(), options, files, recovered.set(),
                recovered.nextFreeFileNumber());
        m.startManifest(recovered.set());
        deleteQuietly(files, recovered.manifest());
        return m;
    }

    /**
     * A manifest over {@code recovered} that writes nothing: {@link #current()} is the recovered set and every
     * {@link #append} or {@link #newFileNumber} is refused. For a store opened read-only.
     *
     * @param recovered what {@link #recover} read
     * @return the manifest
     */
    public static Manifest readOnly(Recovered recovered) {
        Manifest m = new Manifest(recovered.directory(), ManifestOptions.DEFAULTS, FileLayer.plain(), recovered.set(),
                recovered.nextFreeFileNumber());
        m.readOnlyPath = recovered.manifest();
        return m;
    }

    /**
     * Reads the store in {@code dir}: the manifest CURRENT names, replayed record by record (a torn final
     * record is skipped), and the files the resulting set does not account for.
     *
     * @param dir the store directory
     * @return what was read
     * @throws NoSuchFileException if {@code dir} has no CURRENT: it holds no store
     * @throws CorruptionException if CURRENT is malformed ({@code BAD_MAGIC}) or names a missing file
     *                             ({@code MISSING_FILE}); if a record other than the last is damaged (the log's
     *                             codes); if a record does not decode ({@link ManifestEdit#decode}) or does not
     *                             apply to the set before it ({@code INCONSISTENT_RECORD}); or if the manifest
     *                             holds no intact record at all; or ({@code CHECKSUM_MISMATCH}) if the final record
     *                             is complete but fails its checksum (a process crash leaves a short final
     *                             record, which is skipped; a whole one was damaged after it was written, and
     *                             skipping it could undo an edit the store acted on). Each names the file and the
     *                             record's offset.
     */
    public static Recovered recover(Path dir) throws IOException {
        return recover(dir, FileLayer.plain());
    }

    /**
     * As {@link #recover(Path)}, reading through {@code files}.
     *
     * @param dir   the store directory
     * @param files the file layer every file operation goes through
     * @return what was read
     * @throws IOException if an I/O operation fails
     */
    public static Recovered recover(Path dir, FileLayer files) throws IOException {
        String name = StoreFiles.readCurrent(files, dir);
        Path path = dir.resolve(name);
        ComponentSet set = ComponentSet.empty();
        int records = 0;
        LogTail tail;
        LogReader reader;
        try {
            reader = LogReader.open(files, path, LogKind.MANIFEST, MAX_RECORD_BYTES, true);
        } catch (NoSuchFileException e) {
            throw new CorruptionException(dir.resolve(StoreFiles.CURRENT), 0, Code.MISSING_FILE,
                    "CURRENT names " + name + ", which does not exist");
        }
        try (reader) {
            for (byte[] payload = reader.next(); payload != null; payload = reader.next()) {
                long offset = reader.recordOffset();
                ManifestEdit edit = ManifestEdit.decode(payload, path, offset);
                try {
                    set = set.apply(edit);
                } catch (IllegalStateException e) {
                    throw new CorruptionException(path, offset, Code.INCONSISTENT_RECORD, e.getMessage());
                }
                records++;
            }
            tail = reader.tail();
        }
        if (tail.wholeRecord()) {
            // Unlike a WAL, whose torn final write loses at most that write, a skipped manifest edit loses what
            // was done after it was synced: a flush's WAL segment deleted (its table would become an orphan and
            // be deleted too), a merge's inputs deleted. A process crash leaves a final record short, not whole;
            // a device that tears a write on power loss could leave it whole, and then the open is refused too.
            throw new CorruptionException(path, tail.validEnd(), Code.CHECKSUM_MISMATCH, "the final record is "
                    + "complete but fails its checksum: damaged after it was written, so it cannot be skipped as "
                    + "a torn write");
        }
        if (records == 0) {
            throw new CorruptionException(path, tail.validEnd(), tail.torn() ? Code.TORN_TAIL
                    : Code.INCONSISTENT_RECORD, "the manifest holds no intact snapshot record (" + tail.detail() + ")");
        }
        return Recovered.survey(files, dir, path, set, tail);
    }

    /**
     * Logs {@code edit} and applies it. If the manifest file has reached {@link ManifestOptions#rollBytes()},
     * the edit goes into a new manifest's snapshot instead (see the class comment). The logged edit carries a
     * {@code nextFileNumber} of at least every number {@link #newFileNumber()} has handed out.
     *
     * <p>REQUIRES: the numbers of added tables came from {@link #newFileNumber()} (a manifest takes its own
     * number from the same counter when it rolls; the live manifest's number is checked).
     *
     * @param edit the edit
     * @throws IllegalStateException    if the edit does not apply to {@link #current()} or adds the live
     *                                  manifest's number (nothing is written), or the manifest is closed
     * @throws IllegalArgumentException if the encoded edit exceeds the record limit (nothing is written)
     * @throws IOException              if writing or syncing failed; the manifest then refuses further appends
     */
    public synchronized void append(ManifestEdit edit) throws IOException {
        checkUsable();
        ManifestEdit logged = edit.nextFileNumber().orElse(0) >= nextFileNumber ? edit
                : edit.withNextFileNumber(nextFileNumber);
        for (TableRecord t : logged.added()) {
            if (t.fileNumber() == manifestNumber) {
                throw new IllegalStateException("edit adds file " + t.fileNumber() + ", the live manifest's own "
                        + "number: table numbers must come from newFileNumber()");
            }
        }
        ComponentSet next = current.apply(logged);
        boolean roll = writer.size() >= options.rollBytes();
        byte[] payload = roll ? null : logged.encode();
        if (payload != null && payload.length > MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("manifest edit of " + payload.length + " bytes exceeds the record "
                    + "limit of " + MAX_RECORD_BYTES + " bytes");
        }
        try {
            if (roll) {
                startManifest(next);
            } else {
                writer.append(payload);
                writer.sync();
                current = next;
            }
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io ? io : new IOException(e);
            throw e;
        }
        nextFileNumber = Math.max(nextFileNumber, current.nextFileNumber());
    }

    /**
     * Writes a new manifest holding a snapshot of {@code base} (with {@code nextFileNumber} past the manifest's
     * own number), syncs it, swings CURRENT to it, then closes and deletes the previous manifest. If writing the
     * new manifest or {@code CURRENT.tmp} fails, both are deleted (CURRENT cannot name the new file yet), so a full
     * disk leaves no empty manifest behind; if the rename or the directory sync fails, the new file is left in
     * place: CURRENT may already name it, and otherwise recovery lists it as an orphan. Either error names the
     * file it failed on and keeps the cause. REQUIRES: the monitor is held, or the object is not yet published.
     */
    private void startManifest(ComponentSet base) throws IOException {
        nextFileNumber = Math.max(nextFileNumber, base.nextFileNumber());
        long number = nextFileNumber++;
        ComponentSet snapshotSet = base.apply(ManifestEdit.EMPTY.withNextFileNumber(nextFileNumber));
        byte[] snapshot = snapshotSet.snapshot().encode();
        if (snapshot.length > MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("manifest snapshot of " + snapshot.length + " bytes exceeds the "
                    + "record limit of " + MAX_RECORD_BYTES + " bytes");
        }
        String name = StoreFiles.manifestName(number);
        Path path = dir.resolve(name);
        LogWriter next = null;
        try {
            next = LogWriter.create(files, path, LogKind.MANIFEST, MAX_RECORD_BYTES);
            next.append(snapshot);
            next.sync();
            StoreFiles.writeCurrentTemp(files, dir, name);
        } catch (FileAlreadyExistsException e) {
            throw e; // not ours to delete (the numbers are fresh, so this is not a store's own file)
        } catch (IOException | RuntimeException e) {
            if (next != null) {
                try {
                    next.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            deleteQuietly(files, path);
            deleteQuietly(files, dir.resolve(StoreFiles.CURRENT + StoreFiles.TEMP_SUFFIX));
            if (e instanceof IOException io) {
                throw new IOException("cannot write the manifest " + path + " (removed): " + io.getMessage(), io);
            }
            throw e;
        }
        try {
            StoreFiles.installCurrent(files, dir);
        } catch (IOException | RuntimeException e) {
            try {
                next.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof IOException io) {
                throw new IOException("cannot point " + dir.resolve(StoreFiles.CURRENT) + " at the manifest " + name
                        + ": " + io.getMessage(), io);
            }
            throw e;
        }
        LogWriter previous = writer;
        writer = next;
        manifestNumber = number;
        current = snapshotSet;
        if (previous != null) {
            try {
                previous.close();
            } catch (IOException e) {
                // Every record of the previous manifest was synced and CURRENT no longer names it: the edit is
                // durable, so a failed close must not be reported as a failed append.
            }
            deleteQuietly(files, previous.path());
        }
    }

    /** Deletes a manifest CURRENT no longer names; if that fails, the next recovery lists it as an orphan. */
    private static void deleteQuietly(FileLayer files, Path path) {
        try {
            files.deleteIfExists(path);
        } catch (IOException e) {
            // Left in place on purpose: it is harmless, and Recovered.orphans() reports it.
        }
    }

    /**
     * A fresh file number, for a table about to be written. It is durable once an {@link #append} returns
     * (every append logs the counter). After a crash before that, recovery lists any file with the number as
     * an orphan and {@link Recovered#nextFreeFileNumber()} is above it, so the number is never handed out
     * while such a file exists.
     *
     * @return the file number
     */
    public synchronized long newFileNumber() {
        if (closed) {
            throw new IllegalStateException("the manifest of " + dir + " is closed");
        }
        if (readOnlyPath != null) {
            throw new IllegalStateException("the manifest of " + dir + " was opened read-only");
        }
        return nextFileNumber++;
    }

    /** {@return the component set after every append that has returned} */
    public ComponentSet current() {
        return current;
    }

    /** {@return the live manifest file (changes when the manifest rolls)} */
    public synchronized Path path() {
        return readOnlyPath != null ? readOnlyPath : writer.path();
    }

    private void checkUsable() throws IOException {
        if (closed) {
            throw new IllegalStateException("the manifest of " + dir + " is closed");
        }
        if (readOnlyPath != null) {
            throw new IllegalStateException("the manifest of " + dir + " was opened read-only");
        }
        if (failure != null) {
            throw new IOException("the manifest of " + dir + " failed earlier (" + failure.getMessage()
                    + ") and accepts no more edits; recover the store", failure);
        }
    }

    /** Closes the manifest file; every append was already synced. Further appends are refused. */
    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            if (writer != null) {
                writer.close();
            }
        }
    }
}
