package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/**
 * Creates {@link ExploringPolicy} under the name {@code exploring}: {@code k} (required), {@code lambda}
 * (1.2), {@code min} (3), {@code max} (10); {@code min} must not exceed {@code max}.
 */
public final class ExploringPolicyFactory implements PolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public ExploringPolicyFactory() {
    }

    static final ParameterSpec LAMBDA = ParameterSpec.optionalDouble("lambda", 0.0, 1.0e9, 1.2,
            "a window qualifies if its largest SSTable is at most lambda times the sum of the others");
    static final ParameterSpec MIN = ParameterSpec.optionalInt("min", 2, 1_000_000, 3,
            "fewest SSTables in a window (inclusive)");
    static final ParameterSpec MAX = ParameterSpec.optionalInt("max", 2, 1_000_000, 10,
            "most SSTables in a window (inclusive)");

    @Override
    public String name() {
        return ExploringPolicy.NAME;
    }

    @Override
    public String description() {
        return "HBase's default: merges the most cost-effective contiguous window of similar-sized SSTables";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return List.of(StackPolicies.K, LAMBDA, MIN, MAX);
    }

    @Override
    public MergePolicy create(PolicyParameters parameters) {
        int min = parameters.getInt("min");
        int max = parameters.getInt("max");
        if (min > max) {
            throw new PolicyConfigurationException(name(), "min", Integer.toString(min), "policy '" + name()
                    + "': parameter 'min' = " + min + " exceeds parameter 'max' = " + max + "; accepted: min <= max");
        }
        return new ExploringPolicy(parameters);
    }
}
