package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.TreeView;

/**
 * No-merge: every flush adds an SSTable and nothing is ever merged. Write amplification is exactly 1 and
 * the SSTable count equals the number of flushes; the baseline against which the others are measured
 * (AsterixDB's {@code no-merge} policy). No parameters.
 */
public final class NoMergePolicy extends AbstractStackPolicy {
    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "no-merge";

    NoMergePolicy(PolicyParameters parameters) {
        super(NAME, parameters);
    }

    @Override
    public Decision decide(TreeView view, PolicyState state) {
        return Decision.none(state);
    }
}
