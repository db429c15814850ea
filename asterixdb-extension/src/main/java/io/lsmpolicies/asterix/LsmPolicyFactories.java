package io.lsmpolicies.asterix;

import io.lsmpolicies.merge.hyracks.HyracksFactories;
import io.lsmpolicies.merge.hyracks.StackMergePolicyFactory;
import java.util.List;

/**
 * Our Hyracks merge-policy factories ({@code io.lsmpolicies.merge.hyracks}), as an AsterixDB 0.9.8 cluster must
 * know them: the resource registry of every NC maps a stable type id to each class
 * ({@link LsmPoliciesResourceRegistry}), and {@code Metadata.CompactionPolicy} maps each factory's
 * {@code getName()} ({@code lsmpolicies-binomial}, ...) to its class name ({@link LsmPoliciesMetadataExtension}).
 */
public final class LsmPolicyFactories {

    /**
     * Every factory: merge-policies' {@link HyracksFactories#ALL}, the one list of our Hyracks factories. Removing
     * one makes the indexes that were created with it unreadable (their local resources name its type id).
     */
    public static final List<Class<? extends StackMergePolicyFactory>> ALL = HyracksFactories.ALL;

    /**
     * Prefix of the type ids in the resource registry. Two of our simple class names
     * ({@code PrefixMergePolicyFactory}, {@code ConstantMergePolicyFactory}) are also the ids under which AsterixDB
     * registers Hyracks' own factories, so ours cannot be registered under their simple names.
     */
    public static final String REGISTRY_ID_PREFIX = "lsmpolicies.";

    private LsmPolicyFactories() {
    }

    /**
     * The type id under which {@code factory} is written into an index's local resource, e.g.
     * {@code lsmpolicies.BinomialMergePolicyFactory}. Persistent: an id, once written, must never change.
     *
     * @param factory one of our Hyracks merge-policy factories
     * @return {@link #REGISTRY_ID_PREFIX} and the factory's simple class name
     */
    public static String registryId(Class<? extends StackMergePolicyFactory> factory) {
        return REGISTRY_ID_PREFIX + factory.getSimpleName();
    }

    /**
     * {@return a new instance of {@code factory} (our factories have no fields and a public no-argument constructor)}
     *
     * @param factory one of our Hyracks merge-policy factories
     */
    public static StackMergePolicyFactory instantiate(Class<? extends StackMergePolicyFactory> factory) {
        return HyracksFactories.instantiate(factory);
    }

    /**
     * {@return the name AsterixDB files {@code factory} under, its {@code getName()}, e.g.
     * {@code lsmpolicies-binomial}}
     *
     * @param factory one of our Hyracks merge-policy factories
     */
    public static String policyName(Class<? extends StackMergePolicyFactory> factory) {
        return instantiate(factory).getName();
    }
}
