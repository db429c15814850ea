package io.lsmpolicies.feeds;

/**
 * {@link RecordFramer}'s rules written the slow, obvious way, to test it against: the whole stream at once, each
 * candidate rescanned from its '{' (O(n * maxRecordBytes)). Same sink calls, same bad records.
 */
final class ReferenceFramer {
    private static final int OBJECT = 0;
    private static final int STRING = 1;
    private static final int ESCAPE = 2;

    private ReferenceFramer() {
    }

    static void frame(byte[] s, int maxRecordBytes, RecordFramer.Sink sink) {
        int pos = 0;
        boolean gap = false;
        while (true) {
            int c = pos;
            int strayStart = -1;
            long strayBytes = 0;
            while (c < s.length && s[c] != '{') {
                byte b = s[c];
                boolean blank = b == ' ' || b == '\n' || b == '\r' || b == '\t';
                if (!blank && strayStart < 0 && !gap) {
                    strayStart = c;
                    gap = true;
                }
                if (!blank && strayStart >= 0) {
                    strayBytes++;
                }
                c++;
            }
            if (strayStart >= 0) {
                int n = Math.min(c - strayStart, BadRecord.EXCERPT_BYTES + 1);
                sink.onBadRecord(new BadRecord(ErrorKind.STRAY_BYTES, strayStart, BadRecord.excerpt(s, strayStart, n),
                        strayBytes + " non-blank byte(s) outside any record skipped"));
            }
            if (c == s.length) {
                return;
            }
            int state = OBJECT;
            int depth = 0;
            BadRecord failure = null;
            int p = c;
            for (; ; p++) {
                if (p - c == maxRecordBytes) {
                    failure = failure(ErrorKind.TOO_LARGE, s, c, p, RecordFramer.tooLarge(maxRecordBytes));
                    break;
                }
                if (p == s.length) {
                    failure = failure(ErrorKind.TRUNCATED, s, c, p, "stream ended " + (p - c)
                            + " bytes into a record");
                    break;
                }
                byte b = s[p];
                if (state == STRING) {
                    state = b == '"' ? OBJECT : b == '\\' ? ESCAPE : STRING;
                } else if (state == ESCAPE) {
                    state = STRING;
                } else if (b == '"') {
                    state = STRING;
                } else if (b == '\\') {
                    failure = failure(ErrorKind.SYNTAX, s, c, p + 1, "a backslash outside a string");
                    break;
                } else if (b == '{' && ++depth > RecordFramer.MAX_DEPTH) {
                    failure = failure(ErrorKind.SYNTAX, s, c, p + 1, "more than " + RecordFramer.MAX_DEPTH
                            + " nested objects");
                    break;
                } else if (b == '}' && --depth == 0) {
                    break;
                }
            }
            if (failure == null) {
                failure = sink.onRecord(s, c, p - c + 1, c);
                if (failure == null) {
                    gap = false;
                    pos = p + 1;
                    continue;
                }
            }
            if (!gap) {
                sink.onBadRecord(failure);
                gap = true;
            }
            pos = c + 1;
        }
    }

    private static BadRecord failure(ErrorKind kind, byte[] s, int start, int end, String detail) {
        return new BadRecord(kind, start, BadRecord.excerpt(s, start, Math.min(end - start,
                BadRecord.EXCERPT_BYTES + 1)), detail);
    }
}
