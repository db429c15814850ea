package io.lsmpolicies.merge.hyracks;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/**
 * Hyracks factory of our {@link io.lsmpolicies.merge.policy.PrefixPolicy Prefix} policy, our statement of
 * AsterixDB's default {@code PrefixMergePolicy} with the same parameter names and meaning.
 *
 * <table>
 * <caption>AsterixDB parameters</caption>
 * <tr><th>AsterixDB name</th><th>our parameter</th></tr>
 * <tr><td>{@code max-mergable-component-size}</td><td>{@code max-mergable-component-size}</td></tr>
 * <tr><td>{@code max-tolerance-component-count}</td><td>{@code max-tolerance-component-count}</td></tr>
 * </table>
 */
public final class PrefixMergePolicyFactory extends StackMergePolicyFactory {
    /** The factory, made by reflection (the AsterixDB extension, and its resource registry on reading an index). */
    public PrefixMergePolicyFactory() {
    }

    private static final long serialVersionUID = 1L;
    private static final AsterixParameters PARAMETERS = AsterixParameters.forPolicy("prefix");

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
        return new PrefixMergePolicyFactory();
    }
}
