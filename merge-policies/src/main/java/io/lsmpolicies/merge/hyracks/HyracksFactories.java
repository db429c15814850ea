package io.lsmpolicies.merge.hyracks;

import java.lang.reflect.InvocationTargetException;
import java.util.List;

/**
 * Our Hyracks merge-policy factories, one per stack policy that runs inside Hyracks: the one list that the
 * AsterixDB extension registers and the Hyracks YCSB peer selects from. Every registered stack policy has a factory
 * here but {@code no-merge} (Hyracks has its own {@code NoMergePolicy}) and {@code adaptive} (it merges on the
 * reads it is told of, and Hyracks tells a merge policy of none), and every concrete {@link StackMergePolicyFactory}
 * of this package is listed (a test checks both).
 */
public final class HyracksFactories {

    /**
     * Every factory, in a fixed order. A factory that is not listed does not run in AsterixDB; removing one makes
     * the indexes created with it unreadable (their local resources name it).
     */
    public static final List<Class<? extends StackMergePolicyFactory>> ALL = List.of(
            BinomialMergePolicyFactory.class, MinLatencyMergePolicyFactory.class, BigtableMergePolicyFactory.class,
            ExploringMergePolicyFactory.class, TieredMergePolicyFactory.class, ConstantMergePolicyFactory.class,
            PrefixMergePolicyFactory.class);

    private HyracksFactories() {
    }

    /**
     * {@return a new instance of {@code factory} (our factories have no fields and a public no-argument constructor)}
     *
     * @param factory one of our Hyracks merge-policy factories
     */
    public static StackMergePolicyFactory instantiate(Class<? extends StackMergePolicyFactory> factory) {
        try {
            return factory.getConstructor().newInstance();
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException
                | InvocationTargetException e) {
            throw new IllegalStateException("cannot create merge-policy factory " + factory.getName(), e);
        }
    }
}
