package io.lsmpolicies.ycsb.hyracks;

import io.lsmpolicies.lsm.ByteSizes;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.hyracks.HyracksFactories;
import io.lsmpolicies.merge.hyracks.HyracksMergePolicy;
import io.lsmpolicies.merge.hyracks.StackMergePolicyFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.impls.PrefixMergePolicyFactory;
import site.ycsb.DBException;

/**
 * The merge policy of the index, validated: either AsterixDB's own {@code PrefixMergePolicy} from Hyracks 0.3.8
 * ({@code prefix}), or one of our stack policies in our syntax {@code NAME[:param=value,...]}, created through our
 * Hyracks adapter's factory ({@code io.lsmpolicies.merge.hyracks}) exactly as AsterixDB would create it, or
 * {@code adaptive}, which has no AsterixDB factory (its {@code read-cost} has no AsterixDB parameter name) and is
 * built configured ({@code new HyracksMergePolicy(policy)}); the index counts its reads for it
 * ({@code ReadCountingOperationTracker}). Immutable.
 *
 * <p>Prefix defaults: {@code max-mergable-component-size} = 1073741824 (1 GiB) and
 * {@code max-tolerance-component-count} = 5, the values AsterixDB filed with its default policy while that was
 * {@code prefix} ({@code GlobalConfig.DEFAULT_COMPACTION_POLICY_PROPERTIES}, AsterixDB 0.9.0 to 0.9.4). AsterixDB
 * 0.9.8 defaults to {@code concurrent} instead and requires both prefix parameters in the DDL; its
 * {@code PrefixMergePolicy} reads them with {@code Long.parseLong} and no check, so they are checked here.
 *
 * @param spec      the policy with every parameter (defaults filled in for prefix), e.g. {@code binomial:k=4}
 * @param asterix   whether this is AsterixDB's own prefix policy (else ours through the adapter)
 * @param configuration the string map handed to the Hyracks factory (AsterixDB's parameter names)
 */
record HyracksPolicy(PolicySpec spec, boolean asterix, Map<String, String> configuration) {
    static final String PREFIX = "prefix";
    static final String MAX_MERGABLE = PrefixMergePolicyFactory.MAX_MERGABLE_SIZE;
    static final String MAX_TOLERANCE = PrefixMergePolicyFactory.MAX_TOLERANCE_COUNT;
    /** Our policy that runs through the adapter without an AsterixDB factory: built configured. */
    static final String ADAPTIVE = "adaptive";
    static final long DEFAULT_MAX_MERGABLE = 1L << 30;
    static final long DEFAULT_MAX_TOLERANCE = 5;

    /**
     * Our stack policies that run through the adapter, by our name: every factory of merge-policies'
     * {@link HyracksFactories#ALL} but ours named {@code prefix}, since that name selects AsterixDB's own here.
     */
    private static final Map<String, Supplier<StackMergePolicyFactory>> OURS = ours();

    private static Map<String, Supplier<StackMergePolicyFactory>> ours() {
        Map<String, Supplier<StackMergePolicyFactory>> m = new LinkedHashMap<>();
        for (Class<? extends StackMergePolicyFactory> c : HyracksFactories.ALL) {
            String name = HyracksFactories.instantiate(c).asterixParameters().policy();
            if (!name.equals(PREFIX)) {
                m.put(name, () -> HyracksFactories.instantiate(c));
            }
        }
        return Map.copyOf(m);
    }

    /** A new policy instance for one index. */
    ILSMMergePolicy create() {
        if (asterix) {
            return new PrefixMergePolicyFactory().createMergePolicy(configuration, null);
        }
        if (spec.name().equals(ADAPTIVE)) {
            return new HyracksMergePolicy(MergePolicies.create(spec));
        }
        return OURS.get(spec.name()).get().createMergePolicy(configuration, null);
    }

    @Override
    public String toString() {
        return asterix ? "asterixdb-" + spec : spec.toString();
    }

