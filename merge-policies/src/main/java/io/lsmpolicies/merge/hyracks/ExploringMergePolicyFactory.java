package io.lsmpolicies.merge.hyracks;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/**
 * Hyracks factory of our {@link io.lsmpolicies.merge.policy.ExploringPolicy Exploring} policy (HBase's default, in
 * the bounded-depth form of Mao et al., VLDB Journal 2021, Sect. 2). The names are those of AsterixDB's own {@code
 * concurrent} policy, which has the same four knobs. Sizes are Hyracks' on-disk component sizes.
 *
 * <table>
 * <caption>AsterixDB parameters</caption>
 * <tr><th>AsterixDB name</th><th>our parameter</th></tr>
 * <tr><td>{@code max-component-count}</td><td>{@code k}</td></tr>
 * <tr><td>{@code size-ratio}</td><td>{@code lambda}</td></tr>
 * <tr><td>{@code min-merge-component-count}</td><td>{@code min}</td></tr>
 * <tr><td>{@code max-merge-component-count}</td><td>{@code max}</td></tr>
 * </table>
 */
public final class ExploringMergePolicyFactory extends StackMergePolicyFactory {
    /** The factory, made by reflection (the AsterixDB extension, and its resource registry on reading an index). */
    public ExploringMergePolicyFactory() {
    }

    private static final long serialVersionUID = 1L;
    private static final AsterixParameters PARAMETERS = AsterixParameters.forPolicy("exploring");

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
        return new ExploringMergePolicyFactory();
    }
}
