package io.lsmpolicies.merge.hyracks;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/**
 * Hyracks factory of our {@link io.lsmpolicies.merge.policy.ConstantPolicy Constant} policy (Mao et al., VLDB
 * Journal 2021, Sect. 2): with more than k components, merges all of them. Not Hyracks' own {@code
 * org.apache.hyracks.storage.am.lsm.common.impls.ConstantMergePolicyFactory}, which in 0.3.8 runs a binomial
 * schedule under the same parameter name.
 *
 * <table>
 * <caption>AsterixDB parameters</caption>
 * <tr><th>AsterixDB name</th><th>our parameter</th></tr>
 * <tr><td>{@code num-components}</td><td>{@code k}</td></tr>
 * </table>
 */
public final class ConstantMergePolicyFactory extends StackMergePolicyFactory {
    /** The factory, made by reflection (the AsterixDB extension, and its resource registry on reading an index). */
    public ConstantMergePolicyFactory() {
    }

    private static final long serialVersionUID = 1L;
    private static final AsterixParameters PARAMETERS = AsterixParameters.forPolicy("constant");

    @Override
    protected AsterixParameters parameters() {
        return PARAMETERS;
    }

    /**
     * Reads back what {@link #toJson} wrote (the factory has no fields); called by the resource registry.
     *
     * @param registry the resource registry reading it
     * @param json     what {@link #toJson} wrote
     * @return a new factory
     */
    public static IJsonSerializable fromJson(IPersistedResourceRegistry registry, JsonNode json) {
        return new ConstantMergePolicyFactory();
    }
}
