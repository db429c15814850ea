package io.lsmpolicies.merge.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Validated parameter values of one policy, every declared parameter present (defaults filled in).
 * {@link #parse} is the one place where user-supplied values (strings or numbers) are checked.
 *
 * @param policy the policy name
 * @param values parameter name to value, in declaration order: an {@code Integer}, {@code Long} or
 *               {@code Double} for a numeric parameter, the chosen name ({@code String}) for a choice
 */
public record PolicyParameters(String policy, Map<String, Object> values) {

    /**
     * Copies the values, keeping their order.
     *
     * @param policy the policy name
     * @param values parameter name to value
     */
    public PolicyParameters {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * Validates {@code given} against {@code specs}. Values may be {@link Number}s or strings.
     *
     * @param policy the policy name, for the error messages
     * @param specs  the parameters the policy accepts
     * @param given  the values given, by parameter name
     * @return every parameter's value: the given one, converted to the parameter's type, or its default
     * @throws PolicyConfigurationException naming the policy, parameter, value and accepted range
     */
    public static PolicyParameters parse(String policy, List<ParameterSpec> specs, Map<String, ?> given) {
        Map<String, ParameterSpec> byName = new LinkedHashMap<>();
        for (ParameterSpec spec : specs) {
            byName.put(spec.name(), spec);
        }
        for (String name : new TreeSet<>(given.keySet())) {
            if (!byName.containsKey(name)) {
                throw new PolicyConfigurationException(policy, name, String.valueOf(given.get(name)),
                        "policy '" + policy + "' has no parameter '" + name + "'; its parameters are: "
                                + describe(specs));
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (ParameterSpec spec : specs) {
            Object raw = given.get(spec.name());
            if (raw == null) {
                if (spec.required()) {
                    throw new PolicyConfigurationException(policy, spec.name(), null, "policy '" + policy
                            + "' needs parameter '" + spec.name() + "' (" + spec.accepted() + "): " + spec.description());
                }
                values.put(spec.name(), spec.defaultValue());
                continue;
            }
            Object value = convert(policy, spec, raw);
            if (!spec.accepts(value)) {
                throw outOfRange(policy, spec, raw);
            }
            values.put(spec.name(), value);
        }
        return new PolicyParameters(policy, values);
    }

    private static Object convert(String policy, ParameterSpec spec, Object raw) {
        String text = raw instanceof Number n ? numberText(n) : raw.toString().trim();
        if (spec.type() == ParameterSpec.Type.CHOICE) {
            if (!spec.choices().contains(text)) {
                throw new PolicyConfigurationException(policy, spec.name(), String.valueOf(raw), "policy '" + policy
                        + "': parameter '" + spec.name() + "' = '" + raw + "' is not a known choice; accepted: "
                        + spec.accepted());
            }
            return text;
        }
        if (spec.type() == ParameterSpec.Type.DOUBLE) {
            try {
                double d = Double.parseDouble(text);
                if (Double.isFinite(d)) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw malformed(policy, spec, raw, "not a finite number");
        }
        if (!text.matches("[-+]?\\d+")) {
            throw malformed(policy, spec, raw, "not an integer");
        }
        java.math.BigInteger big = new java.math.BigInteger(text);
        java.math.BigInteger lo = java.math.BigInteger.valueOf(spec.min().longValue());
        java.math.BigInteger hi = java.math.BigInteger.valueOf(spec.max().longValue());
        if (big.compareTo(lo) < 0 || big.compareTo(hi) > 0) {
            throw outOfRange(policy, spec, raw);
        }
        return spec.type() == ParameterSpec.Type.INT ? (Number) big.intValueExact() : (Number) big.longValueExact();
    }

    private static PolicyConfigurationException malformed(String policy, ParameterSpec spec, Object raw, String what) {
        return new PolicyConfigurationException(policy, spec.name(), String.valueOf(raw), "policy '" + policy
                + "': parameter '" + spec.name() + "' = '" + raw + "' is " + what + "; accepted: " + spec.accepted());
    }

    private static PolicyConfigurationException outOfRange(String policy, ParameterSpec spec, Object raw) {
        return new PolicyConfigurationException(policy, spec.name(), String.valueOf(raw), "policy '" + policy
                + "': parameter '" + spec.name() + "' = " + raw + " is out of range; accepted: " + spec.accepted());
    }

    private static String numberText(Number n) {
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
        }
        return n.toString();
    }

    private static String describe(List<ParameterSpec> specs) {
        if (specs.isEmpty()) {
            return "(none)";
        }
        List<String> parts = new ArrayList<>();
        for (ParameterSpec s : specs) {
            parts.add(s.name() + " (" + s.accepted() + (s.required() ? ", required" : ", default " + s.defaultValue())
                    + ")");
        }
        return String.join(", ", parts);
    }

    /**
     * {@return an {@code int} parameter} REQUIRES: declared as {@link ParameterSpec.Type#INT}.
     *
     * @param name the parameter's name
     */
    public int getInt(String name) {
        return number(name).intValue();
    }

    /**
     * {@return a {@code long} parameter}
     *
     * @param name the parameter's name
     */
    public long getLong(String name) {
        return number(name).longValue();
    }

    /**
     * {@return a {@code double} parameter}
     *
     * @param name the parameter's name
     */
    public double getDouble(String name) {
        return number(name).doubleValue();
    }

    /**
     * {@return the chosen name of a choice parameter} REQUIRES: declared as {@link ParameterSpec.Type#CHOICE}.
     *
     * @param name the parameter's name
     */
    public String getChoice(String name) {
        Object v = lookup(name);
        if (v instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException("policy '" + policy + "': parameter '" + name + "' is a number, not a choice");
    }

    /**
     * {@return whether the policy declares parameter {@code name}}
     *
     * @param name the parameter's name
     */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    private Number number(String name) {
        Object v = lookup(name);
        if (v instanceof Number n) {
            return n;
        }
        throw new IllegalArgumentException("policy '" + policy + "': parameter '" + name + "' is a choice, not a number");
    }

    private Object lookup(String name) {
        Object v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("policy '" + policy + "' has no parameter '" + name + "'");
        }
        return v;
    }

    /** {@code name=value} pairs, e.g. {@code k=4, lambda=1.2} or {@code picker=round-robin}. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        values.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(", ", parts);
    }
}
