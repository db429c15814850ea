package io.lsmpolicies.merge.hyracks;

import io.lsmpolicies.merge.AsterixNames;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How one of our policies is configured from AsterixDB: which of AsterixDB 0.9.8's fixed merge-policy
 * parameter names it accepts and which of our parameters each one sets. The one place where the string map
 * Hyracks hands to {@code ILSMMergePolicyFactory.createMergePolicy} is read.
 *
 * <p>AsterixDB's DDL ({@code WITH {"merge-policy": {"name": ..., "parameters": {...}}}}) accepts only the names
 * {@code max-mergable-component-size}, {@code max-tolerance-component-count}, {@code num-components},
 * {@code size-ratio}, {@code max-component-count}, {@code min-merge-component-count} and
 * {@code max-merge-component-count}, all 64-bit integers except {@code size-ratio}, a double; it passes
 * their values on as text ({@code "4"}, {@code "1.2"}, {@code "4.0"}). So an integral double such as
 * {@code "4.0"} is accepted for an integer parameter; anything else is validated by our own
 * {@link io.lsmpolicies.merge.spi.PolicyParameters}, and errors are reported under the AsterixDB name.
 *
 * @param policy our registered name of a stack policy, e.g. {@code binomial}
 * @param names  AsterixDB parameter name to our parameter name, in the order help lists them; every parameter
 *               of the policy has exactly one AsterixDB name
 */
public record AsterixParameters(String policy, Map<String, String> names) {

    /** AsterixDB 0.9.8's merge-policy parameter names: the only ones its DDL accepts ({@link AsterixNames#ALL}). */
    public static final Set<String> ASTERIX_NAMES = AsterixNames.ALL;

    /**
     * Copies the names and checks them against the policy.
     *
     * @param policy our registered name of a stack policy
     * @param names  AsterixDB parameter name to our parameter name
     * @throws IllegalArgumentException naming the policy or parameter, if the policy is not a stack policy or the names
     *                                  do not cover its parameters one to one
     */
    public AsterixParameters {
        names = Collections.unmodifiableMap(new LinkedHashMap<>(names));
        if (MergePolicies.factory(policy).layout() != PolicyLayout.STACK) {
            throw new IllegalArgumentException("policy '" + policy
                    + "' is not a stack policy; a Hyracks LSM index keeps one stack of disk components");
        }
        Map<String, ParameterSpec> ours = specs(policy);
        for (Map.Entry<String, String> e : names.entrySet()) {
            if (!ASTERIX_NAMES.contains(e.getKey())) {
                throw new IllegalArgumentException("'" + e.getKey() + "' is not an AsterixDB merge-policy parameter");
            }
            if (!ours.containsKey(e.getValue())) {
                throw new IllegalArgumentException("policy '" + policy + "' has no parameter '" + e.getValue() + "'");
            }
        }
        if (!new LinkedHashSet<>(names.values()).containsAll(ours.keySet()) || names.size() != ours.size()) {
            throw new IllegalArgumentException("policy '" + policy + "': every parameter " + ours.keySet()
                    + " needs exactly one AsterixDB name, got " + names);
        }
    }

    /**
     * {@return a mapping from alternating AsterixDB and our names: {@code of("binomial", "num-components", "k")}}
     *
     * @param policy          our registered name of a stack policy
     * @param asterixThenOurs AsterixDB's name, then ours, for every parameter
     */
    public static AsterixParameters of(String policy, String... asterixThenOurs) {
        Map<String, String> names = new LinkedHashMap<>();
        for (int i = 0; i + 1 < asterixThenOurs.length; i += 2) {
            names.put(asterixThenOurs[i], asterixThenOurs[i + 1]);
        }
        return new AsterixParameters(policy, names);
    }

    /**
     * {@return the AsterixDB names of {@code policy}, from the one table of them ({@link AsterixNames})}
     *
     * @param policy our registered name of a stack policy
     */
    public static AsterixParameters forPolicy(String policy) {
        return new AsterixParameters(policy, AsterixNames.of(policy));
    }

    /** {@return the AsterixDB names this policy accepts (what {@code getPropertiesNames()} returns), in order} */
    public Set<String> asterixNames() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(names.keySet()));
    }

    /**
     * Creates our policy from AsterixDB's properties ({@code null} is taken as none).
     *
     * @param properties AsterixDB's merge-policy properties, by AsterixDB name
     * @return the policy
     * @throws PolicyConfigurationException whose {@code parameter()} is the AsterixDB name at fault and whose
     *                                      message names it, our parameter, the value and the accepted range
     */
    public MergePolicy create(Map<String, String> properties) {
        Map<String, String> given = properties == null ? Map.of() : properties;
        Map<String, ParameterSpec> specs = specs(policy);
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : given.entrySet()) {
            String ours = names.get(e.getKey());
            if (ours == null) {
                throw new PolicyConfigurationException(policy, e.getKey(), e.getValue(), "AsterixDB merge policy '"
                        + policy + "' has no parameter '" + e.getKey() + "'; its parameters are: " + describe(specs));
            }
            values.put(ours, normalise(specs.get(ours), e.getValue()));
        }
        try {
            return MergePolicies.create(policy, values);
        } catch (PolicyConfigurationException e) {
            String asterix = asterixName(e.parameter());
            if (asterix == null) {
                throw e;
            }
            throw new PolicyConfigurationException(policy, asterix, given.get(asterix),
                    "AsterixDB merge-policy parameter '" + asterix + "' (our '" + e.parameter() + "'): "
                            + e.getMessage());
        }
    }

    /** The AsterixDB name of our parameter {@code ours}, or {@code null}. */
    private String asterixName(String ours) {
        for (Map.Entry<String, String> e : names.entrySet()) {
            if (e.getValue().equals(ours)) {
                return e.getKey();
            }
        }
        return null;
    }

    /** An integral decimal ({@code "4.0"}, as AsterixDB renders a double) becomes {@code "4"} for an integer. */
    private static String normalise(ParameterSpec spec, String raw) {
        if (raw == null || spec.type() == ParameterSpec.Type.DOUBLE || spec.type() == ParameterSpec.Type.CHOICE) {
            return raw;
        }
        try {
            BigDecimal d = new BigDecimal(raw.trim());
            return d.stripTrailingZeros().scale() <= 0 ? d.toBigIntegerExact().toString() : raw;
        } catch (NumberFormatException | ArithmeticException e) {
            return raw; // PolicyParameters reports it as not an integer
        }
    }

    private String describe(Map<String, ParameterSpec> specs) {
        List<String> parts = new ArrayList<>();
        names.forEach((asterix, ours) -> {
            ParameterSpec s = specs.get(ours);
            parts.add(asterix + " (our '" + ours + "': " + s.accepted()
                    + (s.required() ? ", required" : ", default " + s.defaultValue()) + ")");
        });
        return String.join(", ", parts);
    }

    private static Map<String, ParameterSpec> specs(String policy) {
        Map<String, ParameterSpec> byName = new LinkedHashMap<>();
        for (ParameterSpec s : MergePolicies.factory(policy).parameters()) {
            byName.put(s.name(), s);
        }
        return byName;
    }
}
