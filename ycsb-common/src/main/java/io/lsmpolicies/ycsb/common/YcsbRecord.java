package io.lsmpolicies.ycsb.common;

import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.records.KeyEncoder;
import io.lsmpolicies.records.ValueCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
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

    /**
     * {@return the store key of YCSB key {@code key}}
     *
     * @param key a YCSB key
     */
    public static byte[] key(String key) {
        return KeyEncoder.of(key);
    }

    /**
     * {@return a new record: the key, then {@code values} in {@link #FIELD_ORDER}, each as binary ({@code hex})}
     *
     * @param key    a YCSB key
     * @param values the fields YCSB writes
     */
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

    /**
     * {@return {@code stored} with {@code values} written over it: replaced in place, new fields appended in order}
     *
     * @param stored the stored record
     * @param values the fields YCSB writes
     */
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
     *
     * @param values the fields an update writes
     * @param schema the workload's field names ({@link #schema})
     * @return whether the update writes the whole record
     */
    public static boolean isWhole(Map<String, ByteIterator> values, Set<String> schema) {
        return !schema.isEmpty() && values.size() == schema.size() && schema.containsAll(values.keySet());
    }

    /**
     * YCSB's field names: {@code fieldnameprefix} (default "field") followed by 0 .. fieldcount-1 (default 10); empty
     * if {@code fieldcount} is not a number. An update writing all of them replaces the record without reading it
     * ({@link #isWhole}).
     *
     * @param p YCSB's properties
     * @return the field names
     */
    public static Set<String> schema(Properties p) {
        String prefix = p.getProperty("fieldnameprefix", "field");
        long count;
        try {
            count = Long.parseLong(p.getProperty("fieldcount", "10").trim());
        } catch (NumberFormatException e) {
            return Set.of(); // the workload validates its own properties; no whole-record shortcut then
        }
        Set<String> names = new TreeSet<>();
        for (long i = 0; i < Math.min(count, 100_000); i++) {
            names.add(prefix + i);
        }
        return Set.copyOf(names);
    }

    /**
     * {@return the stored value of {@code record}}
     *
     * @param record a record
     */
    public static byte[] encode(AdmValue.Obj record) {
        return ValueCodec.encode(record);
    }

    /**
     * The record {@link #encode} stored.
     *
     * @param value a stored value
     * @return the record
     * @throws IllegalArgumentException if {@code value} is not a stored record, or not an object
     */
    public static AdmValue.Obj decode(byte[] value) {
        if (ValueCodec.decode(value) instanceof AdmValue.Obj o) {
            return o;
        }
        throw new IllegalArgumentException("the stored value is not a record (an ADM object)");
    }

    /**
     * Puts {@code fields} of {@code record} (all but the key when null; absent ones are left out) into
     * {@code out}: binary fields as their bytes, strings as UTF-8, anything else as its ADM text.
     *
     * @param record a record
     * @param fields the fields YCSB asks for, or null for all
     * @param out    receives the fields
     */
    public static void fields(AdmValue.Obj record, Set<String> fields, Map<String, ByteIterator> out) {
        record.fields().forEach((name, v) -> {
            if (wanted(name, fields)) {
                out.put(name, new ByteArrayByteIterator(bytes(v)));
            }
        });
    }

    /**
     * As {@code fields(decode(stored), fields, out)}, read from the stored value without building the record: each
     * binary or string field is handed to YCSB as a view of {@code stored} (no copy), which the caller must not
     * change afterwards.
     *
     * @param stored a stored value ({@link #encode})
     * @param fields the fields YCSB asks for, or null for all
     * @param out    receives the fields
     * @throws IllegalArgumentException if {@code stored} is not a stored record, or not an object
     */
    public static void fields(byte[] stored, Set<String> fields, Map<String, ByteIterator> out) {
        ValueCodec.forEachField(stored, new ValueCodec.FieldVisitor() {
            @Override
            public void bytes(String name, boolean text, byte[] bytes, int offset, int length) {
                if (wanted(name, fields)) {
                    out.put(name, new ByteArrayByteIterator(bytes, offset, length));
                }
            }

            @Override
            public void value(String name, AdmValue v) {
                if (wanted(name, fields)) {
                    out.put(name, new ByteArrayByteIterator(YcsbRecord.bytes(v)));
                }
            }
        });
    }

    /** Whether YCSB asked for field {@code name}: every field but the key when {@code fields} is null. */
    private static boolean wanted(String name, Set<String> fields) {
        return fields == null ? !name.equals(KEY_FIELD) : fields.contains(name);
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
}
