package io.lsmpolicies.merge.hyracks;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.io.IJsonSerializable;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;

/**
 * Hyracks factory of our {@link io.lsmpolicies.merge.policy.TieredPolicy Tiered} policy (size-tiered; Mao et al.,
 * VLDB Journal 2021, Sect. 2): B components of a tier merge into one of the next. Tiers count flushes, read from
 * the components' flush sequence numbers. AsterixDB's DDL types {@code size-ratio} as a double: {@code 4} and
 * {@code 4.0} are accepted, {@code 4.5} is not.
 *
 * <table>
 * <caption>AsterixDB parameters</caption>
 * <tr><th>AsterixDB name</th><th>our parameter</th></tr>
 * <tr><td>{@code size-ratio}</td><td>{@code size-ratio}</td></tr>
 * </table>
 */
public final class TieredMergePolicyFactory extends StackMergePolicyFactory {
    /** The factory, made by reflection (the AsterixDB extension, and its resource registry on reading an index). */
    public TieredMergePolicyFactory() {
    }

    private static final long serialVersionUID = 1L;
    private static final AsterixParameters PARAMETERS = AsterixParameters.forPolicy("tiered");

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
        return new TieredMergePolicyFactory();
    }
}
