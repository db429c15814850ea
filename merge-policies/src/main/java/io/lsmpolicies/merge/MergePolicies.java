package io.lsmpolicies.merge;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.ArrayList;
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

    /** {@return every registered factory, by name (sorted)} */
    public static Map<String, PolicyFactory> factories() {
        return Registry.FACTORIES;
    }

    /**
     * The factory registered as {@code name}.
     *
     * @param name a registered policy name
     * @return its factory
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
     * their defaults). A parameter may also be given under its AsterixDB name ({@link AsterixNames}:
     * {@code constant} with {@code num-components}).
     *
     * @param name       a registered policy name
     * @param parameters parameter values by name (ours or AsterixDB's)
     * @return the policy
     * @throws PolicyConfigurationException naming the policy, parameter, value and accepted range
     */
    public static MergePolicy create(String name, Map<String, ?> parameters) {
        PolicyFactory f = factory(name);
        Map<String, Object> ours = AsterixNames.resolve(name, parameters);
        return f.create(PolicyParameters.parse(name, f.parameters(ours), ours));
    }

    /**
     * Creates a policy from the text form {@code name} or {@code name:param=value,param=value}, e.g.
     * {@code binomial:k=4}; the form used by the command line and configuration files.
     *
     * @param spec the text form
     * @return the policy
     * @throws PolicyConfigurationException if the text is malformed or names a bad policy or parameter
     */
    public static MergePolicy parse(String spec) {
        return create(PolicySpec.parse(spec));
    }

    /**
     * Creates the policy {@code spec} names, with its parameters.
     *
     * @param spec a policy name and its parameters' values
     * @return the policy
     * @throws PolicyConfigurationException naming the policy, parameter, value and accepted range
     */
    public static MergePolicy create(PolicySpec spec) {
        return create(spec.name(), spec.parameters());
    }

    /** {@return the names of every registered policy, sorted} */
    public static List<String> names() {
        return List.copyOf(Registry.FACTORIES.keySet());
    }

    /**
     * The names of the registered policies of one layout, sorted: {@code names(PolicyLayout.STACK)} is what the
     * simulator can run.
     *
     * @param layout the shape of tree
     * @return the names, sorted
     */
    public static List<String> names(PolicyLayout layout) {
        List<String> out = new ArrayList<>();
        Registry.FACTORIES.forEach((name, f) -> {
            if (f.layout() == layout) {
                out.add(name);
            }
        });
        return List.copyOf(out);
    }
}
