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
        /** ADM {@code int8}: a byte's range. */
        INT8("int8", Byte.MIN_VALUE, Byte.MAX_VALUE),
        /** ADM {@code int16}: a short's range. */
        INT16("int16", Short.MIN_VALUE, Short.MAX_VALUE),
        /** ADM {@code int32}: an int's range. */
        INT32("int32", Integer.MIN_VALUE, Integer.MAX_VALUE),
        /** ADM {@code int64}: a long's range; what a plain JSON integer is. */
        INT64("int64", Long.MIN_VALUE, Long.MAX_VALUE);

        final String constructor;
        final long min;
        final long max;

        IntKind(String constructor, long min, long max) {
            this.constructor = constructor;
            this.min = min;
            this.max = max;
        }

        /** {@return the ADM constructor's name, e.g. {@code int8}} */
        public String constructor() {
            return constructor;
        }
    }

    /** ADM {@code null} (JSON {@code null}). */
    record Null() implements AdmValue {
        /** The one {@code null} value (every {@code Null} is equal to it). */
        public static final Null INSTANCE = new Null();

        @Override
        public String toString() {
            return "null";
        }
    }

    /**
     * ADM {@code boolean}.
     *
     * @param value the value
     */
    record Bool(boolean value) implements AdmValue {
        @Override
        public String toString() {
            return Boolean.toString(value);
        }
    }

    /**
     * An integer of width {@code kind}; {@code value} is within the kind's range.
     *
     * @param kind  the ADM integer type
     * @param value the value, within {@code kind}'s range
     */
    record Int(IntKind kind, long value) implements AdmValue {
        /**
         * Checks the value against the kind's range.
         *
         * @param kind  the ADM integer type
         * @param value the value
         * @throws IllegalArgumentException naming the value and the kind if the value is out of the kind's range
         */
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

    /**
     * A {@code double} (or, if {@code single}, an ADM {@code float}, whose value fits a float).
     *
     * @param value  the value
     * @param single whether it is an ADM {@code float} rather than a {@code double}
     */
    record Real(double value, boolean single) implements AdmValue {
        @Override
        public String toString() {
            String text = single ? Float.toString((float) value) : Double.toString(value);
            return (single ? "float(" : "double(") + text + ")";
        }
    }

    /**
     * ADM {@code string}.
     *
     * @param value the characters, not null
     */
    record Str(String value) implements AdmValue {
        /**
         * Checks that there is a value.
         *
         * @param value the characters
         * @throws NullPointerException if {@code value} is null
         */
        public Str {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return AdmText.quote(value);
        }
    }

    /**
     * ADM {@code hex("...")}: binary data. The array is copied in and out.
     *
     * @param bytes the data (copied)
     */
    record Binary(byte[] bytes) implements AdmValue {
        /**
         * Copies {@code bytes}.
         *
         * @param bytes the data
         */
        public Binary {
            bytes = bytes.clone();
        }

        /** {@return a copy of the data} */
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
        /** ADM {@code datetime}. */
        DATETIME("datetime"),
        /** ADM {@code date}. */
        DATE("date"),
        /** ADM {@code time}. */
        TIME("time");

        final String constructor;

        TemporalKind(String constructor) {
            this.constructor = constructor;
        }

        /** {@return the ADM constructor's name, e.g. {@code datetime}} */
        public String constructor() {
            return constructor;
        }
    }

    /**
     * A temporal value as the client wrote it, e.g. {@code datetime("2024-01-01T00:00:00")}.
     *
     * @param kind the constructor
     * @param text the text inside the constructor's quotes, not validated
     */
    record Temporal(TemporalKind kind, String text) implements AdmValue {
        /**
         * Checks that there are a kind and a text.
         *
         * @param kind the constructor
         * @param text the text inside the constructor's quotes
         * @throws NullPointerException if {@code kind} or {@code text} is null
         */
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
        /**
         * Copies {@code items}.
         *
         * @param items the items, in order
         */
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
        /**
         * Copies {@code fields}, keeping their order.
         *
         * @param fields the fields by name, in the client's order
         */
        public Obj {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }

        /**
         * {@return the field's value, or null if absent}
         *
         * @param name the field's name
         */
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
