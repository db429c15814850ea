package io.lsmpolicies.records;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable parsed record value: the small subset of the AsterixDB Data Model (ADM) that socket-feed clients
 * send. Both the {@code json} and the {@code adm} formats parse into this one tree; {@link Object#toString()} prints
 * canonical ADM text ({@code int64(5)} prints as {@code 5}, as in AsterixDB, other typed values keep their
 * constructor).
 *
 * <p>Integers keep their ADM width ({@link IntKind}) but compare and encode as keys by value; a plain JSON
 * integer is {@code int64}. Floating point values keep whether they were {@code float} or {@code double}.
 */
public sealed interface AdmValue {

    /** The ADM integer types; a plain JSON integer is {@link #INT64}. */
    enum IntKind {
        INT8("int8", Byte.MIN_VALUE, Byte.MAX_VALUE),
        INT16("int16", Short.MIN_VALUE, Short.MAX_VALUE),
        INT32("int32", Integer.MIN_VALUE, Integer.MAX_VALUE),
        INT64("int64", Long.MIN_VALUE, Long.MAX_VALUE);

        final String constructor;
        final long min;
        final long max;

        IntKind(String constructor, long min, long max) {
            this.constructor = constructor;
            this.min = min;
            this.max = max;
        }

        /** The ADM constructor's name, e.g. {@code int8}. */
        public String constructor() {
            return constructor;
        }
    }

    /** ADM {@code null} (JSON {@code null}). */
    record Null() implements AdmValue {
        public static final Null INSTANCE = new Null();

        @Override
        public String toString() {
            return "null";
        }
    }

    record Bool(boolean value) implements AdmValue {
        @Override
        public String toString() {
            return Boolean.toString(value);
        }
    }

    /** An integer of width {@code kind}; {@code value} is within the kind's range. */
    record Int(IntKind kind, long value) implements AdmValue {
        public Int {
            Objects.requireNonNull(kind, "kind");
            if (value < kind.min || value > kind.max) {
                throw new IllegalArgumentException(value + " is out of range for " + kind.constructor);
            }
        }

        @Override
        public String toString() {
            return kind == IntKind.INT64 ? Long.toString(value) : kind.constructor + "(" + value + ")";
        }
    }

    /** A {@code double} (or, if {@code single}, an ADM {@code float}, whose value fits a float). */
    record Real(double value, boolean single) implements AdmValue {
        @Override
        public String toString() {
            String text = single ? Float.toString((float) value) : Double.toString(value);
            return (single ? "float(" : "double(") + text + ")";
        }
    }

    record Str(String value) implements AdmValue {
        public Str {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return AdmText.quote(value);
        }
    }

    /** ADM {@code hex("...")}: binary data. The array is copied in and out. */
    record Binary(byte[] bytes) implements AdmValue {
        public Binary {
            bytes = bytes.clone();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        int length() {
            return bytes.length;
        }

        byte[] unsafeBytes() {
            return bytes;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Binary b && Arrays.equals(bytes, b.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "hex(\"" + AdmText.hex(bytes) + "\")";
        }
    }

    /** The temporal constructors, kept as the client's text (not validated beyond being a string). */
    enum TemporalKind {
        DATETIME("datetime"), DATE("date"), TIME("time");

        final String constructor;

        TemporalKind(String constructor) {
            this.constructor = constructor;
        }

        /** The ADM constructor's name, e.g. {@code datetime}. */
        public String constructor() {
            return constructor;
        }
    }

    record Temporal(TemporalKind kind, String text) implements AdmValue {
        public Temporal {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(text, "text");
        }

        @Override
        public String toString() {
            return kind.constructor + "(" + AdmText.quote(text) + ")";
        }
    }

    /** An array (ordered list); {@code items} is copied and unmodifiable. */
    record Array(List<AdmValue> items) implements AdmValue {
        public Array {
            items = List.copyOf(items);
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < items.size(); i++) {
                b.append(i == 0 ? "" : ",").append(items.get(i));
            }
            return b.append(']').toString();
        }
    }

    /** An object (record); fields keep the client's order; {@code fields} is copied and unmodifiable. */
    record Obj(Map<String, AdmValue> fields) implements AdmValue {
        public Obj {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }

        /** The field's value, or null if absent. */
        public AdmValue get(String name) {
            return fields.get(name);
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("{");
            boolean first = true;
            for (Map.Entry<String, AdmValue> e : fields.entrySet()) {
                b.append(first ? "" : ",").append(AdmText.quote(e.getKey())).append(':').append(e.getValue());
                first = false;
            }
            return b.append('}').toString();
        }
    }
}
