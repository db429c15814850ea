package io.lsmpolicies.merge.hyracks;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/**
 * Hyracks factory of our {@link io.lsmpolicies.merge.policy.MinLatencyPolicy MinLatency} policy (Mao et al., VLDB
 * Journal 2021, Sect. 2, after Mathieu et al. 2014): the static schedule with minimum worst-case write
 * amplification for depth k. Its flush counter comes from the components' flush sequence numbers (see {@link
 * HyracksMergePolicy}).
 *
 * <table>
 * <caption>AsterixDB parameters</caption>
 * <tr><th>AsterixDB name</th><th>our parameter</th></tr>
 * <tr><td>{@code num-components}</td><td>{@code k}</td></tr>
 * </table>
 */
public final class MinLatencyMergePolicyFactory extends StackMergePolicyFactory {
    /** The factory, made by reflection (the AsterixDB extension, and its resource registry on reading an index). */
    public MinLatencyMergePolicyFactory() {
    }

    private static final long serialVersionUID = 1L;
    private static final AsterixParameters PARAMETERS = AsterixParameters.forPolicy("minlatency");

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
        return new MinLatencyMergePolicyFactory();
    }
}
