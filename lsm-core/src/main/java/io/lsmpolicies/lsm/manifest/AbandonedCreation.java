package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.events.EventLog;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.log.LogKind;
import io.lsmpolicies.lsm.log.LogReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * What a directory without CURRENT may hold when a store is about to be created in it: nothing, or what a
 * creation that crashed before CURRENT was written can have left. {@link Manifest#create} on an empty directory
 * writes exactly two files before CURRENT exists: the first manifest, {@code MANIFEST-000001}, whose one record is
 * the snapshot of the empty set, and {@code CURRENT.tmp}, naming it. The first write-ahead-log segment is created
 * only after CURRENT is durable (the directory is synced when CURRENT is renamed into place), and the
 * {@link OptionsFile} after that, so a crashed creation leaves no segment, no table, no other manifest and no
 * {@code OPTIONS} (nor {@code OPTIONS.tmp}).
 *
 * <p>Anything else of the store's (a table, a segment, another manifest, a first manifest holding more than the
 * empty snapshot) is a store whose CURRENT was lost, and starting a new store over it would lose its data: it is
 * refused, naming the files, and {@code bin/lsm repair} ({@code StoreRepair}) rebuilds the manifest from them.
 */
public final class AbandonedCreation {
    private static final long FIRST_MANIFEST = ComponentSet.empty().nextFileNumber();
    /** Where {@code StoreRepair} moves the files it does not use (its {@code SET_ASIDE}). */
    private static final String SET_ASIDE = "set-aside";

    private AbandonedCreation() {
    }

    /**
     * The files of {@code dir} that a crashed creation left and a new creation may delete (none in a new
     * directory). {@code ignored} names files that belong to the opener (the lock file).
     *
     * @param files   the file layer every file operation goes through
     * @param dir     the directory
     * @param ignored names of files to leave alone
     * @return the files
     * @throws CorruptionException ({@code MISSING_FILE}, naming CURRENT) if {@code dir} holds a store's data but
     *                             no CURRENT: the message lists what is there and says how to repair it
     * @throws IOException         if {@code dir} holds files that are not a store's, or a subdirectory
     * @throws IllegalStateException if {@code dir} holds a CURRENT file (REQUIRES: it holds none)
     */
    public static List<Path> leftovers(FileLayer files, Path dir, String ignored) throws IOException {
        if (files.exists(dir.resolve(StoreFiles.CURRENT))) {
            throw new IllegalStateException(dir + " holds a store (a CURRENT file)");
        }
        List<Path> deletable = new ArrayList<>();
        List<String> storeData = new ArrayList<>();
        for (Path p : files.list(dir)) {
            String name = p.getFileName().toString();
            if (name.equals(ignored) || EventLog.isLogFile(name)) { // the lock; a diagnostic log, not data
                continue;
            }
            if (name.equals(SET_ASIDE) && Files.isDirectory(p)) { // a repair that did not finish
                storeData.add(name + "/");
                continue;
            }
            boolean storeName = StoreFiles.manifestNumber(name).isPresent() || StoreFiles.tableNumber(name).isPresent()
                    || StoreFiles.walNumber(name).isPresent() || name.endsWith(StoreFiles.TEMP_SUFFIX)
                    || name.equals(OptionsFile.NAME);
            if (!storeName || !Files.isRegularFile(p)) {
                throw new IOException("the directory " + dir + " holds " + name + " but no store (no "
                        + StoreFiles.CURRENT + " file); refusing to create a store among other data");
            }
            if (creationLeftover(files, p, name)) {
                deletable.add(p);
            } else {
                storeData.add(name + " (" + Files.size(p) + " bytes)");
            }
        }
        if (!storeData.isEmpty()) {
            storeData.sort(null);
            throw new CorruptionException(dir.resolve(StoreFiles.CURRENT), 0, Code.MISSING_FILE, "the directory "
                    + dir + " holds a store's files but no " + StoreFiles.CURRENT + " file (the pointer to the live "
                    + "manifest): " + String.join(", ", storeData) + ". A store that was never created cannot have "
                    + "written them, so opening refuses to start a new store over them and deletes nothing. Run "
                    + "'bin/lsm repair --dir " + dir + "' to rebuild the manifest from the tables and logs that are "
                    + "there (it keeps every file)");
        }
        return deletable;
    }

    /** Whether {@code p} is one of the two files a crashed creation writes, holding no more than it writes. */
    private static boolean creationLeftover(FileLayer files, Path p, String name) throws IOException {
        String firstManifest = StoreFiles.manifestName(FIRST_MANIFEST);
        if (name.equals(StoreFiles.CURRENT + StoreFiles.TEMP_SUFFIX)) {
            return isPrefixOf(files, p, (firstManifest + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        if (!name.equals(firstManifest)) {
            return false;
        }
        LogReader reader;
        try {
            reader = LogReader.open(files, p, LogKind.MANIFEST, Manifest.MAX_RECORD_BYTES, true);
        } catch (CorruptionException e) {
            return e.code() == Code.TRUNCATED_HEADER; // the crash came before the header was written
        }
        try (reader) {
            int records = 0;
            ComponentSet set = ComponentSet.empty();
            for (byte[] payload = reader.next(); payload != null; payload = reader.next()) {
                if (++records > 1) {
                    return false;
                }
                set = set.apply(ManifestEdit.decode(payload, p, reader.recordOffset()));
            }
            return set.tableCount() == 0 && set.lastSequence() == 0 && set.walNumber() == 0
                    && set.policy().isEmpty() && set.nextFileNumber() <= FIRST_MANIFEST + 1;
        } catch (CorruptionException | IllegalStateException e) {
            return false; // not what a creation writes: kept, and reported as the store's
        }
    }

    private static boolean isPrefixOf(FileLayer files, Path p, byte[] full) throws IOException {
        long size = files.size(p);
        if (size > full.length) {
            return false;
        }
        ByteBuffer b = ByteBuffer.allocate((int) size);
        try (FileChannel ch = files.open(p, IoCause.MANIFEST, StandardOpenOption.READ)) {
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // read it all
            }
        }
        for (int i = 0; i < b.position(); i++) {
            if (b.get(i) != full[i]) {
                return false;
            }
        }
        return true;
    }
}
