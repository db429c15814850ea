package io.lsmpolicies.merge.spi;

/**
 * One typed policy parameter: its name, type, inclusive range and default ({@code null} = required).
 *
 * @param name         kebab-case name, e.g. {@code max-tolerance-component-count}
 * @param type         value type
 * @param min          smallest accepted value (inclusive)
 * @param max          largest accepted value (inclusive)
 * @param defaultValue value when not given, or {@code null} if the parameter is required
 * @param description  one line for help and docs
 */
public record ParameterSpec(String name, Type type, Number min, Number max, Number defaultValue, String description) {

    /** Parameter value types. */
    public enum Type {
        /** A Java {@code int}. */
        INT("integer"),
        /** A Java {@code long}. */
        LONG("integer"),
        /** A Java {@code double}. */
        DOUBLE("number");

        private final String word;

        Type(String word) {
            this.word = word;
        }

        /** How the type is named in messages: "integer" or "number". */
        public String word() {
            return word;
        }
    }

    public ParameterSpec {
        if (name == null || !name.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*")) {
            throw new IllegalArgumentException("parameter name must be kebab-case, was '" + name + "'");
        }
        if (type == null || min == null || max == null || description == null) {
            throw new IllegalArgumentException("parameter " + name + ": type, min, max and description are required");
        }
        if (compare(type, min, max) > 0) {
            throw new IllegalArgumentException("parameter " + name + ": min " + min + " > max " + max);
        }
        if (defaultValue != null && !inRange(type, defaultValue, min, max)) {
            throw new IllegalArgumentException("parameter " + name + ": default " + defaultValue + " out of range");
        }
    }

    /** A required {@code int} parameter. */
    public static ParameterSpec requiredInt(String name, int min, int max, String description) {
        return new ParameterSpec(name, Type.INT, min, max, null, description);
    }

    /** An optional {@code int} parameter. */
    public static ParameterSpec optionalInt(String name, int min, int max, int defaultValue, String description) {
        return new ParameterSpec(name, Type.INT, min, max, defaultValue, description);
    }

    /** An optional {@code long} parameter. */
    public static ParameterSpec optionalLong(String name, long min, long max, long defaultValue, String description) {
        return new ParameterSpec(name, Type.LONG, min, max, defaultValue, description);
    }

    /** An optional {@code double} parameter. */
    public static ParameterSpec optionalDouble(String name, double min, double max, double defaultValue,
            String description) {
        return new ParameterSpec(name, Type.DOUBLE, min, max, defaultValue, description);
    }

    /** Whether the parameter must be given. */
    public boolean required() {
        return defaultValue == null;
    }

    /** The accepted values in words, e.g. {@code integer in [1, 1000000]}. */
    public String accepted() {
        return type.word() + " in [" + min + ", " + max + "]";
    }

    /** Whether {@code value} lies within [min, max]. */
    public boolean accepts(Number value) {
        return inRange(type, value, min, max);
    }

    private static boolean inRange(Type type, Number value, Number min, Number max) {
        return compare(type, min, value) <= 0 && compare(type, value, max) <= 0;
    }

    private static int compare(Type type, Number a, Number b) {
        return type == Type.DOUBLE
                ? Double.compare(a.doubleValue(), b.doubleValue())
                : Long.compare(a.longValue(), b.longValue());
    }
}
