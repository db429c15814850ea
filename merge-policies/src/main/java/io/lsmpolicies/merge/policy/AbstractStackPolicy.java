package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;

/**
 * Base of the stack-based policies: holds the name and validated parameters and, unless a subclass
 * counts flushes, a {@link NoState}. Stack-based policies run one merge at a time: while any SSTable is
 * compacting they return no job (as AsterixDB's policies do).
 */
abstract class AbstractStackPolicy implements MergePolicy {
    private final String name;
    private final PolicyParameters parameters;

    AbstractStackPolicy(String name, PolicyParameters parameters) {
        this.name = name;
        this.parameters = parameters;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final PolicyParameters parameters() {
        return parameters;
    }

    @Override
    public PolicyState initialState() {
        return NoState.INSTANCE;
    }

    @Override
    public PolicyState decodeState(byte[] encoded) {
        return NoState.decode(name, encoded);
    }

    @Override
    public String toString() {
        return name + "(" + parameters + ")";
    }
}
