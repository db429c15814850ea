package io.lsmpolicies.lsm.log;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.FileLayer;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads the records of a log written by {@link LogWriter}, in order, checking every checksum.
 *
 * <p>How the log may end (the recovery contract):
 * <ul>
 *   <li>Clean: the last record ends at the end of the file.</li>
 *   <li>Torn, tolerated when {@code tolerateTornTail} (a crash during the final write): a record header or a
 *       record with an intact length that runs past the end of the file; a zero-filled remainder, wherever it
 *       starts: at a record boundary, or inside a record that fails a checksum (a power loss on a file system
 *       that shows blocks never written as zeros leaves the file's new size with zeros from some byte of the
 *       last write on); or a payload checksum mismatch in a record that ends exactly at the end of the file
 *       and whose bytes do not run into such zeros. The reader stops before it and {@link #tail()} says where,
 *       and whether it was that last case ({@link LogTail#wholeRecord()}), which a caller may refuse to
 *       skip.</li>
 *   <li>Anything else (a damaged length, or a checksum mismatch followed by more data that is not all zeros,
 *       in particular an intact record after zeros or garbage) is a {@link CorruptionException} naming the file
 *       and the record's offset: records before it were returned, none after it are guessed.</li>
 * </ul>
 * With {@code tolerateTornTail} false, a torn tail is a {@link CorruptionException} too.
 */
public final class LogReader implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private final long size;
    private final int maxRecordBytes;
    private final boolean tolerateTornTail;
    private long offset;
    private long recordOffset = -1;
    private LogTail tail;
    /** Where the run of zero bytes that ends the file starts ({@code size} if the last byte is not zero); -1: unknown. */
    private long zeroTail = -1;

    private LogReader(Path path, FileChannel channel, int maxRecordBytes, boolean tolerateTornTail)
            throws IOException {
        this.path = path;
        this.channel = channel;
        this.size = channel.size();
        this.maxRecordBytes = maxRecordBytes;
        this.tolerateTornTail = tolerateTornTail;
    }

    /**
     * Opens {@code path} and checks its header.
     *
     * @throws CorruptionException if the header is short, damaged, of another kind or of an unknown version
     */
    public static LogReader open(Path path, LogKind kind, int maxRecordBytes, boolean tolerateTornTail)
            throws IOException {
        return open(FileLayer.plain(), path, kind, maxRecordBytes, tolerateTornTail);
    }

    /** As {@link #open(Path, LogKind, int, boolean)}, with I/O through {@code files}. */
    public static LogReader open(FileLayer files, Path path, LogKind kind, int maxRecordBytes,
            boolean tolerateTornTail) throws IOException {
        FileChannel channel = files.open(path, LogWriter.cause(kind), StandardOpenOption.READ);
        try {
            LogReader r = new LogReader(path, channel, maxRecordBytes, tolerateTornTail);
            r.readHeader(kind);
            return r;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private void readHeader(LogKind kind) throws IOException {
        if (size < LogFormat.HEADER_BYTES) {
            throw new CorruptionException(path, 0, Code.TRUNCATED_HEADER,
                    "file has " + size + " bytes, a log header needs " + LogFormat.HEADER_BYTES);
        }
        ByteBuffer h = read(0, LogFormat.HEADER_BYTES);
        long magic = h.getLong();
        int version = h.getInt();
        int kindId = h.getInt();
        int crc = h.getInt();
        if (magic != LogFormat.MAGIC) {
            throw new CorruptionException(path, 0, Code.BAD_MAGIC, "not a log file (magic " + Long.toHexString(magic)
                    + ")");
        }
        if (crc != LogFormat.crc(h.array(), 0, 16)) {
            throw new CorruptionException(path, 0, Code.CHECKSUM_MISMATCH, "log header checksum mismatch");
        }
        if (version != LogFormat.VERSION) {
            throw new CorruptionException(path, 8, Code.UNSUPPORTED_VERSION, "log format version " + version
                    + "; this build reads version " + LogFormat.VERSION);
        }
        if (kindId != kind.id()) {
            LogKind found = LogKind.byId(kindId);
            throw new CorruptionException(path, 12, Code.BAD_MAGIC, "expected a " + kind + " log, found "
                    + (found == null ? "unknown kind " + kindId : "a " + found + " log"));
        }
        offset = LogFormat.HEADER_BYTES;
    }

    /**
     * The next record's payload, or {@code null} at the end of the log (see {@link #tail()}).
     *
     * @throws CorruptionException if a record is damaged (see the class comment)
     */
    public byte[] next() throws IOException {
        if (tail != null) {
            return null;
        }
        long start = offset;
        long remaining = size - start;
        if (remaining == 0) {
            return end(false, "clean end");
        }
        if (remaining < LogFormat.RECORD_HEADER_BYTES) {
            return torn(start, "record header cut off after " + remaining + " bytes");
        }
        ByteBuffer head = read(start, LogFormat.RECORD_HEADER_BYTES);
        int length = head.getInt();
        int lengthCrc = head.getInt();
        int payloadCrc = head.getInt();
        if (lengthCrc != LogFormat.lengthCrc(length)) {
            long zeros = zeroTail();
            if (zeros <= start) {
                return torn(start, "zero-filled tail");
            }
            if (zeros < start + LogFormat.RECORD_HEADER_BYTES) {
                return torn(start, "zero-filled tail from offset " + zeros + ", inside a record header");
            }
            throw new CorruptionException(path, start, Code.BAD_LENGTH, "record length field is damaged");
        }
        if (length < 0 || length > maxRecordBytes) {
            throw new CorruptionException(path, start, Code.BAD_LENGTH, "record length " + Integer.toUnsignedString(
                    length) + " exceeds the maximum of " + maxRecordBytes);
        }
        long end = start + LogFormat.RECORD_HEADER_BYTES + length;
        if (end > size) {
            return torn(start, "record of " + length + " bytes cut off at the end of the file");
        }
        ByteBuffer payload = read(start + LogFormat.RECORD_HEADER_BYTES, length);
        if (LogFormat.crc(payload.array(), 0, length) != payloadCrc) {
            long zeros = zeroTail();
            if (zeros < end) {
                return torn(start, "zero-filled tail from offset " + zeros + ", inside a record of " + length
                        + " bytes");
            }
            if (end == size) {
                return torn(start, "final record's checksum does not match (incomplete final write)", true);
            }
            throw new CorruptionException(path, start, Code.CHECKSUM_MISMATCH,
                    "record of " + length + " bytes fails its checksum");
        }
        recordOffset = start;
        offset = end;
        return payload.array();
    }

    /** File offset of the record {@link #next()} returned last (-1 before the first). */
    public long recordOffset() {
        return recordOffset;
    }

    /** How the log ended. REQUIRES: {@link #next()} returned {@code null}. */
    public LogTail tail() {
        if (tail == null) {
            throw new IllegalStateException("the log has not been read to its end");
        }
        return tail;
    }

    private byte[] torn(long at, String detail) throws CorruptionException {
        return torn(at, detail, false);
    }

    private byte[] torn(long at, String detail, boolean wholeRecord) throws CorruptionException {
        if (!tolerateTornTail) {
            throw new CorruptionException(path, at, Code.TORN_TAIL, detail);
        }
        tail = new LogTail(true, offset, detail, wholeRecord);
        return null;
    }

    private byte[] end(boolean torn, String detail) {
        tail = new LogTail(torn, offset, detail);
        return null;
    }

    /** Where the run of zero bytes that ends the file starts: {@code size} if its last byte is not zero. */
    private long zeroTail() throws IOException {
        if (zeroTail >= 0) {
            return zeroTail;
        }
        long at = size;
        scan:
        while (at > 0) {
            int n = (int) Math.min(64 * 1024, at);
            ByteBuffer chunk = read(at - n, n);
            byte[] bytes = chunk.array();
            for (int i = n - 1; i >= 0; i--) {
                if (bytes[i] != 0) {
                    at = at - n + i + 1;
                    break scan;
                }
            }
            at -= n;
        }
        zeroTail = at;
        return at;
    }

    private ByteBuffer read(long at, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        while (b.hasRemaining()) {
            int n = channel.read(b, at + b.position());
            if (n < 0) {
                throw new CorruptionException(path, at, Code.BAD_LENGTH, "file shrank while being read");
            }
        }
        return b.flip();
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
