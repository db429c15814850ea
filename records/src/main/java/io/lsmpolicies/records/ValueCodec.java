package io.lsmpolicies.records;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored value of a record: a compact binary encoding of its whole {@link AdmValue} tree (key fields
 * included), so a {@code hex("...")} field costs its bytes, not twice as many digits. Layout:
 * <pre>
 *   value   := VERSION(0x01) node
 *   node    := tag payload
 *   0 null | 1 false | 2 true
 *   3 int8 | 4 int16 | 5 int32 | 6 int64     zigzag varint
 *   7 float  4 bytes big-endian IEEE | 8 double  8 bytes big-endian IEEE
 *   9 string | 10 hex | 11 datetime | 12 date | 13 time     varint length, bytes (UTF-8 for text)
 *   14 array   varint count, node*
 *   15 object  varint count, (varint length, UTF-8 name, node)*   in the client's field order
 * </pre>
 * Tags are persistent: a retired tag is never reused. Decoding checks every length against the input.
 * Thread-safe (stateless).
 */
public final class ValueCodec {
    /** The first byte of every encoded value. */
    public static final int VERSION = 1;

    private static final int NULL = 0;
    private static final int FALSE = 1;
    private static final int TRUE = 2;
    private static final int INT8 = 3;
    private static final int INT64 = 6;
    private static final int FLOAT = 7;
    private static final int DOUBLE = 8;
    private static final int STRING = 9;
    private static final int HEX = 10;
    private static final int DATETIME = 11;
    private static final int ARRAY = 14;
    private static final int OBJECT = 15;
    private static final int MAX_DEPTH = 1024;

    private ValueCodec() {
    }

    /**
     * The stored bytes of {@code value}: a version byte, then the value's tree.
     *
     * @param value the value
     * @return its bytes, which {@link #decode} reads back
     */
    public static byte[] encode(AdmValue value) {
        Out out = new Out(1 + size(value));
        out.write(VERSION);
        node(out, value);
        if (out.pos != out.buf.length) {
            throw new IllegalStateException("encoded " + out.pos + " bytes, sized " + out.buf.length);
        }
        return out.buf;
    }

    /**
     * The value {@link #encode} wrote.
     *
     * @param bytes an encoded value
     * @return the value
     * @throws IllegalArgumentException naming the offset, if {@code bytes} is not an encoded value
     */
    public static AdmValue decode(byte[] bytes) {
        Reader r = Reader.afterVersion(bytes);
        AdmValue v = r.node(0);
        r.checkEnd();
        return v;
    }

    /** What {@link #forEachField} hands over for each field of an encoded object. */
    public interface FieldVisitor {
        /**
         * A string or binary field, its bytes in place: the string's UTF-8 or the binary's data,
         * {@code bytes[offset .. offset + length)}. The array is the encoded value's; do not change it.
         *
         * @param name   the field's name
         * @param text   true for a string, false for binary ({@code hex})
         * @param bytes  the encoded value
         * @param offset where the field's bytes start
         * @param length how many there are
         */
        void bytes(String name, boolean text, byte[] bytes, int offset, int length);

        /**
         * A field of any other kind, decoded.
         *
         * @param name  the field's name
         * @param value its value
         */
        void value(String name, AdmValue value);
    }

    /**
     * Reads the fields of an encoded object in their stored order without building the object: string and binary
     * fields are handed over in place, other fields decoded ({@link FieldVisitor}). The checks are {@link #decode}'s.
     *
     * @param bytes   an encoded object
     * @param visitor receives each field
     * @throws IllegalArgumentException naming the offset, if {@code bytes} is not an encoded value, or not an object
     */
    public static void forEachField(byte[] bytes, FieldVisitor visitor) {
        Reader r = Reader.afterVersion(bytes);
        if (r.u8() != OBJECT) {
            throw new IllegalArgumentException("the stored value is not a record (an ADM object)");
        }
        int n = r.count();
        for (int i = 0; i < n; i++) {
            String name = r.text();
            int tag = r.peek();
            if (tag == STRING || tag == HEX) {
                r.pos++;
                int length = r.count();
                visitor.bytes(name, tag == STRING, bytes, r.pos, length);
                r.pos += length;
            } else {
                visitor.value(name, r.node(1));
            }
        }
        r.checkEnd();
    }

