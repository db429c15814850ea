package io.lsmpolicies.feeds;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random feed streams for the resynchronisation tests: well-formed YCSB records in the stock AsterixDB client's
 * framing ({@code hex()} fields, no separators) with malformed fragments between them, at most one fragment
 * between two records. A fragment starts with a non-blank byte and holds no well-formed record.
 *
 * <p>No fragment ends where a value is due ({@code "f":}, {@code [}, {@code [1,}) after a key: such a fragment
 * followed by a record and then by a fragment that closes it ({@code }}) is itself a well-formed record that holds
 * the record between as a nested value, and no framer can tell it from one a client meant.
 */
final class FeedStreams {

    /** A stream, its records' keys in order, and the offset of each fragment's first byte. */
    record Stream(byte[] bytes, List<String> keys, List<Long> fragments) {
    }

    /** The fragment kinds, named for the failure they simulate. */
    enum Fragment {
        UNCLOSED_RECORD, EXTRA_OPEN_BRACE, EXTRA_CLOSE, BRACKETS, UNCLOSED_STRING, TRUNCATED_HEX, STRAY_BYTES,
        INVALID_UTF8, TOO_LARGE, BACKSLASH
    }

    private FeedStreams() {
    }

    /**
     * A stream of {@code records} records whose keys start with {@code prefix}, a fragment in a gap with probability
     * {@code fragmentChance}; {@code maxRecordBytes} is the framer's limit (records stay under it; the
     * {@link Fragment#TOO_LARGE} fragment goes past it).
     */
    static Stream generate(SplittableRandom r, String prefix, int records, double fragmentChance,
            int maxRecordBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> keys = new ArrayList<>();
        List<Long> fragments = new ArrayList<>();
        for (int i = 0; i <= records; i++) {
            blanks(r, out);
            if (r.nextDouble() < fragmentChance) {
                fragments.add((long) out.size());
                out.writeBytes(fragment(r, prefix + "-frag" + i, maxRecordBytes));
                blanks(r, out);
            }
            if (i < records) {
                String key = prefix + "-" + i;
                keys.add(key);
                out.writeBytes(record(r, key, maxRecordBytes).getBytes(StandardCharsets.UTF_8));
            }
        }
        return new Stream(out.toByteArray(), keys, fragments);
    }

    private static void blanks(SplittableRandom r, ByteArrayOutputStream out) {
        if (r.nextInt(4) == 0) {
            out.writeBytes(" \n\r\t".substring(r.nextInt(4)).getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** A well-formed record with key {@code key}, under {@code maxRecordBytes}. */
    static String record(SplittableRandom r, String key, int maxRecordBytes) {
        StringBuilder b = new StringBuilder("{\"YCSB_KEY\":\"").append(key).append('"');
        int fields = 1 + r.nextInt(4);
        for (int f = 0; f < fields; f++) {
            b.append(",\"field").append(f).append("\":hex(\"");
            int n = r.nextInt(20);
            for (int k = 0; k < n; k++) {
                b.append(String.format("%02x", r.nextInt(256)));
            }
            b.append("\")");
        }
        if (r.nextInt(8) == 0) { // a string with what a framer must not count
            b.append(",\"note\":\"a{b}[c]\\\"d\\\\\"");
        }
        if (r.nextInt(8) == 0) {
            b.append(",\"nested\":{\"list\":[1,{\"x\":\"}\"}]}");
        }
        String s = b.append('}').toString();
        if (s.length() > maxRecordBytes) {
            throw new IllegalArgumentException("maxRecordBytes " + maxRecordBytes + " is below a record's size");
        }
        return s;
    }

    static byte[] fragment(SplittableRandom r, String key, int maxRecordBytes) {
        Fragment kind = Fragment.values()[r.nextInt(Fragment.values().length)];
        String head = "{\"YCSB_KEY\":\"" + key + "\"";
        switch (kind) {
            case UNCLOSED_RECORD: { // a client that died mid-record, not where a value is due (see below)
                String whole = record(r, key, maxRecordBytes);
                int cut;
                do {
                    cut = 1 + r.nextInt(whole.length() - 1);
                } while (":[,".indexOf(whole.charAt(cut - 1)) >= 0);
                return ascii(whole.substring(0, cut));
            }
            case EXTRA_OPEN_BRACE:
                return ascii(pick(r, "{", "{{", "{\"a\":{\"b\":1}", "{\"a\":{", head + ",\"f\":{\"g\":{}"));
            case EXTRA_CLOSE:
                return ascii(pick(r, "}", "}}", "]}", "{\"a\":1}}", head + ",}}", "}{\"a\":2}"));
            case BRACKETS:
                return ascii(pick(r, "[", "]", "[[1]", "{\"a\":[1,2}", "{\"a\":[", "{\"a\":1]}", head + ",\"f\":[}"));
            case UNCLOSED_STRING:
                return ascii(pick(r, "\"abc", head + ",\"f\":\"abc", "{\"a\":\"x{y", head + ",\"f\":\"a\\\""));
            case TRUNCATED_HEX:
                return ascii(pick(r, head + ",\"field0\":hex(", head + ",\"field0\":hex(\"0a", "hex(\"0a1",
                        head + ",\"field0\":hex(\"0a1b\""));
            case STRAY_BYTES:
                return ascii(pick(r, "garbage", "123", ",", ";;", "null", "x y z"));
            case INVALID_UTF8: {
                byte[] bad = pick(r, new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xC3, '('},
                        new byte[] {(byte) 0xE2, (byte) 0x82});
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                if (r.nextBoolean()) {
                    out.writeBytes(ascii(head + ",\"f\":\""));
                    out.writeBytes(bad);
                    out.writeBytes(ascii("\"}"));
                } else {
                    out.writeBytes(bad);
                }
                return out.toByteArray();
            }
            case TOO_LARGE:
                return ascii(head + ",\"field0\":hex(\"" + "0a".repeat(maxRecordBytes / 2 + r.nextInt(50)) + "\")}");
            case BACKSLASH:
                return ascii(pick(r, "\\", "{\"a\":\\", head + ",\\\"f\":1}"));
            default:
                throw new AssertionError(kind);
        }
    }

    @SafeVarargs
    private static <T> T pick(SplittableRandom r, T... options) {
        return options[r.nextInt(options.length)];
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Cuts {@code bytes} into reads of random sizes, as a socket delivers them. */
    static List<int[]> chunks(SplittableRandom r, int length) {
        List<int[]> out = new ArrayList<>();
        int maxChunk = r.nextInt(3) == 0 ? 4 : r.nextInt(3) == 0 ? 64 : 4096;
        for (int i = 0; i < length; ) {
            int n = Math.min(length - i, 1 + r.nextInt(maxChunk));
            out.add(new int[] {i, n});
            i += n;
        }
        return out;
    }
}
