package io.lsmpolicies.merge;

import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * AsterixDB 0.9.8's merge-policy parameter names, as aliases of ours: AsterixDB's DDL
 * ({@code WITH {"merge-policy": {"name": "constant", "parameters": {"num-components": 4}}}}) accepts only its fixed
 * names, and a user coming from it writes them. Every policy that has an AsterixDB counterpart accepts them
 * wherever a policy is named ({@link MergePolicies#create(String, Map)}, so the text form
 * {@code constant:num-components=4}, the JSON object of a descriptor and the Hyracks adapter alike). The one table
 * of which AsterixDB name sets which of our parameters.
 */
public final class AsterixNames {
    /** AsterixDB 0.9.8's merge-policy parameter names: the only ones its DDL accepts. */
    public static final Set<String> ALL = Set.of("max-mergable-component-size", "max-tolerance-component-count",
            "num-components", "size-ratio", "max-component-count", "min-merge-component-count",
            "max-merge-component-count");

    private static final Map<String, Map<String, String>> BY_POLICY = Map.of(
            "constant", names("num-components", "k"),
            "binomial", names("num-components", "k"),
            "bigtable", names("num-components", "k"),
            "minlatency", names("num-components", "k"),
            "exploring", names("max-component-count", "k", "size-ratio", "lambda",
                    "min-merge-component-count", "min", "max-merge-component-count", "max"),
            "prefix", names("max-mergable-component-size", "max-mergable-component-size",
                    "max-tolerance-component-count", "max-tolerance-component-count"),
            "tiered", names("size-ratio", "size-ratio"));

    private AsterixNames() {
    }

    private static Map<String, String> names(String... asterixThenOurs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < asterixThenOurs.length; i += 2) {
            m.put(asterixThenOurs[i], asterixThenOurs[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }

    /**
     * AsterixDB name to our parameter name for {@code policy}, in the order help lists them; empty for a policy
     * AsterixDB has no counterpart of (the leveled family, {@code adaptive}, {@code no-merge}).
     *
     * @param policy our registered name of a policy
     * @return AsterixDB parameter name to ours
     */
    public static Map<String, String> of(String policy) {
        return BY_POLICY.getOrDefault(policy, Map.of());
    }

    /**
     * {@code given} with each AsterixDB name of {@code policy} replaced by our name; our own names and unknown
     * names pass unchanged (the policy's parameter check reports the unknown ones).
     *
     * @throws PolicyConfigurationException if a parameter is given under both names
     */
    static Map<String, Object> resolve(String policy, Map<String, ?> given) {
        Map<String, String> aliases = of(policy);
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : given.entrySet()) {
            String ours = aliases.getOrDefault(e.getKey(), e.getKey());
            if (!ours.equals(e.getKey()) && given.containsKey(ours)) {
                throw new PolicyConfigurationException(policy, ours, String.valueOf(e.getValue()), "policy '"
                        + policy + "': give '" + ours + "' or its AsterixDB name '" + e.getKey() + "', not both");
            }
            out.put(ours, e.getValue());
        }
        return out;
    }
}
