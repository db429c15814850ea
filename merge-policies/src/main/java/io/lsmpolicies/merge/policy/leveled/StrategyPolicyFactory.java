package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import io.lsmpolicies.merge.spi.PolicyParameters;

/** What the leveled family's factories share: the layout, and building a {@link ComposedPolicy}. */
abstract class StrategyPolicyFactory implements PolicyFactory {

    @Override
    public final PolicyLayout layout() {
        return PolicyLayout.LEVELED;
    }

    /**
     * The strategy {@code parameters} select.
     *
     * @throws io.lsmpolicies.merge.spi.PolicyConfigurationException if they select an invalid combination
     */
    abstract CompactionStrategy strategy(PolicyParameters parameters);

    @Override
    public final MergePolicy create(PolicyParameters parameters) {
        CompactionStrategy strategy = strategy(parameters);
        return new ComposedPolicy(name(), parameters, strategy, LeveledSettings.from(parameters));
    }
}
