package io.lsmpolicies.merge;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A policy named with raw (unvalidated) parameter values, in the text form {@code name} or
 * {@code name:param=value,param=value} (e.g. {@code binomial:k=4}). Validation happens in
 * {@link MergePolicies#create}.
 *
 * @param name       the policy name
 * @param parameters raw values by parameter name, in the order given
 */
public record PolicySpec(String name, Map<String, String> parameters) {

    /**
     * Copies the parameters, keeping their order.
     *
     * @param name       the policy name
     * @param parameters raw values by parameter name
     * @throws PolicyConfigurationException if the name is blank
     */
    public PolicySpec {
        if (name == null || name.isBlank()) {
            throw new PolicyConfigurationException(String.valueOf(name), null, null, "a policy name is required");
        }
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /**
     * Parses the text form.
     *
     * @param text {@code name} or {@code name:param=value,param=value}
     * @return the spec
     * @throws PolicyConfigurationException if a pair is not {@code param=value} or a parameter repeats
     */
    public static PolicySpec parse(String text) {
        String trimmed = text.trim();
        int colon = trimmed.indexOf(':');
        String name = colon < 0 ? trimmed : trimmed.substring(0, colon).trim();
        Map<String, String> params = new LinkedHashMap<>();
        if (colon >= 0) {
            for (String pair : trimmed.substring(colon + 1).split(",")) {
                if (pair.isBlank()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new PolicyConfigurationException(name, pair.trim(), null, "policy '" + name
                            + "': expected param=value, got '" + pair.trim() + "' in '" + text + "'");
                }
                String key = pair.substring(0, eq).trim();
                if (params.put(key, pair.substring(eq + 1).trim()) != null) {
                    throw new PolicyConfigurationException(name, key, null,
                            "policy '" + name + "': parameter '" + key + "' given twice in '" + text + "'");
                }
            }
        }
        return new PolicySpec(name, params);
    }

    /**
     * The spec of {@code policy} with every parameter value it was created with, defaults included (a parameter
     * without a value is left out), in the order its factory lists them: {@code MergePolicies.create} of the
     * result makes a policy with the same name and parameters. What a store records so that it can be reopened
     * without being told its policy again.
     *
     * @param policy a policy made by {@code MergePolicies}
     * @return its spec
     */
    public static PolicySpec of(MergePolicy policy) {
        Map<String, String> values = new LinkedHashMap<>();
        policy.parameters().values().forEach((k, v) -> {
            if (v != null) {
                values.put(k, v.toString());
            }
        });
        return new PolicySpec(policy.name(), values);
    }

    /**
     * {@return this spec with {@code extra} values added where this spec gives none}
     *
     * @param extra raw values by parameter name
     */
    public PolicySpec withDefaults(Map<String, String> extra) {
        Map<String, String> merged = new LinkedHashMap<>(extra);
        merged.putAll(parameters);
        return new PolicySpec(name, merged);
    }

    /** The text form, e.g. {@code binomial:k=4}. */
    @Override
    public String toString() {
        if (parameters.isEmpty()) {
            return name;
        }
        List<String> pairs = new ArrayList<>();
        parameters.forEach((k, v) -> pairs.add(k + "=" + v));
        return name + ":" + String.join(",", pairs);
    }
}
