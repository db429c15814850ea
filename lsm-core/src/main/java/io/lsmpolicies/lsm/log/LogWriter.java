package io.lsmpolicies.lsm.log;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import io.lsmpolicies.lsm.io.MappedAppends;
import io.lsmpolicies.lsm.sstable.BackgroundSync;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Future;
import java.util.zip.CRC32C;

/**
 * Appends records to a new log file in {@link LogFormat}. Records are buffered in memory until
 * {@link #flush()} (handed to the OS) or {@link #sync()} (forced to the device). Not thread-safe: the WAL and
 * the manifest serialise their appends.
 *
 * <p>Failures: the first I/O failure (a short write, a full device, a failed sync) sticks. The writer cuts the
 * file back to where it ended when the last {@link #flush()} or {@link #sync()} returned (a record boundary:
 * nothing of the failed call's records stays, however much of them reached the file), and never writes to the
 * file again: every later {@link #append}, {@link #flush()} and {@link #sync()} throws an {@link IOException}
 * whose message and cause are that first failure, and {@link #close()} only releases the file. Writing the
 * buffer again after a short write would put a record's first bytes twice into the log, damage that no reader
 * can take for a torn tail.
 */
public final class LogWriter implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer;
    private final int maxRecordBytes;
    /** Appends through a mapping after the header (see {@code create} with {@code mapped}); null: writes. */
    private MappedAppends appends;
    /** The checksum of the record being appended (one writer thread at a time). */
    private final CRC32C crc = new CRC32C();
    private long position;
    /** The file's size when the last flush or sync returned: what a failure cuts the file back to. */
    private long flushedEnd;
    private IOException failure;

    private LogWriter(Path path, FileChannel channel, int bufferBytes, int maxRecordBytes) {
        this.path = path;
        this.channel = channel;
        this.buffer = ByteBuffer.allocate(bufferBytes);
        this.maxRecordBytes = maxRecordBytes;
    }

    /**
     * Creates {@code path} (which must not exist), writes the header and forces it to the device. If that fails,
     * the file is deleted again (it holds no record).
     *
     * @param maxRecordBytes largest payload accepted; readers must be given the same bound
     */
    public static LogWriter create(Path path, LogKind kind, int maxRecordBytes) throws IOException {
        return create(FileLayer.plain(), path, kind, maxRecordBytes);
    }

    /** As {@link #create(Path, LogKind, int)}, with I/O through {@code files}, charged to the log's kind. */
    public static LogWriter create(FileLayer files, Path path, LogKind kind, int maxRecordBytes) throws IOException {
        return create(files, path, kind, maxRecordBytes, false);
    }

    /**
     * As {@link #create(FileLayer, Path, LogKind, int)}; with {@code mapped}, the records after the header reach
     * the file through a memory mapping ({@link MappedAppends}) instead of a {@code write(2)} per {@link #flush()}:
     * a copy into the page cache, which a process crash does not lose either. The file then ends in up to
     * {@value MappedAppends#STEP_BYTES} zero bytes claimed ahead of the records until {@link #close()} cuts them
     * (a crash leaves them; {@link LogReader} takes them for the end of the log). For a log flushed often and
     * forced seldom: each {@link #sync()} also writes the claimed zeros' pages once.
     *
     * @param files          the file layer
     * @param path           the new file
     * @param kind           the log's kind
     * @param maxRecordBytes largest payload accepted; readers must be given the same bound
     * @param mapped         whether records go through a memory mapping
     * @return the writer
     * @throws IOException if the file cannot be created, or its header written and forced
     */
    public static LogWriter create(FileLayer files, Path path, LogKind kind, int maxRecordBytes, boolean mapped)
            throws IOException {
        if (maxRecordBytes < 0) {
            throw new IllegalArgumentException("maxRecordBytes must be >= 0, was " + maxRecordBytes);
        }
        FileChannel channel = mapped // a mapping for writing needs a channel that reads too
                ? files.open(path, cause(kind), StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                        StandardOpenOption.WRITE)
                : files.open(path, cause(kind), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        LogWriter w = new LogWriter(path, channel, 64 * 1024, maxRecordBytes);
        try {
            w.writeFully(LogFormat.header(kind));
            channel.force(true);
            if (mapped) {
                w.appends = files.mapAppends(channel, w.position);
            }
        } catch (IOException | RuntimeException e) {
            w.closeQuietly(e);
            try {
                files.deleteIfExists(path);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        w.flushedEnd = w.position;
        return w;
    }

    static IoCause cause(LogKind kind) {
        return kind == LogKind.WAL ? IoCause.WAL : IoCause.MANIFEST;
    }

    /**
     * Appends one record (buffered).
     *
     * @return the file offset just past the record: the log holds it once flushed up to there
     * @throws IllegalArgumentException if the payload exceeds the writer's maximum, naming both
     * @throws IOException              if a write failed, now or earlier (see the class comment)
     */
    public long append(byte[] payload) throws IOException {
        return append(LogPayload.of(payload));
    }

    /**
     * Appends one record (buffered), encoding {@code payload} where it is buffered when it fits the buffer.
     *
     * @param payload the record's payload
     * @return the file offset just past the record: the log holds it once flushed up to there
     * @throws IllegalArgumentException if the payload exceeds the writer's maximum, naming both
     * @throws IOException              if a write failed, now or earlier (see the class comment)
     */
    public long append(LogPayload payload) throws IOException {
        int length = payload.encodedSize();
        if (length > maxRecordBytes) {
            throw new IllegalArgumentException("log record of " + length + " bytes exceeds the maximum of "
                    + maxRecordBytes + " bytes (" + path + ")");
        }
        checkUsable();
        try {
            if (LogFormat.RECORD_HEADER_BYTES + length > buffer.capacity()) {
                byte[] bytes = new byte[length];
                payload.encodeTo(ByteBuffer.wrap(bytes));
                put(recordHeader(length, LogFormat.crc(bytes, 0, length)));
                put(ByteBuffer.wrap(bytes));
            } else {
                if (buffer.remaining() < LogFormat.RECORD_HEADER_BYTES + length) {
                    flush();
                }
                int start = buffer.position();
                int body = start + LogFormat.RECORD_HEADER_BYTES;
                buffer.position(body);
                try {
                    payload.encodeTo(buffer);
                } catch (RuntimeException | Error e) {
                    buffer.position(start);
                    throw e;
                }
                int put = buffer.position() - body;
                if (put != length) {
                    buffer.position(start);
                    throw new IllegalStateException("a log payload put " + put + " bytes, not the " + length
                            + " it announced (" + path + ")");
                }
                crc.reset();
                crc.update(buffer.array(), body, length);
                buffer.putInt(start, length).putInt(start + 4, LogFormat.lengthCrc(length))
                        .putInt(start + 8, (int) crc.getValue());
            }
        } catch (IOException e) {
            throw failed(e);
        }
        return position + buffer.position();
    }

    private static ByteBuffer recordHeader(int length, int crc) {
        return ByteBuffer.allocate(LogFormat.RECORD_HEADER_BYTES).putInt(length).putInt(LogFormat.lengthCrc(length))
                .putInt(crc).flip();
    }

    private void put(ByteBuffer src) throws IOException {
        while (src.hasRemaining()) {
            if (!buffer.hasRemaining()) {
                flush();
            }
            if (src.remaining() > buffer.capacity() && buffer.position() == 0) {
                writeFully(src);
                return;
            }
            int n = Math.min(src.remaining(), buffer.remaining());
            ByteBuffer slice = src.slice().limit(n);
            buffer.put(slice);
            src.position(src.position() + n);
        }
    }

    /**
     * Hands buffered records to the operating system (they survive a process crash, not a power loss).
     *
     * @throws IOException if a write failed, now or earlier (see the class comment)
     */
    public void flush() throws IOException {
        checkUsable();
        try {
            buffer.flip();
            writeFully(buffer);
            buffer.clear();
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
        flushedEnd = position;
    }

    /**
     * Flushes and forces the file's data to the device (survives a power loss once this returns). If the force
     * fails, the records this call flushed are cut off too: they were not made durable.
     *
     * @throws IOException if a write or the force failed, now or earlier (see the class comment)
     */
    public void sync() throws IOException {
        long before = flushedEnd;
        flush();
        try {
            if (appends != null) {
                appends.force();
            } else {
                channel.force(false);
            }
        } catch (IOException | RuntimeException e) {
            flushedEnd = before;
            throw failed(e);
        }
    }

    /**
     * Starts forcing what was handed to the operating system so far to the device, on a {@link BackgroundSync}
     * thread, while appends go on; nothing else changes (a failure is the caller's to act on: see
     * {@link WalWriter}).
     *
     * @return the force
     */
    public Future<?> startBackgroundSync() {
        MappedAppends a = appends;
        return a != null ? BackgroundSync.start(a::force) : BackgroundSync.start(channel);
    }

    /**
     * Records {@code e} as the writer's first failure, cuts the file back to {@link #flushedEnd}, and returns what
     * the caller throws: {@code e} itself the first time.
     */
    private IOException failed(Exception e) {
        if (failure != null) {
            return usedAfterFailure();
        }
        failure = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        buffer.clear();
        try {
            if (appends != null) {
                appends.cutTo(flushedEnd);
            } else {
                channel.truncate(flushedEnd);
            }
            position = flushedEnd;
        } catch (IOException | RuntimeException t) {
            failure.addSuppressed(t);
        }
        return failure;
    }

    private void checkUsable() throws IOException {
        if (failure != null) {
            throw usedAfterFailure();
        }
    }

    private IOException usedAfterFailure() {
        return new IOException("log " + path + " failed earlier: " + failure.getMessage()
                + "; nothing more is written to it", failure);
    }

    /** Bytes in the file including buffered ones. */
    public long size() {
        return position + buffer.position();
    }

    public Path path() {
        return path;
    }

    private void writeFully(ByteBuffer src) throws IOException {
        if (appends != null) {
            while (src.hasRemaining()) {
                int n = appends.append(src);
                if (n <= 0) {
                    throw new IOException("no byte of " + src.remaining() + " appended to " + path);
                }
                position += n;
            }
            return;
        }
        while (src.hasRemaining()) {
            position += channel.write(src, position);
        }
    }

    /**
     * Flushes buffered records and closes the file (without forcing: call {@link #sync()} first for that). A mapped
     * log is first cut at its last record and that cut forced, so that the file on disk ends there. After a failure it
     * only closes the file: nothing is written.
     */
    @Override
    public void close() throws IOException {
        if (!channel.isOpen()) {
            return;
        }
        try {
            if (failure == null) {
                flush();
                if (appends != null) {
                    appends.trim();
                }
            }
        } finally {
            if (appends != null) {
                appends.close();
            }
            channel.close();
        }
    }

    private void closeQuietly(Exception cause) {
        try {
            channel.close();
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}