    /** The encoded size of {@code v} (without the version byte). */
    private static int size(AdmValue v) {
        if (v instanceof AdmValue.Null || v instanceof AdmValue.Bool) {
            return 1;
        } else if (v instanceof AdmValue.Int i) {
            return 1 + varintSize((i.value() << 1) ^ (i.value() >> 63));
        } else if (v instanceof AdmValue.Real r) {
            return r.single() ? 5 : 9;
        } else if (v instanceof AdmValue.Str s) {
            return 1 + bytesSize(utf8Length(s.value()));
        } else if (v instanceof AdmValue.Binary b) {
            return 1 + bytesSize(b.unsafeBytes().length);
        } else if (v instanceof AdmValue.Temporal t) {
            return 1 + bytesSize(utf8Length(t.text()));
        } else if (v instanceof AdmValue.Array a) {
            int n = 1 + varintSize(a.items().size());
            for (AdmValue item : a.items()) {
                n += size(item);
            }
            return n;
        } else {
            AdmValue.Obj o = (AdmValue.Obj) v;
            int n = 1 + varintSize(o.fields().size());
            for (Map.Entry<String, AdmValue> e : o.fields().entrySet()) {
                n += bytesSize(utf8Length(e.getKey())) + size(e.getValue());
            }
            return n;
        }
    }

    private static int bytesSize(int length) {
        return varintSize(length) + length;
    }

