package io.lsmpolicies.feeds;

import java.nio.ByteBuffer;
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
         * A complete record.
         *
         * @param text   the record, decoded from UTF-8, starting with '{' and ending with '}'
         * @param offset the stream offset of its '{'
         * @param bytes  its length in bytes
         */
        void onRecord(String text, long offset, int bytes);

        void onBadRecord(BadRecord bad);
    }

    private static final int OUTSIDE = 0;
    private static final int IN_OBJECT = 1;
    private static final int IN_STRING = 2;
    private static final int IN_ESCAPE = 3;
    private static final int INITIAL_BUFFER = 256;

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

    /** Feeds {@code bytes[off, off + n)}. */
    public void feed(byte[] bytes, int off, int n) {
        for (int i = off, end = off + n; i < end; i++) {
            step(bytes[i]);
            offset++;
        }
    }

    /** Feeds the remaining bytes of {@code bytes}, consuming them. */
    public void feed(ByteBuffer bytes) {
        if (bytes.hasArray()) {
            feed(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            bytes.position(bytes.limit());
        } else {
            while (bytes.hasRemaining()) {
                step(bytes.get());
                offset++;
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

    private void step(byte b) {
        switch (state) {
            case OUTSIDE -> {
                if (b == '{') {
                    reportStray();
                    recordStart = offset;
                    state = IN_OBJECT;
                    depth = 1;
                    append(b);
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
            case IN_OBJECT -> {
                append(b);
                if (b == '"') {
                    state = IN_STRING;
                } else if (b == '{') {
                    depth++;
                } else if (b == '}' && --depth == 0) {
                    complete();
                }
            }
            case IN_STRING -> {
                append(b);
                if (b == '\\') {
                    state = IN_ESCAPE;
                } else if (b == '"') {
                    state = IN_OBJECT;
                }
            }
            default -> { // IN_ESCAPE
                append(b);
                state = IN_STRING;
            }
        }
    }

    private void append(byte b) {
        if (discarding) {
            return;
        }
        if (len == maxRecordBytes) {
            sink.onBadRecord(new BadRecord(ErrorKind.TOO_LARGE, recordStart, BadRecord.excerpt(buf, 0, len),
                    "record exceeds " + maxRecordBytes + " bytes; skipped to its closing brace"));
            discarding = true;
            len = 0;
            if (buf.length > INITIAL_BUFFER) {
                buf = new byte[INITIAL_BUFFER];
            }
            return;
        }
        if (len == buf.length) {
            buf = Arrays.copyOf(buf, (int) Math.min((long) buf.length * 2, maxRecordBytes));
        }
        buf[len++] = b;
    }

    private void complete() {
        state = OUTSIDE;
        if (discarding) {
            resetRecord();
            return;
        }
        String text;
        try {
            // Most records (the YCSB client's all) are ASCII, which is valid UTF-8 and copies as Latin-1.
            text = isAscii(buf, len) ? new String(buf, 0, len, StandardCharsets.ISO_8859_1)
                    : utf8.reset().decode(ByteBuffer.wrap(buf, 0, len)).toString();
        } catch (CharacterCodingException e) {
            sink.onBadRecord(new BadRecord(ErrorKind.INVALID_UTF8, recordStart, BadRecord.excerpt(buf, 0, len),
                    "invalid UTF-8: " + e.getMessage()));
            resetRecord();
            return;
        }
        int bytes = len;
        resetRecord();
        sink.onRecord(text, recordStart, bytes);
    }

    private static boolean isAscii(byte[] bytes, int length) {
        for (int i = 0; i < length; i++) {
            if (bytes[i] < 0) {
                return false;
            }
        }
        return true;
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
