package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/**
 * Creates {@link AdaptivePolicy} under the name {@code adaptive}; parameters {@code max-k} (default 1000),
 * {@code quiet-k} (default 32) and {@code read-cost} (default 4096 bytes), all optional and range-checked here.
 */
public final class AdaptivePolicyFactory implements PolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public AdaptivePolicyFactory() {
    }

    static final ParameterSpec MAX_K = ParameterSpec.optionalInt("max-k", 1, StackPolicies.MAX_K,
            AdaptivePolicy.DEFAULT_MAX_K, "most SSTables kept after each flush and its merges, whatever is read");
    static final ParameterSpec QUIET_K = ParameterSpec.optionalInt("quiet-k", 1, StackPolicies.MAX_K,
            AdaptivePolicy.DEFAULT_QUIET_K,
            "most SSTables of a quiet stretch's flushes (reads stopped: below 1% of the highest rate seen)");
    static final ParameterSpec READ_COST = ParameterSpec.optionalLong("read-cost", 0, 1L << 30, 4096,
            "bytes one read pays to probe one SSTable (the simulator's --read-cost)");

    @Override
    public String name() {
        return AdaptivePolicy.NAME;
    }

    @Override
    public String description() {
        return "online: follows the least-cost schedule tree of the estimated read rate, with rent-or-buy checks";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return List.of(MAX_K, QUIET_K, READ_COST);
    }

    @Override
    public MergePolicy create(PolicyParameters parameters) {
        return new AdaptivePolicy(parameters);
    }
}
