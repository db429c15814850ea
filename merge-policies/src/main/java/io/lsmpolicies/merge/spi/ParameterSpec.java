package io.lsmpolicies.merge.spi;

import java.util.List;

/**
 * One typed policy parameter: its name, type, accepted values and default ({@code null} = required).
 * A numeric parameter ({@link Type#INT}, {@link Type#LONG}, {@link Type#DOUBLE}) accepts the inclusive range
 * [{@code min}, {@code max}]; a {@link Type#CHOICE} parameter accepts exactly one of its {@code choices} (kebab-case
 * names, e.g. {@code round-robin}) and has no range.
 *
 * @param name         kebab-case name, e.g. {@code max-tolerance-component-count}
 * @param type         value type
 * @param min          smallest accepted value (inclusive); {@code null} for a choice
 * @param max          largest accepted value (inclusive); {@code null} for a choice
 * @param defaultValue value when not given ({@code Integer}, {@code Long}, {@code Double} or, for a choice, the
 *                     chosen name as a {@code String}), or {@code null} if the parameter is required
 * @param choices      the accepted names of a choice, in the order help lists them; empty for a number
 * @param description  one line for help and docs
 */
public record ParameterSpec(String name, Type type, Number min, Number max, Object defaultValue, List<String> choices,
        String description) {

    /** Parameter value types. */
    public enum Type {
        /** A Java {@code int}. */
        INT("integer"),
        /** A Java {@code long}. */
        LONG("integer"),
        /** A Java {@code double}. */
        DOUBLE("number"),
        /** One name out of a fixed list, e.g. a file picker; the value is a {@code String}. */
        CHOICE("one of");

        private final String word;

        Type(String word) {
            this.word = word;
        }

        /** {@return how the type is named in messages: "integer", "number" or "one of"} */
        public String word() {
            return word;
        }
    }

    private static final String KEBAB = "[a-z][a-z0-9]*(-[a-z0-9]+)*";

    /**
     * Checks the parameter's definition.
     *
     * @param name         kebab-case name
     * @param type         value type
     * @param min          smallest accepted value (inclusive); {@code null} for a choice
     * @param max          largest accepted value (inclusive); {@code null} for a choice
     * @param defaultValue value when not given, or {@code null} if the parameter is required
     * @param choices      the accepted names of a choice; empty or {@code null} for a number
     * @param description  one line for help and docs
     * @throws IllegalArgumentException naming the parameter and the rule, if the name is not kebab-case, the type or
     *                                  description is missing, a range or a choice is malformed, or the default is
     *                                  not accepted
     */
    public ParameterSpec {
        if (name == null || !name.matches(KEBAB)) {
            throw new IllegalArgumentException("parameter name must be kebab-case, was '" + name + "'");
        }
        if (type == null || description == null) {
            throw new IllegalArgumentException("parameter " + name + ": type and description are required");
        }
        choices = choices == null ? List.of() : List.copyOf(choices);
        if (type == Type.CHOICE) {
            if (min != null || max != null) {
                throw new IllegalArgumentException("parameter " + name + ": a choice has no min or max");
            }
            if (choices.isEmpty() || choices.stream().distinct().count() != choices.size()) {
                throw new IllegalArgumentException("parameter " + name + ": a choice needs distinct names, was "
                        + choices);
            }
            for (String c : choices) {
                if (!c.matches(KEBAB)) {
                    throw new IllegalArgumentException("parameter " + name + ": choice '" + c + "' is not kebab-case");
                }
            }
            if (defaultValue != null && !choices.contains(defaultValue)) {
                throw new IllegalArgumentException("parameter " + name + ": default " + defaultValue
                        + " is not one of " + choices);
            }
        } else {
            if (min == null || max == null) {
                throw new IllegalArgumentException("parameter " + name + ": min and max are required");
            }
            if (!choices.isEmpty()) {
                throw new IllegalArgumentException("parameter " + name + ": only a choice has choices");
            }
            if (compare(type, min, max) > 0) {
                throw new IllegalArgumentException("parameter " + name + ": min " + min + " > max " + max);
            }
            if (defaultValue != null
                    && !(defaultValue instanceof Number n && inRange(type, n, min, max))) {
                throw new IllegalArgumentException("parameter " + name + ": default " + defaultValue + " out of range");
            }
        }
    }

    /**
     * {@return a required {@code int} parameter}
     *
     * @param name         kebab-case name
     * @param min          smallest accepted value (inclusive)
     * @param max          largest accepted value (inclusive)
     * @param description  one line for help and docs
     */
    public static ParameterSpec requiredInt(String name, int min, int max, String description) {
        return new ParameterSpec(name, Type.INT, min, max, null, List.of(), description);
    }

    /**
     * {@return an optional {@code int} parameter}
     *
     * @param name         kebab-case name
     * @param min          smallest accepted value (inclusive)
     * @param max          largest accepted value (inclusive)
     * @param defaultValue value when not given
     * @param description  one line for help and docs
     */
    public static ParameterSpec optionalInt(String name, int min, int max, int defaultValue, String description) {
        return new ParameterSpec(name, Type.INT, min, max, defaultValue, List.of(), description);
    }

    /**
     * {@return an optional {@code long} parameter}
     *
     * @param name         kebab-case name
     * @param min          smallest accepted value (inclusive)
     * @param max          largest accepted value (inclusive)
     * @param defaultValue value when not given
     * @param description  one line for help and docs
     */
    public static ParameterSpec optionalLong(String name, long min, long max, long defaultValue, String description) {
        return new ParameterSpec(name, Type.LONG, min, max, defaultValue, List.of(), description);
    }

    /**
     * {@return an optional {@code double} parameter}
     *
     * @param name         kebab-case name
     * @param min          smallest accepted value (inclusive)
     * @param max          largest accepted value (inclusive)
     * @param defaultValue value when not given
     * @param description  one line for help and docs
     */
    public static ParameterSpec optionalDouble(String name, double min, double max, double defaultValue,
            String description) {
        return new ParameterSpec(name, Type.DOUBLE, min, max, defaultValue, List.of(), description);
    }

    /**
     * {@return an optional choice among {@code choices} (kebab-case names), {@code defaultChoice} when not given}
     *
     * @param name          kebab-case name
     * @param choices       the accepted names, in the order help lists them
     * @param defaultChoice the name chosen when none is given, one of {@code choices}
     * @param description   one line for help and docs
     */
    public static ParameterSpec optionalChoice(String name, List<String> choices, String defaultChoice,
            String description) {
        return new ParameterSpec(name, Type.CHOICE, null, null, defaultChoice, choices, description);
    }

    /** {@return whether the parameter must be given} */
    public boolean required() {
        return defaultValue == null;
    }

    /**
     * {@return the accepted values in words, e.g. {@code integer in [1, 1000000]} or {@code one of static, dynamic}}
     */
    public String accepted() {
        if (type == Type.CHOICE) {
            return type.word() + " " + String.join(", ", choices);
        }
        return type.word() + " in [" + min + ", " + max + "]";
    }

    /**
     * {@return whether {@code value} is accepted: a number within [min, max], or one of the choices}
     *
     * @param value a parsed value ({@code Integer}, {@code Long}, {@code Double} or {@code String})
     */
    public boolean accepts(Object value) {
        if (type == Type.CHOICE) {
            return value instanceof String s && choices.contains(s);
        }
        return value instanceof Number n && inRange(type, n, min, max);
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
