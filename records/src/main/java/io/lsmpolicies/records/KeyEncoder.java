package io.lsmpolicies.records;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Encodes a record's primary key field(s) as bytes whose unsigned lexicographic order (the store's order) is the
 * order of the key values, field by field. Each field is a type tag followed by its value:
 * <pre>
 *   0x20 integer  8 bytes big-endian, sign bit flipped (int8..int64 all widen to int64: int32(5) == 5)
 *   0x30 double   8 bytes big-endian of the IEEE bits: sign bit flipped if positive, all bits flipped if
 *                 negative (-0.0 is encoded as 0.0, NaN canonical and above +Infinity; float widens to double)
 *   0x40 string   UTF-8, each 0x00 written as 0x00 0xFF, then the terminator 0x00 0x01
 *   0x50 hex      the bytes, escaped and terminated as a string
 * </pre>
 * Strings therefore order by code point, a prefix before its extensions, and a composite key's fields cannot
 * run into each other. Values of different types order by tag (every integer before every double); a dataset
 * should use one type per key field. Any other type (null, boolean, temporal, array, object) is not a key.
 * Immutable and thread-safe.
 */
public final class KeyEncoder {
    static final int TAG_INT = 0x20;
    static final int TAG_DOUBLE = 0x30;
    static final int TAG_STRING = 0x40;
    static final int TAG_BINARY = 0x50;

    private final List<String> fields;

    /**
     * An encoder of the keys made of {@code fields}' values, in that order.
     *
     * @param fields the primary key's field names, at least one
     * @throws IllegalArgumentException if {@code fields} is empty or holds a blank name
     */
    public KeyEncoder(List<String> fields) {
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("a dataset needs at least one primary key field");
        }
        for (String f : fields) {
            if (f == null || f.isBlank()) {
                throw new IllegalArgumentException("a primary key field name is blank: " + fields);
            }
        }
        this.fields = List.copyOf(fields);
    }

    /** {@return the primary key's field names, in key order} */
    public List<String> fields() {
        return fields;
    }

    /**
     * The key of {@code record}.
     *
     * @param record a record holding every key field
     * @return the key's bytes, which compare as unsigned bytes in the order of the key fields' values
     * @throws IllegalArgumentException naming the field, if a key field is absent, null or not a key type
     */
    public byte[] encode(AdmValue.Obj record) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(32);
        for (String f : fields) {
            AdmValue v = record.get(f);
            if (v == null) {
                throw new IllegalArgumentException("primary key field \"" + f + "\" is missing");
            }
            if (!append(out, v)) {
                throw new IllegalArgumentException("primary key field \"" + f + "\" is " + v
                        + ", not a string, integer, double or hex");
            }
        }
        return out.toByteArray();
    }

    /**
     * The key made of {@code values} (strings, integers, doubles or {@link AdmValue}s), e.g. to look up a
     * record: {@code store.get(KeyEncoder.of("user123"))}.
     *
     * @param values the key fields' values, in key order
     * @return the key's bytes, as {@link #encode} makes them for a record with these values
     */
    public static byte[] of(Object... values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(32);
        for (Object o : values) {
            AdmValue v;
            if (o instanceof AdmValue a) {
                v = a;
            } else if (o instanceof String str) {
                v = new AdmValue.Str(str);
            } else if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
                v = new AdmValue.Int(AdmValue.IntKind.INT64, ((Number) o).longValue());
            } else if (o instanceof Double || o instanceof Float) {
                v = new AdmValue.Real(((Number) o).doubleValue(), false);
            } else {
                throw new IllegalArgumentException("not a key value: " + o);
            }
            if (!append(out, v)) {
                throw new IllegalArgumentException("not a key type: " + v);
            }
        }
        return out.toByteArray();
    }

    private static boolean append(ByteArrayOutputStream out, AdmValue v) {
        if (v instanceof AdmValue.Int i) {
            out.write(TAG_INT);
            writeLong(out, i.value() ^ Long.MIN_VALUE);
        } else if (v instanceof AdmValue.Real r) {
            out.write(TAG_DOUBLE);
            double d = r.value() == 0.0 ? 0.0 : r.value(); // -0.0 == 0.0
            long bits = Double.doubleToLongBits(d);
            writeLong(out, bits < 0 ? ~bits : bits ^ Long.MIN_VALUE);
        } else if (v instanceof AdmValue.Str s) {
            out.write(TAG_STRING);
            escaped(out, s.value().getBytes(StandardCharsets.UTF_8));
        } else if (v instanceof AdmValue.Binary b) {
            out.write(TAG_BINARY);
            escaped(out, b.unsafeBytes());
        } else {
            return false;
        }
        return true;
    }

    private static void escaped(ByteArrayOutputStream out, byte[] bytes) {
        for (byte b : bytes) {
            out.write(b);
            if (b == 0) {
                out.write(0xFF);
            }
        }
        out.write(0);
        out.write(1);
    }

    private static void writeLong(ByteArrayOutputStream out, long v) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.write((int) (v >>> shift));
        }
    }
}
