package io.lsmpolicies.merge.spi;

import java.util.List;
import java.util.Map;

/**
 * Creates one kind of policy by name. Implementations are found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.lsmpolicies.merge.spi.PolicyFactory}) and must have a public no-argument
 * constructor. Names and parameter names are kebab-case and stable once released.
 */
public interface PolicyFactory {

    /** {@return the policy name, e.g. {@code binomial}} */
    String name();

    /** {@return one sentence saying what the policy does} */
    String description();

    /**
     * The shape of tree the policy decides on. Stack-based unless a factory says otherwise, so that factories
     * written before leveled layouts existed keep working; every leveled factory overrides this.
     *
     * @return the layout
     */
    default PolicyLayout layout() {
        return PolicyLayout.STACK;
    }

    /**
     * The parameters the policy accepts, with types, ranges and defaults: what help and docs list. For a policy
     * whose parameters depend on a value (see {@link #parameters(Map)}), the list for that value's default.
     *
     * @return the parameters, in the order help lists them
     */
    List<ParameterSpec> parameters();

    /**
     * The parameters the policy accepts when given the raw values {@code given} (numbers or strings, by name):
     * {@link #parameters()} unless the accepted set depends on one of the values, as for a policy that wraps
     * another one named by a parameter and accepts that policy's parameters too. {@code MergePolicies.create}
     * validates {@code given} against this list.
     *
     * @param given the raw values given, by parameter name
     * @return the parameters accepted with those values
     * @throws PolicyConfigurationException if a value the list depends on is not accepted
     */
    default List<ParameterSpec> parameters(Map<String, ?> given) {
        return parameters();
    }

    /**
     * Creates the policy. REQUIRES: {@code parameters} was validated against {@link #parameters(Map)} of the
     * values given.
     *
     * @param parameters the validated parameters
     * @return the policy
     * @throws PolicyConfigurationException if the values are individually valid but inconsistent together
     */
    MergePolicy create(PolicyParameters parameters);
}
