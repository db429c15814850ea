/**
 * The merge policies: the SPI ({@code io.lsmpolicies.merge.spi}), every policy, the registry
 * ({@link io.lsmpolicies.merge.MergePolicies}) and the Hyracks / AsterixDB adapter. Every package is API. The module
 * needs nothing but {@code java.base}; Hyracks and Jackson are static (compile-time) dependencies of the adapter
 * alone ({@code io.lsmpolicies.merge.hyracks}), which a platform uses only where Hyracks is present. Their module
 * names are the ones the JDK derives from the jar names Hyracks 0.3.8 ships ({@code hyracks-api-0.3.8.jar}:
 * {@code hyracks.api}), as those jars name no module. They are not transitive: a module that requires this one
 * compiles and runs without Hyracks, and one that uses the adapter requires Hyracks itself. Policies are found with
 * {@link java.util.ServiceLoader}: the policies of this module are provided here (and in {@code META-INF/services}
 * for the class path), and a policy of another module is found when that module provides
 * {@link io.lsmpolicies.merge.spi.PolicyFactory}.
 */
module io.lsmpolicies.merge {
    requires static com.fasterxml.jackson.databind;
    requires static hyracks.api;
    requires static hyracks.storage.common;
    requires static hyracks.storage.am.common;
    requires static hyracks.storage.am.lsm.common;

    exports io.lsmpolicies.merge;
    exports io.lsmpolicies.merge.spi;
    exports io.lsmpolicies.merge.policy;
    exports io.lsmpolicies.merge.policy.leveled;
    exports io.lsmpolicies.merge.hyracks;

    uses io.lsmpolicies.merge.spi.PolicyFactory;

    provides io.lsmpolicies.merge.spi.PolicyFactory with
            io.lsmpolicies.merge.policy.ConstantPolicyFactory,
            io.lsmpolicies.merge.policy.PrefixPolicyFactory,
            io.lsmpolicies.merge.policy.BigtablePolicyFactory,
            io.lsmpolicies.merge.policy.ExploringPolicyFactory,
            io.lsmpolicies.merge.policy.MinLatencyPolicyFactory,
            io.lsmpolicies.merge.policy.BinomialPolicyFactory,
            io.lsmpolicies.merge.policy.TieredPolicyFactory,
            io.lsmpolicies.merge.policy.NoMergePolicyFactory,
            io.lsmpolicies.merge.policy.AdaptivePolicyFactory,
            io.lsmpolicies.merge.policy.leveled.LeveledPolicyFactory,
            io.lsmpolicies.merge.policy.leveled.FullLevelingPolicyFactory,
            io.lsmpolicies.merge.policy.leveled.OneLevelingPolicyFactory,
            io.lsmpolicies.merge.policy.leveled.UniversalPolicyFactory,
            io.lsmpolicies.merge.policy.leveled.ComposedPolicyFactory,
            io.lsmpolicies.merge.policy.leveled.DelayedPolicyFactory;
}