    private static int varintSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** The UTF-8 length of {@code s} (a lone surrogate counts as the one byte '?' it encodes to). */
    private static int utf8Length(String s) {
        int n = s.length();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    n++;
                } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                        && Character.isLowSurrogate(s.charAt(i + 1))) {
                    n += 2; // 4 bytes for 2 chars
                    i++;
                } else if (!Character.isSurrogate(c)) {
                    n += 2;
                }
            }
        }
        return n;
    }

    private static void node(Out out, AdmValue v) {
        if (v instanceof AdmValue.Null) {
            out.write(NULL);
        } else if (v instanceof AdmValue.Bool b) {
            out.write(b.value() ? TRUE : FALSE);
        } else if (v instanceof AdmValue.Int i) {
            out.write(INT8 + i.kind().ordinal());
            varint(out, (i.value() << 1) ^ (i.value() >> 63));
        } else if (v instanceof AdmValue.Real r) {
            if (r.single()) {
                out.write(FLOAT);
                fixed(out, Float.floatToIntBits((float) r.value()), 4);
            } else {
                out.write(DOUBLE);
                fixed(out, Double.doubleToLongBits(r.value()), 8);
            }
        } else if (v instanceof AdmValue.Str s) {
            out.write(STRING);
            bytes(out, s.value().getBytes(StandardCharsets.UTF_8));
        } else if (v instanceof AdmValue.Binary b) {
            out.write(HEX);
            bytes(out, b.unsafeBytes());
        } else if (v instanceof AdmValue.Temporal t) {
            out.write(DATETIME + t.kind().ordinal());
            bytes(out, t.text().getBytes(StandardCharsets.UTF_8));
        } else if (v instanceof AdmValue.Array a) {
            out.write(ARRAY);
            varint(out, a.items().size());
            for (AdmValue item : a.items()) {
                node(out, item);
            }
        } else {
            AdmValue.Obj o = (AdmValue.Obj) v;
            out.write(OBJECT);
            varint(out, o.fields().size());
            for (Map.Entry<String, AdmValue> e : o.fields().entrySet()) {
                bytes(out, e.getKey().getBytes(StandardCharsets.UTF_8));
                node(out, e.getValue());
            }
        }
    }

    private static void bytes(Out out, byte[] b) {
        varint(out, b.length);
        System.arraycopy(b, 0, out.buf, out.pos, b.length);
        out.pos += b.length;
    }

    private static void varint(Out out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static void fixed(Out out, long v, int n) {
        for (int shift = (n - 1) * 8; shift >= 0; shift -= 8) {
            out.write((int) (v >>> shift));
        }
    }

    /** An output array of the exact encoded size (see {@link #size}). */
    private static final class Out {
        final byte[] buf;
        int pos;

        Out(int size) {
            buf = new byte[size];
        }

        void write(int b) {
            buf[pos++] = (byte) b;
        }
    }

    private static final class Reader {
        final byte[] b;
        int pos;

        Reader(byte[] b) {
            this.b = b;
        }

        /** A reader of {@code bytes} past their version byte, which it checks. */
        static Reader afterVersion(byte[] bytes) {
            if (bytes.length == 0 || bytes[0] != VERSION) {
                throw new IllegalArgumentException("not a feed value: version byte "
                        + (bytes.length == 0 ? "missing" : Integer.toString(bytes[0] & 0xFF)) + ", expected "
                        + VERSION);
            }
            Reader r = new Reader(bytes);
            r.pos = 1;
            return r;
        }

        /** Throws if bytes are left after the value. */
        void checkEnd() {
            if (pos != b.length) {
                throw new IllegalArgumentException("corrupt feed value: " + (b.length - pos)
                        + " trailing bytes at offset " + pos);
            }
        }

        AdmValue node(int depth) {
            if (depth > MAX_DEPTH) {
                throw corrupt("nesting deeper than " + MAX_DEPTH);
            }
            int at = pos;
            int tag = u8();
            switch (tag) {
                case NULL:
                    return AdmValue.Null.INSTANCE;
                case FALSE:
                    return new AdmValue.Bool(false);
                case TRUE:
                    return new AdmValue.Bool(true);
                case INT8:
                case INT8 + 1:
                case INT8 + 2:
                case INT64: {
                    long z = varint();
                    long v = (z >>> 1) ^ -(z & 1);
                    try {
                        return new AdmValue.Int(AdmValue.IntKind.values()[tag - INT8], v);
                    } catch (IllegalArgumentException e) {
                        pos = at;
                        throw corrupt(e.getMessage());
                    }
                }
                case FLOAT:
                    return new AdmValue.Real(Float.intBitsToFloat((int) fixed(4)), true);
                case DOUBLE:
                    return new AdmValue.Real(Double.longBitsToDouble(fixed(8)), false);
                case STRING:
                    return new AdmValue.Str(text());
                case HEX:
                    return new AdmValue.Binary(raw());
                case DATETIME:
                case DATETIME + 1:
                case DATETIME + 2:
                    return new AdmValue.Temporal(AdmValue.TemporalKind.values()[tag - DATETIME], text());
                case ARRAY: {
                    int n = count();
                    List<AdmValue> items = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        items.add(node(depth + 1));
                    }
                    return new AdmValue.Array(items);
                }
                case OBJECT: {
                    int n = count();
                    Map<String, AdmValue> fields = new LinkedHashMap<>();
                    for (int i = 0; i < n; i++) {
                        fields.put(text(), node(depth + 1));
                    }
                    return new AdmValue.Obj(fields);
                }
                default:
                    pos = at;
                    throw corrupt("unknown tag " + tag);
            }
        }

        int peek() {
            if (pos >= b.length) {
                throw corrupt("truncated");
            }
            return b[pos] & 0xFF;
        }

        int u8() {
            if (pos >= b.length) {
                throw corrupt("truncated");
            }
            return b[pos++] & 0xFF;
        }

        long varint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int x = u8();
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw corrupt("varint longer than 10 bytes");
        }

        int count() {
            long n = varint();
            if (n < 0 || n > b.length - pos) { // every element takes at least one byte
                throw corrupt("bad length " + n);
            }
            return (int) n;
        }

        long fixed(int n) {
            long v = 0;
            for (int i = 0; i < n; i++) {
                v = (v << 8) | u8();
            }
            return v;
        }

        byte[] raw() {
            int n = count();
            byte[] out = new byte[n];
            System.arraycopy(b, pos, out, 0, n);
            pos += n;
            return out;
        }

        String text() {
            int n = count();
            String s = new String(b, pos, n, StandardCharsets.UTF_8); // decoded in place, no copy of the bytes first
            pos += n;
            return s;
        }

        IllegalArgumentException corrupt(String what) {
            return new IllegalArgumentException("corrupt feed value at offset " + pos + ": " + what);
        }
    }
}
