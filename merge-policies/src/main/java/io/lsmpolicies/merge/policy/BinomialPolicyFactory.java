package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/** Creates {@link BinomialPolicy} under the name {@code binomial}; parameter {@code k} (required). */
public final class BinomialPolicyFactory implements PolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public BinomialPolicyFactory() {
    }

    @Override
    public String name() {
        return BinomialPolicy.NAME;
    }

    @Override
    public String description() {
        return "static schedule of Mathieu et al.: MinLatency's bound, with fewer SSTables before about 4^k flushes";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return List.of(StackPolicies.K);
    }

    @Override
    public MergePolicy create(PolicyParameters parameters) {
        return new BinomialPolicy(parameters);
    }
}
