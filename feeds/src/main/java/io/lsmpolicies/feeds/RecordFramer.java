package io.lsmpolicies.feeds;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Cuts a byte stream into records framed by matching braces, as AsterixDB's {@code socket_adapter} does: a record
 * is a top-level {@code {...}}; braces inside double-quoted strings (with backslash escapes) do not count;
 * whitespace between records is skipped; no delimiter is needed. Bytes arrive in chunks of any size, split
 * anywhere (inside a UTF-8 sequence, an escape, a string).
 *
 * <p>Bad input is reported to the sink and the framer resynchronises:
 * <ul>
 *   <li>non-whitespace bytes outside a record: one {@link ErrorKind#STRAY_BYTES} per run, reported when the next
 *       {@code {} (or the end of the stream) is seen; the next record starts at that {@code {};</li>
 *   <li>a record past {@code maxRecordBytes}: {@link ErrorKind#TOO_LARGE} as soon as the limit is passed; the rest
 *       of it is skipped (braces still counted, nothing buffered) up to its closing brace;</li>
 *   <li>a complete record that is not valid UTF-8: {@link ErrorKind#INVALID_UTF8};</li>
 *   <li>a record still open when {@link #finish()} is called: {@link ErrorKind#TRUNCATED}.</li>
 * </ul>
 * Memory is bounded: at most {@code maxRecordBytes} bytes are buffered, plus a small excerpt of stray bytes.
 * Limit: an unterminated string swallows the records after it until the limit is passed (the framer cannot tell a
 * quote that opens a string from one that closes it); the resynchronisation then follows the brace count.
 *
 * <p>Not thread-safe: one framer per connection, fed by one thread at a time.
 */
public final class RecordFramer {

    /** Receives framed records and bad records, in stream order. */
    public interface Sink {
        /**
         * A complete record: {@code bytes[0, length)}, valid UTF-8, starting with '{' and ending with '}'. The
         * array is the framer's buffer, valid only during the call: copy what must outlive it.
         *
         * @param offset the stream offset of its '{'
         */
        void onRecord(byte[] bytes, int length, long offset);

        void onBadRecord(BadRecord bad);
    }

    private static final int OUTSIDE = 0;
    private static final int IN_OBJECT = 1;
    private static final int IN_STRING = 2;
    private static final int IN_ESCAPE = 3;
    private static final int INITIAL_BUFFER = 256;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';

    private final int maxRecordBytes;
    private final Sink sink;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    private byte[] buf = new byte[INITIAL_BUFFER];
    private int len;
    private int state = OUTSIDE;
    private int depth;
    private boolean discarding;
    private boolean nonAscii;
    /** Set by {@link #scanStringNoting}: the OR of the bytes it passed over. */
    private long stringHigh;
    private long offset;
    private long recordStart;

    private long strayStart = -1;
    private final byte[] stray = new byte[BadRecord.EXCERPT_BYTES + 1];
    private int strayLen;
    private long strayBytes;

    /** @throws IllegalArgumentException if {@code maxRecordBytes < 2} */
    public RecordFramer(int maxRecordBytes, Sink sink) {
        if (maxRecordBytes < 2) {
            throw new IllegalArgumentException("maxRecordBytes must be at least 2, was " + maxRecordBytes);
        }
        this.maxRecordBytes = maxRecordBytes;
        this.sink = sink;
    }

    /**
     * Feeds {@code bytes[off, off + n)}. Inside a record the bytes are scanned in runs with the state in locals
     * and appended with one copy per run: this is the per-byte cost of every feed.
     */
    public void feed(byte[] bytes, int off, int n) {
        int i = off;
        int end = off + n;
        while (i < end) {
            if (state == OUTSIDE) {
                outside(bytes[i++]);
                offset++;
                continue;
            }
            int from = i;
            int st = state;
            int d = depth;
            long high = 0; // every byte seen, OR-ed, to tell an all-ASCII record
            while (i < end) {
                if (st == IN_STRING) { // most bytes: scan for the quote or backslash that ends the run
                    i = scanStringNoting(bytes, i, end);
                    high |= stringHigh;
                    if (i == end) {
                        break;
                    }
                    st = bytes[i++] == '"' ? IN_OBJECT : IN_ESCAPE;
                } else if (st == IN_OBJECT) {
                    byte b = bytes[i++];
                    high |= b & 0xFF;
                    if (b == '"') {
                        st = IN_STRING;
                    } else if (b == '{') {
                        d++;
                    } else if (b == '}' && --d == 0) {
                        break;
                    }
                } else { // IN_ESCAPE: the escaped byte, whatever it is
                    high |= bytes[i++] & 0xFF;
                    st = IN_STRING;
                }
            }
            state = st;
            depth = d;
            nonAscii |= (high & HIGH_BITS) != 0;
            append(bytes, from, i - from);
            offset += i - from;
            if (d == 0) {
                complete();
            }
        }
    }

    /** Feeds the remaining bytes of {@code bytes}, consuming them. */
    public void feed(ByteBuffer bytes) {
        if (bytes.hasArray()) {
            feed(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            bytes.position(bytes.limit());
        } else {
            byte[] chunk = new byte[Math.min(bytes.remaining(), 8192)];
            while (bytes.hasRemaining()) {
                int k = Math.min(bytes.remaining(), chunk.length);
                bytes.get(chunk, 0, k);
                feed(chunk, 0, k);
            }
        }
    }

    /** The end of the stream: reports a pending stray run and a record left open ({@link ErrorKind#TRUNCATED}). */
    public void finish() {
        reportStray();
        if (state != OUTSIDE) {
            if (!discarding) {
                sink.onBadRecord(new BadRecord(ErrorKind.TRUNCATED, recordStart, BadRecord.excerpt(buf, 0, len),
                        "stream ended " + (offset - recordStart) + " bytes into a record"));
            }
            resetRecord();
            state = OUTSIDE;
        }
    }

    /** Bytes consumed so far. */
    public long offset() {
        return offset;
    }

    /** Bytes of the current, incomplete record held in memory (at most {@code maxRecordBytes}). */
    public int bufferedBytes() {
        return len;
    }

    /**
     * The index in {@code [from, end]} of the first '"' or '\\' of {@code bytes[from, end)} ({@code end} if none),
     * eight bytes per step (SWAR: a byte of {@code x} is zero iff its flag in {@code (x - 0x01..) & ~x & 0x80..}
     * is the lowest set; flags above the lowest may be false, so only the lowest is used).
     */
    static int scanString(byte[] bytes, int from, int end) {
        int i = from;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            long w = (long) LONGS.get(bytes, i);
            long hit = zeroByteFlags(w ^ QUOTES) | zeroByteFlags(w ^ BACKSLASHES);
            if (hit != 0) {
                return i + (Long.numberOfTrailingZeros(hit) >>> 3);
            }
        }
        for (; i < end; i++) {
            if (bytes[i] == '"' || bytes[i] == '\\') {
                return i;
            }
        }
        return end;
    }

    private static long zeroByteFlags(long x) {
        return (x - ONES) & ~x & HIGH_BITS;
    }

    /**
     * {@link #scanString}, also leaving in {@link #stringHigh} the OR of the bytes it passed over (a byte lane's
     * high bit is set iff one of them is not ASCII): one pass for both.
     */
    private int scanStringNoting(byte[] bytes, int from, int end) {
        long or = 0;
        int i = from;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            long w = (long) LONGS.get(bytes, i);
            long hit = zeroByteFlags(w ^ QUOTES) | zeroByteFlags(w ^ BACKSLASHES);
            if (hit != 0) {
                int at = Long.numberOfTrailingZeros(hit) >>> 3;
                stringHigh = or | (at == 0 ? 0 : w & (-1L >>> (64 - 8 * at)));
                return i + at;
            }
            or |= w;
        }
        for (; i < end; i++) {
            byte b = bytes[i];
            if (b == '"' || b == '\\') {
                break;
            }
            or |= b & 0xFF;
        }
        stringHigh = or;
        return i;
    }

    /** One byte between records (at stream offset {@link #offset}): a record's '{', a blank or a stray byte. */
    private void outside(byte b) {
        if (b == '{') {
            reportStray();
            recordStart = offset;
            state = IN_OBJECT;
            depth = 1;
            nonAscii = false;
            buf[0] = b;
            len = 1;
        } else if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
            if (strayStart >= 0 && strayLen < stray.length) {
                stray[strayLen++] = b; // shown in the excerpt of a run, not counted
            }
        } else {
            if (strayStart < 0) {
                strayStart = offset;
            }
            if (strayLen < stray.length) {
                stray[strayLen++] = b;
            }
            strayBytes++;
        }
    }

    /** Appends {@code bytes[from, from + n)} to the record; past the limit, reports it and starts discarding. */
    private void append(byte[] bytes, int from, int n) {
        if (discarding) {
            return;
        }
        if (n > maxRecordBytes - len) {
            int fits = maxRecordBytes - len;
            System.arraycopy(bytes, from, grow(maxRecordBytes), len, Math.min(fits, BadRecord.EXCERPT_BYTES));
            len += Math.min(fits, BadRecord.EXCERPT_BYTES);
            sink.onBadRecord(new BadRecord(ErrorKind.TOO_LARGE, recordStart, BadRecord.excerpt(buf, 0, len),
                    "record exceeds " + maxRecordBytes + " bytes; skipped to its closing brace"));
            discarding = true;
            len = 0;
            if (buf.length > INITIAL_BUFFER) {
                buf = new byte[INITIAL_BUFFER];
            }
            return;
        }
        System.arraycopy(bytes, from, grow(len + n), len, n);
        len += n;
    }

    /** The buffer, grown (doubling, capped at the limit) to hold at least {@code size} bytes. */
    private byte[] grow(int size) {
        if (size > buf.length) {
            long target = buf.length;
            while (target < size) {
                target *= 2;
            }
            buf = Arrays.copyOf(buf, (int) Math.min(target, maxRecordBytes));
        }
        return buf;
    }

    private void complete() {
        state = OUTSIDE;
        if (discarding) {
            resetRecord();
            return;
        }
        try {
            if (nonAscii) { // most records (all of the YCSB client's) are ASCII, which is valid UTF-8
                utf8.reset().decode(ByteBuffer.wrap(buf, 0, len));
            }
        } catch (CharacterCodingException e) {
            sink.onBadRecord(new BadRecord(ErrorKind.INVALID_UTF8, recordStart, BadRecord.excerpt(buf, 0, len),
                    "invalid UTF-8: " + e.getMessage()));
            resetRecord();
            return;
        }
        try {
            sink.onRecord(buf, len, recordStart);
        } finally {
            resetRecord();
        }
    }

    private void resetRecord() {
        len = 0;
        discarding = false;
        depth = 0;
        if (buf.length > 64 * 1024) {
            buf = new byte[INITIAL_BUFFER];
        }
    }

    private void reportStray() {
        if (strayStart >= 0) {
            sink.onBadRecord(new BadRecord(ErrorKind.STRAY_BYTES, strayStart,
                    BadRecord.excerpt(stray, 0, strayLen),
                    strayBytes + " non-blank byte(s) outside any record skipped"));
            strayStart = -1;
            strayLen = 0;
            strayBytes = 0;
        }
    }
}
