package io.lsmpolicies.merge.spi;

import java.util.List;

/**
 * Creates one kind of policy by name. Implementations are found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.lsmpolicies.merge.spi.PolicyFactory}) and must have a public no-argument
 * constructor. Names and parameter names are kebab-case and stable once released.
 */
public interface PolicyFactory {

    /** The policy name, e.g. {@code binomial}. */
    String name();

    /** One sentence saying what the policy does. */
    String description();

    /**
     * The shape of tree the policy decides on. Stack-based unless a factory says otherwise, so that factories
     * written before leveled layouts existed keep working; every leveled factory overrides this.
     */
    default PolicyLayout layout() {
        return PolicyLayout.STACK;
    }

    /** The parameters the policy accepts, with types, ranges and defaults. */
    List<ParameterSpec> parameters();

    /**
     * Creates the policy. REQUIRES: {@code parameters} was validated against {@link #parameters()}.
     *
     * @throws PolicyConfigurationException if the values are individually valid but inconsistent together
     */
    MergePolicy create(PolicyParameters parameters);
}
