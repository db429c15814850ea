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
     * @throws IOException if the file cannot be opened, or with {@code whenHeld} if the lock is held
     */
    public static DirectoryLock acquire(Path lockFile, String whenHeld) throws IOException {
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new IOException(whenHeld);
        }
        return new DirectoryLock(channel, lock);
    }

    /** Releases the lock and closes its file. */
    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
