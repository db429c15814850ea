package io.lsmpolicies.merge.hyracks;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Set;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicyFactory;

/**
 * Base of the Hyracks 0.3.8 merge-policy factories for our stack policies: each subclass names one policy
 * and the AsterixDB parameter names it accepts ({@link AsterixParameters}); this class creates a
 * {@link HyracksMergePolicy} for it.
 *
 * <p>Persistence, as Hyracks requires of an {@code ILSMMergePolicyFactory} (it is stored in the index's local
 * resource and shipped in job specifications): a factory holds no fields, so Java serialisation keeps nothing
 * but the class, and {@link #toJson} writes only the registry's class identifier ({@code @type},
 * {@code @version}, {@code @class}); every subclass has the static
 * {@code fromJson(IPersistedResourceRegistry, JsonNode)} the registry calls to read it back. The policy's
 * parameters travel separately, as the string map Hyracks stores beside the factory and passes to
 * {@link #createMergePolicy}. This is the scheme of Hyracks' own {@code PrefixMergePolicyFactory}.
 * REQUIRES: the registry knows the concrete class (AsterixDB 0.9.8's registers only its own factories).
 */
public abstract class StackMergePolicyFactory implements ILSMMergePolicyFactory {
    /** For the subclasses, one per policy. */
    public StackMergePolicyFactory() {
    }

    private static final long serialVersionUID = 1L;

    /** The {@code @version} written by {@link #toJson}. */
    static final long JSON_VERSION = 1L;

    /**
     * Prefix of every {@link #getName()}: AsterixDB files a compaction policy under its factory's name, and
     * 0.9.8 already has built-in policies named {@code constant} and {@code prefix} (different ones).
     */
    public static final String NAME_PREFIX = "lsmpolicies-";

    /** {@return the policy this factory creates and its AsterixDB parameter names} */
    protected abstract AsterixParameters parameters();

    /**
     * The policy this factory creates and its AsterixDB parameter names, each with the name of our parameter it
     * sets: what {@link #createMergePolicy} reads its configuration with (used to configure the factory from our
     * own {@code NAME:param=value} syntax).
     *
     * @return the policy and its AsterixDB parameter names
     */
    public final AsterixParameters asterixParameters() {
        return parameters();
    }

    /**
     * The name AsterixDB knows the policy by: {@link #NAME_PREFIX} and our policy name, e.g.
     * {@code lsmpolicies-binomial}.
     */
    @Override
    public final String getName() {
        return NAME_PREFIX + parameters().policy();
    }

    /**
     * The AsterixDB parameter names accepted. AsterixDB 0.9.8's DDL rejects any other name and requires every
     * one of these (so the defaults of optional parameters apply only when Hyracks is used directly).
     */
    @Override
    public final Set<String> getPropertiesNames() {
        return parameters().asterixNames();
    }

    /**
     * A new policy instance for one index ({@code ctx} is not used).
     *
     * @throws io.lsmpolicies.merge.spi.PolicyConfigurationException naming the AsterixDB parameter, its value
     *                                                                and the accepted range
     */
    @Override
    public final ILSMMergePolicy createMergePolicy(Map<String, String> configuration, INCServiceContext ctx) {
        return new HyracksMergePolicy(parameters(), configuration);
    }

    @Override
    public final JsonNode toJson(IPersistedResourceRegistry registry) throws HyracksDataException {
        return registry.getClassIdentifier(getClass(), JSON_VERSION);
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + "(" + getName() + ", " + getPropertiesNames() + ")";
    }
}
