package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/** Creates {@link BigtablePolicy} under the name {@code bigtable}; parameter {@code k} (required). */
public final class BigtablePolicyFactory implements PolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public BigtablePolicyFactory() {
    }

    @Override
    public String name() {
        return BigtablePolicy.NAME;
    }

    @Override
    public String description() {
        return "merges the flushed SSTable with the fewest newest SSTables that leave each SSTable larger than all newer ones together";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return List.of(StackPolicies.K);
    }

    @Override
    public MergePolicy create(PolicyParameters parameters) {
        return new BigtablePolicy(parameters);
    }
}
