package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyConfigurationException;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Creates {@code delayed}: delayed compaction (dCompaction; Pan, Yue, Xiong, "dCompaction: Speeding up Compaction
 * of the LSM-Tree via Delayed Compaction", JCST 32(1):41-54, 2017,
 * doi:10.1007/s11390-017-1704-4) on top of another registered leveled-layout policy, which
 * still decides what to merge; see {@link DelayedPolicy} for what is changed. Parameters:
 * <ul>
 *   <li>{@code vct}, integer in [0, 1000], default 12: the virtual compaction threshold (section 3.3,
 *       Algorithm 1). A real merge of the wrapped policy whose inputs hold fewer than {@code vct} real SSTables
 *       becomes a virtual one; 0 never does, which is the wrapped policy exactly. What is counted is the real
 *       SSTables the merge would read: 1 per real input, the parents of each virtual input
 *       ({@link io.lsmpolicies.merge.spi.SSTableInfo#realTables()}), our reading of the paper's count of real
 *       SSTables in a compaction ({@link DelayedPolicy} says why). 12 is the value of the paper's experiments,
 *       inside the 8..16 it recommends.</li>
 *   <li>{@code vsmt}, integer in [1, 1000], default 5: the virtual SSTable merge threshold (section 3.4,
 *       Algorithm 2). A read meeting a virtual SSTable derived from at least {@code vsmt} real SSTables
 *       materialises it. 5 is the value of the paper's experiments, inside the 3..6 it recommends.</li>
 *   <li>{@code policy}, one of the registered leveled-layout policies but {@code delayed}, default {@code leveled}:
 *       the wrapped policy.</li>
 * </ul>
 * Every other parameter is the wrapped policy's, validated by it: the accepted list is these three followed by
 * the wrapped policy's ({@link #parameters(Map)}), so {@code delayed:vct=8,picker=round-robin} wraps
 * {@code leveled:picker=round-robin}, and {@code delayed:policy=universal,picker=round-robin} is refused because
 * {@code universal} has no {@code picker}. {@link #parameters()} lists them for the default, {@code leveled}.
 *
 * <p>REQUIRES of the registry: no wrapped policy declares {@code vct}, {@code vsmt} or {@code policy}.
 */
public final class DelayedPolicyFactory implements PolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public DelayedPolicyFactory() {
    }

    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "delayed";

    static final ParameterSpec VCT = ParameterSpec.optionalInt("vct", 0, 1000, 12, "virtual compaction threshold: "
            + "a merge reading fewer real SSTables (parents of virtual inputs counted) is virtual; 0: never "
            + "(Pan et al., JCST 2017, Algorithm 1; 8..16 recommended)");
    static final ParameterSpec VSMT = ParameterSpec.optionalInt("vsmt", 1, 1000, 5, "virtual SSTable merge "
            + "threshold: a read meeting a virtual SSTable of at least this many real parents materialises it "
            + "(Pan et al., JCST 2017, Algorithm 2; 3..6 recommended)");
    static final String POLICY = "policy";
    static final String DEFAULT_POLICY = LeveledPolicyFactory.NAME;

    private static final Set<String> OWN = Set.of(VCT.name(), VSMT.name(), POLICY);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "delayed compaction (dCompaction): the wrapped leveled policy's small merges become virtual "
                + "(metadata only) and are materialised later";
    }

    @Override
    public PolicyLayout layout() {
        return PolicyLayout.LEVELED;
    }

    /** {@code vct}, {@code vsmt}, {@code policy}, then the parameters of the default wrapped policy. */
    @Override
    public List<ParameterSpec> parameters() {
        return parameters(DEFAULT_POLICY);
    }

    /**
     * {@code vct}, {@code vsmt}, {@code policy}, then the parameters of the policy {@code given} names (the
     * default, {@code leveled}, if it names none).
     *
     * @throws PolicyConfigurationException if {@code given} names a policy {@code delayed} cannot wrap
     */
    @Override
    public List<ParameterSpec> parameters(Map<String, ?> given) {
        Object raw = given.get(POLICY);
        if (raw == null) {
            return parameters(DEFAULT_POLICY);
        }
        // Validated in the one place values are checked, so the message is the usual one.
        Map<String, Object> only = new LinkedHashMap<>();
        only.put(POLICY, raw);
        return parameters(PolicyParameters.parse(NAME, List.of(policyParameter()), only).getChoice(POLICY));
    }

    private static List<ParameterSpec> parameters(String wrapped) {
        List<ParameterSpec> out = new ArrayList<>(List.of(VCT, VSMT, policyParameter()));
        for (ParameterSpec p : MergePolicies.factory(wrapped).parameters()) {
            if (OWN.contains(p.name())) {
                throw new IllegalStateException("policy '" + wrapped + "' declares parameter '" + p.name()
                        + "', which policy '" + NAME + "' keeps for itself");
            }
            out.add(p);
        }
        return List.copyOf(out);
    }

    /** The {@code policy} choice: every registered leveled-layout policy but this one, as the registry sorts them. */
    static ParameterSpec policyParameter() {
        List<String> names = new ArrayList<>(MergePolicies.names(PolicyLayout.LEVELED));
        names.remove(NAME);
        return ParameterSpec.optionalChoice(POLICY, names, DEFAULT_POLICY, "the wrapped leveled policy, which "
                + "decides what to merge; the other parameters are its own");
    }

    @Override
    public MergePolicy create(PolicyParameters parameters) {
        String wrappedName = parameters.getChoice(POLICY);
        Map<String, Object> rest = new LinkedHashMap<>(parameters.values());
        rest.keySet().removeAll(OWN);
        MergePolicy wrapped;
        try {
            PolicyFactory f = MergePolicies.factory(wrappedName);
            wrapped = f.create(PolicyParameters.parse(wrappedName, f.parameters(rest), rest));
        } catch (PolicyConfigurationException e) {
            throw new PolicyConfigurationException(NAME, e.parameter(), e.value(), "policy '" + NAME + "' with "
                    + POLICY + "=" + wrappedName + ": " + e.getMessage());
        }
        if (!(wrapped instanceof ComposedPolicy composed)) {
            throw new PolicyConfigurationException(NAME, POLICY, wrappedName, "policy '" + NAME + "': parameter '"
                    + POLICY + "' = '" + wrappedName + "' is not of the leveled family (" + wrapped.getClass().getName()
                    + "); delayed compaction needs the wrapped policy's output cut of each level to materialise a "
                    + "virtual SSTable");
        }
        return new DelayedPolicy(parameters, composed, parameters.getInt(VCT.name()), parameters.getInt(VSMT.name()));
    }
}
