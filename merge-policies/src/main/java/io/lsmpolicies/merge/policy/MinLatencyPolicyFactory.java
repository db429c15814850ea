package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/** Creates {@link MinLatencyPolicy} under the name {@code minlatency}; parameter {@code k} (required). */
public final class MinLatencyPolicyFactory implements PolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public MinLatencyPolicyFactory() {
    }

    @Override
    public String name() {
        return MinLatencyPolicy.NAME;
    }

    @Override
    public String description() {
        return "static schedule of Mathieu et al. with minimum worst-case write amplification for depth k (lazy)";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return List.of(StackPolicies.K);
    }

    @Override
    public MergePolicy create(PolicyParameters parameters) {
        return new MinLatencyPolicy(parameters);
    }
}
