package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/** Creates {@link TieredPolicy} under the name {@code tiered}; parameter {@code size-ratio} (default 4). */
public final class TieredPolicyFactory implements PolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public TieredPolicyFactory() {
    }

    static final ParameterSpec SIZE_RATIO = ParameterSpec.optionalInt("size-ratio", 2, 1_000_000, 4,
            "B: SSTables per tier before they merge into one SSTable of the next tier");

    @Override
    public String name() {
        return TieredPolicy.NAME;
    }

    @Override
    public String description() {
        return "size-tiered: B SSTables of a tier merge into one of the next tier, cascading";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return List.of(SIZE_RATIO);
    }

    @Override
    public MergePolicy create(PolicyParameters parameters) {
        return new TieredPolicy(parameters);
    }
}
