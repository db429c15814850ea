package io.lsmpolicies.merge;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Creates merge policies by name from the {@link PolicyFactory} implementations found with
 * {@link ServiceLoader}. The entry point for engines, the simulator and configuration files.
 *
 * <pre>{@code
 * MergePolicy p = MergePolicies.create("binomial", Map.of("k", 4));
 * MergePolicy q = MergePolicies.parse("exploring:k=6,lambda=1.5");
 * }</pre>
 */
public final class MergePolicies {
    private MergePolicies() {
    }

    private static final class Registry {
        static final Map<String, PolicyFactory> FACTORIES = load();

        private static Map<String, PolicyFactory> load() {
            Map<String, PolicyFactory> byName = new TreeMap<>();
            for (PolicyFactory f : ServiceLoader.load(PolicyFactory.class, MergePolicies.class.getClassLoader())) {
                PolicyFactory previous = byName.putIfAbsent(f.name(), f);
                if (previous != null) {
                    throw new IllegalStateException("two merge-policy factories are named '" + f.name() + "': "
                            + previous.getClass().getName() + " and " + f.getClass().getName());
                }
            }
            return java.util.Collections.unmodifiableMap(byName);
        }
    }

    /** Every registered factory, by name (sorted). */
    public static Map<String, PolicyFactory> factories() {
        return Registry.FACTORIES;
    }

    /**
     * The factory registered as {@code name}.
     *
     * @throws PolicyConfigurationException listing the known names if there is none
     */
    public static PolicyFactory factory(String name) {
        PolicyFactory f = Registry.FACTORIES.get(name);
        if (f == null) {
            throw new PolicyConfigurationException(name, null, null, "unknown merge policy '" + name
                    + "'; known policies: " + String.join(", ", Registry.FACTORIES.keySet()));
        }
        return f;
    }

    /**
     * Creates policy {@code name} with {@code parameters} (values: numbers or strings; omitted ones take
     * their defaults).
     *
     * @throws PolicyConfigurationException naming the policy, parameter, value and accepted range
     */
    public static MergePolicy create(String name, Map<String, ?> parameters) {
        PolicyFactory f = factory(name);
        return f.create(PolicyParameters.parse(name, f.parameters(), parameters));
    }

    /**
     * Creates a policy from the text form {@code name} or {@code name:param=value,param=value}, e.g.
     * {@code binomial:k=4}; the form used by the command line and configuration files.
     *
     * @throws PolicyConfigurationException if the text is malformed or names a bad policy or parameter
     */
    public static MergePolicy parse(String spec) {
        String text = spec.trim();
        int colon = text.indexOf(':');
        String name = colon < 0 ? text : text.substring(0, colon).trim();
        Map<String, String> params = new LinkedHashMap<>();
        if (colon >= 0) {
            for (String pair : text.substring(colon + 1).split(",")) {
                if (pair.isBlank()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new PolicyConfigurationException(name, pair.trim(), null, "policy '" + name
                            + "': expected param=value, got '" + pair.trim() + "' in '" + spec + "'");
                }
                String key = pair.substring(0, eq).trim();
                if (params.put(key, pair.substring(eq + 1).trim()) != null) {
                    throw new PolicyConfigurationException(name, key, null,
                            "policy '" + name + "': parameter '" + key + "' given twice in '" + spec + "'");
                }
            }
        }
        return create(name, params);
    }

    /** The names of every registered policy, sorted. */
    public static List<String> names() {
        return List.copyOf(Registry.FACTORIES.keySet());
    }
}
