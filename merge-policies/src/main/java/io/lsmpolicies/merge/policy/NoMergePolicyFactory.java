package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/** Creates {@link NoMergePolicy} under the name {@code no-merge}; no parameters. */
public final class NoMergePolicyFactory implements PolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public NoMergePolicyFactory() {
    }

    @Override
    public String name() {
        return NoMergePolicy.NAME;
    }

    @Override
    public String description() {
        return "never merges: one SSTable per flush, write amplification 1 (the baseline)";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return List.of();
    }

    @Override
    public MergePolicy create(PolicyParameters parameters) {
        return new NoMergePolicy(parameters);
    }
}
