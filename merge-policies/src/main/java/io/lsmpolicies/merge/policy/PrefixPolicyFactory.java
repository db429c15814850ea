package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.List;

/** Creates {@link PrefixPolicy} under the name {@code prefix}, with AsterixDB's parameter names and defaults. */
public final class PrefixPolicyFactory implements PolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public PrefixPolicyFactory() {
    }

    static final ParameterSpec MAX_SIZE = ParameterSpec.optionalLong("max-mergable-component-size", 1,
            Long.MAX_VALUE, 1L << 30, "bytes: larger components are never merged; a window merges once above it");
    static final ParameterSpec TOLERANCE = ParameterSpec.optionalInt("max-tolerance-component-count", 2, 1_000_000,
            5, "mergeable components that, reaching the newest, are merged even below the size");

    @Override
    public String name() {
        return PrefixPolicy.NAME;
    }

    @Override
    public String description() {
        return "AsterixDB's default: merges the oldest window of small components once it is big or long enough";
    }

    @Override
    public List<ParameterSpec> parameters() {
        return List.of(MAX_SIZE, TOLERANCE);
    }

    @Override
    public MergePolicy create(PolicyParameters parameters) {
        return new PrefixPolicy(parameters);
    }
}
