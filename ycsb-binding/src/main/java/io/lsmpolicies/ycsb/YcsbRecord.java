package io.lsmpolicies.ycsb;

import com.fasterxml.jackson.databind.JsonNode;
import io.lsmpolicies.feeds.AdmValue;
import io.lsmpolicies.feeds.KeyEncoder;
import io.lsmpolicies.feeds.ValueCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * A YCSB record in the form the socket feed stores it, so that both modes hold the same bytes: the ADM object
 * {@code {"YCSB_KEY":"user123","field0":hex("..."),...}} (the AsterixDB YCSB client's record), the key encoded by
 * {@link KeyEncoder} as the single string field {@code YCSB_KEY}, the value by {@link ValueCodec}. Fields follow
 * the key in {@link #FIELD_ORDER} (shorter names first, then alphabetical: field0 .. field9, field10 ..); an
 * update keeps the stored order and appends new fields. Stateless. Public so that the peer bindings
 * ({@code ycsb-rocksdb}, {@code ycsb-hyracks}) store exactly these key and value bytes.
 */
public final class YcsbRecord {
    /** The primary key field, as AsterixDB's YCSB client names it. */
    public static final String KEY_FIELD = "YCSB_KEY";
    /** The order of a new record's fields. */
    public static final Comparator<String> FIELD_ORDER = Comparator.comparingInt(String::length)
            .thenComparing(Comparator.naturalOrder());

    private YcsbRecord() {
    }

    /** The store key of YCSB key {@code key}. */
    public static byte[] key(String key) {
        return KeyEncoder.of(key);
    }

    /** A new record: the key, then {@code values} in {@link #FIELD_ORDER}, each as binary ({@code hex}). */
    public static AdmValue.Obj of(String key, Map<String, ByteIterator> values) {
        Map<String, AdmValue> fields = new LinkedHashMap<>();
        fields.put(KEY_FIELD, new AdmValue.Str(key));
        List<String> names = new ArrayList<>(values.keySet());
        names.sort(FIELD_ORDER);
        for (String name : names) {
            fields.put(name, new AdmValue.Binary(values.get(name).toArray()));
        }
        return new AdmValue.Obj(fields);
    }

    /** {@code stored} with {@code values} written over it: replaced in place, new fields appended in order. */
    public static AdmValue.Obj merge(AdmValue.Obj stored, Map<String, ByteIterator> values) {
        Map<String, AdmValue> fields = new LinkedHashMap<>(stored.fields());
        List<String> names = new ArrayList<>(values.keySet());
        names.sort(FIELD_ORDER);
        for (String name : names) {
            fields.put(name, new AdmValue.Binary(values.get(name).toArray()));
        }
        return new AdmValue.Obj(fields);
    }

    /**
     * Whether an update of {@code values} writes every field of {@code schema} (and no other), so it may replace
     * the record without reading it, as the feed's upsert does.
     */
    public static boolean isWhole(Map<String, ByteIterator> values, Set<String> schema) {
        return !schema.isEmpty() && values.size() == schema.size() && schema.containsAll(values.keySet());
    }

    /** The stored value of {@code record}. */
    public static byte[] encode(AdmValue.Obj record) {
        return ValueCodec.encode(record);
    }

    /**
     * @throws IllegalArgumentException if {@code value} is not a stored record, or not an object
     */
    public static AdmValue.Obj decode(byte[] value) {
        if (ValueCodec.decode(value) instanceof AdmValue.Obj o) {
            return o;
        }
        throw new IllegalArgumentException("the stored value is not a record (an ADM object)");
    }

    /** The record as ADM text, as the AsterixDB YCSB client sends it (no whitespace, no newline). */
    static byte[] adm(AdmValue.Obj record) {
        return record.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Puts {@code fields} of {@code record} (all but the key when null; absent ones are left out) into
     * {@code out}: binary fields as their bytes, strings as UTF-8, anything else as its ADM text.
     */
    public static void fields(AdmValue.Obj record, Set<String> fields, Map<String, ByteIterator> out) {
        if (fields == null) {
            record.fields().forEach((name, v) -> {
                if (!name.equals(KEY_FIELD)) {
                    out.put(name, new ByteArrayByteIterator(bytes(v)));
                }
            });
        } else {
            for (String name : fields) {
                AdmValue v = record.get(name);
                if (v != null) {
                    out.put(name, new ByteArrayByteIterator(bytes(v)));
                }
            }
        }
    }

    private static byte[] bytes(AdmValue v) {
        if (v instanceof AdmValue.Binary b) {
            return b.bytes();
        }
        if (v instanceof AdmValue.Str s) {
            return s.value().getBytes(StandardCharsets.UTF_8);
        }
        return v.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A record as the node server's HTTP API returns it (JSON: {@code hex} values as hex strings), back as the
     * stored {@link AdmValue}: the key field a string, every other string that is valid hex a {@code hex} value
     * (YCSB's fields are), other strings strings, integers {@code int64}, other numbers {@code double}. JSON
     * cannot tell a hex string from a string of hex digits; YCSB records have no such strings.
     *
     * @throws IllegalArgumentException if {@code json} is not an object
     */
    static AdmValue.Obj fromJson(JsonNode json) {
        if (!json.isObject()) {
            throw new IllegalArgumentException("expected a record (a JSON object), got " + json.getNodeType());
        }
        Map<String, AdmValue> fields = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            fields.put(f.getKey(), f.getKey().equals(KEY_FIELD) && f.getValue().isTextual()
                    ? new AdmValue.Str(f.getValue().asText()) : value(f.getValue()));
        }
        return new AdmValue.Obj(fields);
    }

    private static AdmValue value(JsonNode n) {
        if (n.isTextual()) {
            String s = n.asText();
            if (s.length() % 2 == 0 && HexFormat.isHexDigit(s.isEmpty() ? '0' : s.charAt(0))) {
                try {
                    return new AdmValue.Binary(HexFormat.of().parseHex(s));
                } catch (IllegalArgumentException e) {
                    return new AdmValue.Str(s);
                }
            }
            return new AdmValue.Str(s);
        }
        if (n.isIntegralNumber() && n.canConvertToLong()) {
            return new AdmValue.Int(AdmValue.IntKind.INT64, n.asLong());
        }
        if (n.isNumber()) {
            return new AdmValue.Real(n.asDouble(), false);
        }
        if (n.isBoolean()) {
            return new AdmValue.Bool(n.asBoolean());
        }
        if (n.isArray()) {
            List<AdmValue> items = new ArrayList<>();
            n.forEach(item -> items.add(value(item)));
            return new AdmValue.Array(items);
        }
        if (n.isObject()) {
            Map<String, AdmValue> fields = new LinkedHashMap<>();
            n.fields().forEachRemaining(f -> fields.put(f.getKey(), value(f.getValue())));
            return new AdmValue.Obj(fields);
        }
        return AdmValue.Null.INSTANCE;
    }

    /** {@link #fields} of a record as the HTTP API returns it. */
    static void fields(JsonNode json, Set<String> fields, Map<String, ByteIterator> out) {
        fields(fromJson(json), fields, out);
    }
}
