package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/** Creates {@link ConstantPolicy} under the name {@code constant}; parameter {@code k} (required). */
public final class ConstantPolicyFactory implements PolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public ConstantPolicyFactory() {
    }

    @Override
    public String name() {
        return ConstantPolicy.NAME;
    }

    @Override
    public String description() {
        return "merges all SSTables into one when a flush would make more than k";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return List.of(StackPolicies.K);
    }

    @Override
    public MergePolicy create(PolicyParameters parameters) {
        return new ConstantPolicy(parameters);
    }
}