    /**
     * {@value HyracksConfig#POLICY} (default {@code prefix}) with the {@value HyracksConfig#POLICY_PARAM_PREFIX}
     * {@code <param>} values added.
     *
     * @throws DBException naming the property, the value and what is accepted
     */
    static HyracksPolicy parse(Properties p) throws DBException {
        String text = p.getProperty(HyracksConfig.POLICY, PREFIX).trim();
        PolicySpec given;
        try {
            given = PolicySpec.parse(text);
        } catch (IllegalArgumentException e) {
            throw new DBException(HyracksConfig.POLICY + ": " + e.getMessage() + "; expected NAME or "
                    + "NAME:param=value,...", e);
        }
        Map<String, String> params = new LinkedHashMap<>(given.parameters());
        for (String name : new TreeSet<>(p.stringPropertyNames())) {
            if (!name.startsWith(HyracksConfig.POLICY_PARAM_PREFIX)) {
                continue;
            }
            String param = name.substring(HyracksConfig.POLICY_PARAM_PREFIX.length());
            if (param.isEmpty()) {
                throw new DBException(name + ": a parameter name is missing, e.g. " + HyracksConfig.POLICY_PARAM_PREFIX
                        + "k=4");
            }
            if (params.containsKey(param)) {
                throw new DBException(name + ": parameter '" + param + "' is also given in " + HyracksConfig.POLICY
                        + "=" + text + "; give it once");
            }
            params.put(param, p.getProperty(name).trim());
        }
        PolicySpec spec = new PolicySpec(given.name(), params);
        if (spec.name().equals(PREFIX)) {
            return prefix(spec);
        }
        if (!OURS.containsKey(spec.name()) && !spec.name().equals(ADAPTIVE)) {
            TreeSet<String> accepted = new TreeSet<>(OURS.keySet());
            accepted.add(ADAPTIVE);
            throw new DBException(HyracksConfig.POLICY + ": '" + spec.name() + "' is not accepted; accepted: "
                    + "prefix (AsterixDB's own), or ours through the Hyracks adapter: "
                    + String.join(", ", accepted));
        }
        try {
            MergePolicies.create(spec); // our own messages, in our parameter names
        } catch (IllegalArgumentException e) {
            throw new DBException(HyracksConfig.POLICY + " (" + spec + "): " + e.getMessage(), e);
        }
        if (spec.name().equals(ADAPTIVE)) {
            return new HyracksPolicy(spec, false, Map.of());
        }
        Map<String, String> asterixName = new LinkedHashMap<>();
        OURS.get(spec.name()).get().asterixParameters().names().forEach((a, ours) -> asterixName.put(ours, a));
        Map<String, String> configuration = new LinkedHashMap<>();
        spec.parameters().forEach((ours, value) -> configuration.put(asterixName.get(ours), value));
        return new HyracksPolicy(spec, false, Map.copyOf(configuration));
    }

    private static HyracksPolicy prefix(PolicySpec spec) throws DBException {
        for (String param : spec.parameters().keySet()) {
            if (!param.equals(MAX_MERGABLE) && !param.equals(MAX_TOLERANCE)) {
                throw new DBException(HyracksConfig.POLICY + " (" + spec + "): AsterixDB's prefix policy has no "
                        + "parameter '" + param + "'; its parameters: " + MAX_MERGABLE
                        + " (bytes, or KB/MB/GB; default 1GB), " + MAX_TOLERANCE
                        + " (integer in [2, 1000000]; default 5)");
            }
        }
        long maxMergable = DEFAULT_MAX_MERGABLE;
        String size = spec.parameters().get(MAX_MERGABLE);
        if (size != null) {
            try {
                maxMergable = ByteSizes.parse(size);
            } catch (IllegalArgumentException e) {
                maxMergable = 0;
            }
            if (maxMergable < 1) {
                throw new DBException(HyracksConfig.POLICY + " (" + spec + "): " + MAX_MERGABLE + " = '" + size
                        + "' is not accepted; accepted: a size of at least 1 byte (bytes, or KB/MB/GB, binary units)");
            }
        }
        long tolerance = DEFAULT_MAX_TOLERANCE;
        String count = spec.parameters().get(MAX_TOLERANCE);
        if (count != null) {
            try {
                tolerance = Long.parseLong(count);
            } catch (NumberFormatException e) {
                tolerance = -1;
            }
            if (tolerance < 2 || tolerance > 1_000_000) {
                throw new DBException(HyracksConfig.POLICY + " (" + spec + "): " + MAX_TOLERANCE + " = '" + count
                        + "' is not accepted; accepted: an integer in [2, 1000000] (with 1, Hyracks' prefix policy "
                        + "would merge a lone component again and again)");
            }
        }
        Map<String, String> configuration = new LinkedHashMap<>();
        configuration.put(MAX_MERGABLE, Long.toString(maxMergable));
        configuration.put(MAX_TOLERANCE, Long.toString(tolerance));
        return new HyracksPolicy(new PolicySpec(PREFIX, configuration), true, Map.copyOf(configuration));
    }
}
