package io.lsmpolicies.lsm.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a data directory, held through a lock file inside it, so that one process (and one opener
 * in it) uses the directory at a time. Used by the store and by the Hyracks peer's index. {@link #close()} releases
 * it.
 */
public final class DirectoryLock implements Closeable {
    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks the directory of {@code lockFile} through that file (created if absent).
     *
     * @param whenHeld the message of the error when another process, or another opener in this one, holds the lock
     * @param lockFile the lock file
     * @return the lock; close it to release
     * @throws IOException if the file cannot be opened, or ({@link LockedException}) with {@code whenHeld} if the lock
     *                     is held
     */
    public static DirectoryLock acquire(Path lockFile, String whenHeld) throws IOException {
        return lock(FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE), false, whenHeld);
    }

    /**
     * A shared lock on the directory of {@code lockFile}, for a reader that writes nothing: it opens the file for
     * reading only (so it works on a read-only directory or a full disk) and never creates it. Any number of
     * shared locks may be held at once, in different processes; an exclusive {@link #acquire} waits for none and
     * fails while one is held, and a shared one fails while an exclusive one is held. If the file does not exist
     * no process has the directory open through {@link #acquire} (which creates it first), and the returned lock
     * holds nothing.
     *
     * @param lockFile the lock file
     * @param whenHeld the message of the error when the lock is held
     * @return the lock; close it to release
     * @throws IOException with {@code whenHeld} if an exclusive lock is held, or any lock by this process (Java
     *                     lets one process hold one lock on a file: two shared locks in one process conflict)
     */
    public static DirectoryLock acquireShared(Path lockFile, String whenHeld) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.READ);
        } catch (java.nio.file.NoSuchFileException e) {
            return new DirectoryLock(null, null);
        }
        return lock(channel, true, whenHeld);
    }

    /** Takes the whole-file lock on {@code channel}, or closes it and fails with {@code whenHeld}. */
    private static DirectoryLock lock(FileChannel channel, boolean shared, String whenHeld) throws IOException {
        FileLock lock;
        try {
            lock = channel.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new LockedException(whenHeld);
        }
        return new DirectoryLock(channel, lock);
    }

    /** The lock is held: by another process, or (Java locks are per process) by this one. */
    public static final class LockedException extends IOException {
        private static final long serialVersionUID = 1L;

        LockedException(String message) {
            super(message);
        }
    }

    /** Releases the lock and closes its file. */
    @Override
    public void close() throws IOException {
        if (channel == null) {
            return;
        }
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
