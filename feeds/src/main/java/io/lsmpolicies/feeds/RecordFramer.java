package io.lsmpolicies.feeds;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Cuts a byte stream into records framed by matching braces, as AsterixDB's {@code socket_adapter} does: a record
 * is a top-level {@code {...}}; braces inside double-quoted strings (with backslash escapes) do not count;
 * whitespace between records is skipped; no delimiter is needed. Bytes arrive in chunks of any size, split
 * anywhere (inside a UTF-8 sequence, an escape, a string).
 *
 * <p><b>Candidates and resynchronisation.</b> Every <code>{</code> byte starts a <em>candidate</em>: the bytes from it
 * to its matching {@code }}, read as if a record started there (outside any string, depth 1). Candidates are
 * decided in stream order: the first undecided one is framed when it closes and given to
 * {@link Sink#onRecord}, which takes it or says why not. A candidate fails when
 * <ul>
 *   <li>the sink refuses it (syntax error, invalid UTF-8, missing key, ...);</li>
 *   <li>it passes {@code maxRecordBytes} without closing ({@link ErrorKind#TOO_LARGE});</li>
 *   <li>it holds a backslash outside its strings, or more than {@value #MAX_DEPTH} nested open braces (no record
 *       of either format can: {@link ErrorKind#SYNTAX});</li>
 *   <li>the stream ends inside it ({@link ErrorKind#TRUNCATED}).</li>
 * </ul>
 * After a failure the next candidate is the next <code>{</code> after the failed one's first byte, wherever it lies
 * (inside the failed span too, and whether the failed candidate read it as inside a string or not); after a
 * record is taken, the next <code>{</code> after the record. So a malformed fragment never costs a well-formed record
 * that follows it: that record's <code>{</code> is a candidate, and every candidate before it fails or is taken
 * before it is reached. Non-blank bytes outside every candidate are {@link ErrorKind#STRAY_BYTES}.
 *
 * <p><b>One error per gap.</b> The bytes between two records taken (or the stream's ends) that are not blank form
 * one gap; its first failure (or stray run) is reported to {@link Sink#onBadRecord} with its offset and excerpt,
 * and the gap's later failures are not: a malformed fragment is one error however many candidates it holds.
 *
 * <p><b>Cost.</b> All candidates are followed in one pass, never by rescanning: a candidate's lexical state is
 * either "in an object" or "in a string", so every open candidate is in one of two <em>lanes</em>, one per
 * state, each a stack of open candidates (a {@code "} swaps the lanes' roles; a <code>{</code> pushes on the object
 * lane, a {@code }} pops it; a backslash fails the whole object lane, which is how two lanes that would come to
 * the same state never have to be merged). Each byte is looked at once (eight at a time between special bytes);
 * a lane holds at most {@value #MAX_DEPTH} candidates. The sink is called once per closed candidate decided, on
 * its bytes only; a candidate it refuses is parsed again only by candidates nested in it, so with a parser that
 * refuses nesting deeper than {@code D} and stops at the first error, each byte is parsed at most
 * {@code 2 (D + 1)} times: O(n * D) for n bytes of hostile input, O(n) for well-formed input. Memory: the
 * buffer holds the bytes from the first undecided candidate, at most {@code maxRecordBytes} (in an array of at
 * most twice that, so that dropping decided bytes is amortised), plus 16 bytes per undecided candidate.
 *
 * <p>Not thread-safe: one framer per connection, fed by one thread at a time. The sink must not call back into
 * the framer.
 */
public final class RecordFramer {

    /** Receives candidate records and bad records, in stream order. */
    public interface Sink {
        /**
         * A candidate record: {@code bytes[from, from + length)}, starting with '{' and ending with its matching
         * '}', braces balanced outside strings; not yet checked to be UTF-8 or well-formed. The array is the
         * framer's buffer, valid only during the call: copy what must outlive it.
         *
         * @param bytes  the framer's buffer
         * @param from   the record's first byte in {@code bytes}
         * @param length the record's length in bytes
         * @param offset the stream offset of its '{'
         * @return null if the record is taken; otherwise why not (with this offset): the framer then resumes at
         *         the next '{' after this one and reports the returned record through {@link #onBadRecord} unless
         *         its gap was reported already
         */
        BadRecord onRecord(byte[] bytes, int from, int length, long offset);

        /**
         * A bad record: bytes outside any record, a record too long or cut off, or one {@link #onRecord} refused.
         *
         * @param bad the record, its offset and why
         */
        void onBadRecord(BadRecord bad);
    }

    /** The most nested open braces a candidate may hold (the {@code adm} parser's nesting limit). */
    public static final int MAX_DEPTH = AdmParser.MAX_DEPTH;

    private static final long OPEN = -1;
    private static final int DEEP = 0;
    private static final int BACKSLASH = 1;
    private static final int STACK = Integer.highestOneBit(MAX_DEPTH) << 1; // a power of two above MAX_DEPTH
    private static final int INITIAL_BUFFER = 256;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';

    private final int maxRecordBytes;
    private final Sink sink;

    /** Stream bytes {@code [bufBase, bufBase + len)}; {@code bufBase + len == offset} while a candidate is open. */
    private byte[] buf = new byte[INITIAL_BUFFER];
    private int len;
    private long bufBase;
    private long offset;

    /** Undecided candidates, sequence numbers {@code [first, next)}, in stream order, in a ring. */
    private long[] starts = new long[16];
    /** Each candidate's closing offset, {@link #OPEN}, or how and where it failed ({@link #failed}). */
    private long[] ends = new long[16];
    private long first;
    private long next;

    /** The two lanes: stacks (rings of {@link #STACK}) of candidate sequence numbers, innermost on top. */
    private final long[][] lanes = new long[2][STACK];
    private final int[] laneBottom = new int[2];
    private final int[] laneSize = new int[2];
    /** The lane in object state; the other is in a string. */
    private int objectLane;
    /** The string lane has just read a backslash: the next byte is escaped. */
    private boolean escaped;
    /** Set while scanning when the first candidate was decided by a byte (closed or failed). */
    private boolean frontDecided;
    private boolean finishing;

    /** A failure (or stray run) since the last record taken has been reported. */
    private boolean gapReported;
    private long strayStart = -1;
    private final byte[] stray = new byte[BadRecord.EXCERPT_BYTES + 1];
    private int strayLen;
    private long strayBytes;

    /**
     * A framer at the start of a stream.
     *
     * @param maxRecordBytes the longest record, in bytes; a longer candidate is a bad record
     * @param sink           receives the records and the bad records
     * @throws IllegalArgumentException if {@code maxRecordBytes < 2}
     */
    public RecordFramer(int maxRecordBytes, Sink sink) {
        if (maxRecordBytes < 2) {
            throw new IllegalArgumentException("maxRecordBytes must be at least 2, was " + maxRecordBytes);
        }
        this.maxRecordBytes = maxRecordBytes;
        this.sink = sink;
    }

    /**
     * Feeds {@code bytes[off, off + n)}.
     *
     * @param bytes the stream's next bytes
     * @param off   the first byte to feed
     * @param n     how many bytes
     */
    public void feed(byte[] bytes, int off, int n) {
        int i = off;
        int end = off + n;
        while (i < end) {
            if (first == next) {
                i = outside(bytes, i, end);
                continue;
            }
            long room = starts[ring(first)] + maxRecordBytes - offset; // bytes before the first is too large
            if (room <= 0) {
                decide();
                continue;
            }
            int limit = (int) Math.min(end, i + room);
            int from = i;
            long base = offset - from; // the stream offset of bytes[0]
            frontDecided = false;
            int lane = objectLane; // the lanes' state in locals: a quote is the most frequent special byte
            boolean esc = escaped;
            while (i < limit) {
                if (!esc) {
                    i = scanSpecial(bytes, i, limit);
                    if (i == limit) {
                        break;
                    }
                }
                byte b = bytes[i];
                boolean wasEscaped = esc;
                esc = false;
                if (b == '"') {
                    if (!wasEscaped) {
                        lane ^= 1; // the object lane enters a string, the string lane leaves its string
                    }
                    // else: the string lane stays in its string; the object lane, emptied by the backslash, would
                    // enter the same state: it stays the (empty) object lane instead
                } else if (b == '\\') {
                    failLane(lane, base + i);
                    esc = !wasEscaped;
                } else if (b == '{') {
                    push(lane, base + i);
                } else if (b == '}') {
                    pop(lane, base + i);
                }
                i++;
                if (frontDecided) {
                    break;
                }
            }
            objectLane = lane;
            escaped = esc;
            append(bytes, from, i - from);
            offset += i - from;
            if (frontDecided || offset - starts[ring(first)] >= maxRecordBytes) {
                decide();
            }
        }
    }

    /**
     * Feeds the remaining bytes of {@code bytes}, consuming them.
     *
     * @param bytes the stream's next bytes
     */
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

    /**
     * The end of the stream: decides every open candidate (one still open is {@link ErrorKind#TRUNCATED}, and the
     * candidates after its start are tried in turn) and reports a pending stray run.
     */
    public void finish() {
        finishing = true;
        decide();
        reportStray();
    }

    /** {@return the bytes consumed so far} */
    public long offset() {
        return offset;
    }

    /** {@return the bytes held for undecided candidates (at most {@code maxRecordBytes})} */
    public int bufferedBytes() {
        return first == next ? 0 : (int) (offset - starts[ring(first)]);
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

    /**
     * {@link #scanString} for the four bytes that change a lane: '"', '\\', '{' and '}'. '{' (0x7B) and '}' (0x7D)
     * are found as the bytes in [0x7B, 0x7D] (flagged exactly for ASCII, adding to seven-bit lanes never carries),
     * which lets '|' and non-ASCII bytes through as false hits, checked and skipped.
     */
    static int scanSpecial(byte[] bytes, int from, int end) {
        int i = from;
        while (i + Long.BYTES <= end) {
            long w = (long) LONGS.get(bytes, i);
            long low = w & ~HIGH_BITS;
            long braces = (low + ONES * (0x80 - '{')) & ~(low + ONES * (0x80 - '}' - 1)) & HIGH_BITS;
            long hit = zeroByteFlags(w ^ QUOTES) | zeroByteFlags(w ^ BACKSLASHES) | braces;
            if (hit == 0) {
                i += Long.BYTES;
                continue;
            }
            int at = i + (Long.numberOfTrailingZeros(hit) >>> 3);
            byte b = bytes[at];
            if (b == '"' || b == '\\' || b == '{' || b == '}') {
                return at;
            }
            i = at + 1; // a false hit ('|' or a non-ASCII byte): go on after it
        }
        for (; i < end; i++) {
            byte b = bytes[i];
            if (b == '"' || b == '\\' || b == '{' || b == '}') {
                return i;
            }
        }
        return end;
    }

    private static long zeroByteFlags(long x) {
        return (x - ONES) & ~x & HIGH_BITS;
    }

    private void push(int lane, long at) {
        if (next - first == starts.length) {
            growCandidates();
        }
        long seq = next++;
        starts[ring(seq)] = at;
        ends[ring(seq)] = OPEN;
        long[] stack = lanes[lane];
        stack[(laneBottom[lane] + laneSize[lane]) & (STACK - 1)] = seq;
        if (++laneSize[lane] > MAX_DEPTH) { // the bottom candidate is now MAX_DEPTH + 1 braces deep
            long deepest = stack[laneBottom[lane]];
            laneBottom[lane] = (laneBottom[lane] + 1) & (STACK - 1);
            laneSize[lane]--;
            mark(deepest, failed(DEEP, at));
        }
    }

    private void pop(int lane, long at) {
        if (laneSize[lane] > 0) {
            laneSize[lane]--;
            mark(lanes[lane][(laneBottom[lane] + laneSize[lane]) & (STACK - 1)], at);
        }
    }

    /** A backslash outside a string: no candidate of the object lane can be a record. */
    private void failLane(int lane, long at) {
        long[] stack = lanes[lane];
        for (int k = 0; k < laneSize[lane]; k++) {
            mark(stack[(laneBottom[lane] + k) & (STACK - 1)], failed(BACKSLASH, at));
        }
        laneSize[lane] = 0;
    }

    /** Records how an open candidate ended; one already decided (a stale lane entry) is ignored. */
    private void mark(long seq, long end) {
        if (seq >= first && ends[ring(seq)] == OPEN) {
            ends[ring(seq)] = end;
            if (seq == first) {
                frontDecided = true;
            }
        }
    }

    /**
     * Decides candidates from the first while it can: frames a closed one for the sink, fails one that failed or
     * (at the limit, or at the end of the stream) is still open. Stops at an open candidate that may still close.
     */
    private void decide() {
        while (first < next) {
            int k = ring(first);
            long s = starts[k];
            long e = ends[k];
            if (e == OPEN) {
                if (offset - s >= maxRecordBytes) {
                    fail(ErrorKind.TOO_LARGE, s, offset, tooLarge(maxRecordBytes));
                } else if (finishing) {
                    fail(ErrorKind.TRUNCATED, s, offset, "stream ended " + (offset - s) + " bytes into a record");
                } else {
                    return;
                }
            } else if (e < OPEN) {
                long at = (-2 - e) >>> 1;
                fail(ErrorKind.SYNTAX, s, at + 1, ((-2 - e) & 1) == DEEP
                        ? "more than " + MAX_DEPTH + " nested objects" : "a backslash outside a string");
            } else {
                BadRecord why = sink.onRecord(buf, (int) (s - bufBase), (int) (e - s + 1), s);
                if (why != null) {
                    first++;
                    report(why);
                } else {
                    taken(e);
                }
            }
        }
        // nothing undecided: the lanes' content is stale, the buffered bytes are decided
        laneSize[0] = 0;
        laneSize[1] = 0;
        objectLane = 0;
        escaped = false;
        len = 0;
        bufBase = offset;
        if (buf.length > 64 * 1024) {
            buf = new byte[INITIAL_BUFFER];
        }
    }

    /** The first candidate, closing at {@code end}, was taken: drop the candidates inside it, read what follows. */
    private void taken(long end) {
        gapReported = false;
        while (first < next && starts[ring(first)] <= end) {
            first++;
        }
        long until = first < next ? starts[ring(first)] : offset; // no '{' in between: each one is a candidate
        for (long p = end + 1; p < until; p++) {
            between(buf[(int) (p - bufBase)], p);
        }
        if (first < next) {
            reportStray();
        }
    }

    /** The first candidate failed; its excerpt shows its bytes before {@code end} (where it was found to fail). */
    private void fail(ErrorKind kind, long start, long end, String detail) {
        first++;
        if (!gapReported) {
            int from = (int) (start - bufBase);
            int available = (int) Math.min(end - start, BadRecord.EXCERPT_BYTES + 1);
            report(new BadRecord(kind, start, BadRecord.excerpt(buf, from, available), detail));
        }
    }

    /** Reports the first failure of a gap; the gap's later ones are part of the same error. */
    private void report(BadRecord bad) {
        if (!gapReported) {
            gapReported = true;
            sink.onBadRecord(bad);
        }
    }

    /** Bytes from {@code i} while no candidate is open: up to and including the next '{', which opens one. */
    private int outside(byte[] bytes, int i, int end) {
        if (gapReported && strayStart < 0) { // inside a reported gap: nothing to look at before the next '{'
            int j = i;
            while (j < end && bytes[j] != '{') {
                j++;
            }
            offset += j - i;
            i = j;
        }
        while (i < end) {
            byte b = bytes[i];
            if (b == '{') {
                reportStray();
                bufBase = offset;
                len = 0;
                push(objectLane, offset);
                append(bytes, i, 1);
                offset++;
                return i + 1;
            }
            between(b, offset);
            offset++;
            i++;
        }
        return i;
    }

    /** A byte (not '{') at stream offset {@code at} outside every candidate: a blank or a stray byte. */
    private void between(byte b, long at) {
        if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
            if (strayStart >= 0 && strayLen < stray.length) {
                stray[strayLen++] = b; // shown in the excerpt of a run, not counted
            }
        } else if (strayStart >= 0) {
            if (strayLen < stray.length) {
                stray[strayLen++] = b;
            }
            strayBytes++;
        } else if (!gapReported) {
            strayStart = at;
            gapReported = true; // reported when the run ends
            stray[0] = b;
            strayLen = 1;
            strayBytes = 1;
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

    /**
     * Appends {@code bytes[from, from + n)} (stream offset {@link #offset}) to the buffer, first dropping the bytes
     * before the first undecided candidate if that frees at least half of it.
     */
    private void append(byte[] bytes, int from, int n) {
        if (len + n > buf.length) {
            long keep = first < next ? starts[ring(first)] : offset;
            int drop = (int) (keep - bufBase);
            if (drop > 0 && drop >= len / 2) {
                System.arraycopy(buf, drop, buf, 0, len - drop);
                len -= drop;
                bufBase = keep;
            }
            if (len + n > buf.length) {
                // never past 2 * maxRecordBytes: without the drop, more than half of the bytes are the first
                // undecided candidate's (at most maxRecordBytes), and no byte is read past its limit
                long target = Math.max((long) buf.length * 2, len + n);
                buf = Arrays.copyOf(buf, (int) Math.min(target, Math.max(2L * maxRecordBytes, len + n)));
            }
        }
        System.arraycopy(bytes, from, buf, len, n);
        len += n;
    }

    private void growCandidates() {
        int size = starts.length;
        long[] s = new long[size * 2];
        long[] e = new long[size * 2];
        for (long seq = first; seq < next; seq++) {
            s[(int) (seq & (size * 2 - 1))] = starts[ring(seq)];
            e[(int) (seq & (size * 2 - 1))] = ends[ring(seq)];
        }
        starts = s;
        ends = e;
    }

    /** The detail of a {@link ErrorKind#TOO_LARGE} record: a fragment that never closes is one too. */
    static String tooLarge(int maxRecordBytes) {
        return "record still open after " + maxRecordBytes + " bytes (never closed, or larger than the limit);"
                + " resumed at the next '{' after its start";
    }

    /** The {@link #ends} value of a candidate that failed ({@link #DEEP} or {@link #BACKSLASH}) at offset {@code at}. */
    private static long failed(int how, long at) {
        return -2 - (at << 1 | how);
    }

    private int ring(long seq) {
        return (int) (seq & (starts.length - 1));
    }
}
