package io.lsmpolicies.lsm.log;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends records to a new log file in {@link LogFormat}. Records are buffered in memory until
 * {@link #flush()} (handed to the OS) or {@link #sync()} (forced to the device). Not thread-safe: the WAL and
 * the manifest serialise their appends.
 */
public final class LogWriter implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer;
    private final int maxRecordBytes;
    private long position;

    private LogWriter(Path path, FileChannel channel, int bufferBytes, int maxRecordBytes) {
        this.path = path;
        this.channel = channel;
        this.buffer = ByteBuffer.allocate(bufferBytes);
        this.maxRecordBytes = maxRecordBytes;
    }

    /**
     * Creates {@code path} (which must not exist), writes the header and forces it to the device.
     *
     * @param maxRecordBytes largest payload accepted; readers must be given the same bound
     */
    public static LogWriter create(Path path, LogKind kind, int maxRecordBytes) throws IOException {
        return create(FileLayer.plain(), path, kind, maxRecordBytes);
    }

    /** As {@link #create(Path, LogKind, int)}, with I/O through {@code files}, charged to the log's kind. */
    public static LogWriter create(FileLayer files, Path path, LogKind kind, int maxRecordBytes) throws IOException {
        if (maxRecordBytes < 0) {
            throw new IllegalArgumentException("maxRecordBytes must be >= 0, was " + maxRecordBytes);
        }
        FileChannel channel = files.open(path, cause(kind), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        LogWriter w = new LogWriter(path, channel, 64 * 1024, maxRecordBytes);
        try {
            w.writeFully(LogFormat.header(kind));
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            w.closeQuietly(e);
            throw e;
        }
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
     */
    public long append(byte[] payload) throws IOException {
        if (payload.length > maxRecordBytes) {
            throw new IllegalArgumentException("log record of " + payload.length + " bytes exceeds the maximum of "
                    + maxRecordBytes + " bytes (" + path + ")");
        }
        ByteBuffer head = ByteBuffer.allocate(LogFormat.RECORD_HEADER_BYTES);
        head.putInt(payload.length).putInt(LogFormat.lengthCrc(payload.length))
                .putInt(LogFormat.crc(payload, 0, payload.length)).flip();
        put(head);
        put(ByteBuffer.wrap(payload));
        return position + buffer.position();
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

    /** Hands buffered records to the operating system (they survive a process crash, not a power loss). */
    public void flush() throws IOException {
        buffer.flip();
        writeFully(buffer);
        buffer.clear();
    }

    /** Flushes and forces the file's data to the device (survives a power loss once this returns). */
    public void sync() throws IOException {
        flush();
        channel.force(false);
    }

    /** Bytes in the file including buffered ones. */
    public long size() {
        return position + buffer.position();
    }

    public Path path() {
        return path;
    }

    private void writeFully(ByteBuffer src) throws IOException {
        while (src.hasRemaining()) {
            position += channel.write(src, position);
        }
    }

    /** Flushes buffered records and closes the file (without forcing: call {@link #sync()} first for that). */
    @Override
    public void close() throws IOException {
        try {
            flush();
        } finally {
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
