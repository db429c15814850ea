package io.lsmpolicies.asterix;

import io.lsmpolicies.merge.hyracks.StackMergePolicyFactory;
import org.apache.asterix.app.io.PersistedResourceRegistry;
import org.apache.hyracks.api.io.IJsonSerializable;

/**
 * AsterixDB 0.9.8's resource registry plus our merge-policy factories.
 *
 * <p>An NC writes every index's local resource (the index's configuration, including its merge-policy factory)
 * as JSON through its {@code IPersistedResourceRegistry}, and reads it back through it when the index is opened
 * (after every restart). AsterixDB's {@link PersistedResourceRegistry} knows a fixed list of classes: for any
 * other factory creating the index fails with "Class ... was not registered", and reading fails with "No class
 * with id ... was registered". This registry knows everything AsterixDB's does, under the same ids, and each of
 * {@link LsmPolicyFactories#ALL} under {@link LsmPolicyFactories#registryId}.
 *
 * <p>Contract: a resource written by a stock registry reads back identically here (no id of AsterixDB's is
 * changed), and a resource naming one of our factories can only be read by this registry. So every NC of a
 * cluster whose datasets use our policies must run {@link LsmPoliciesNCApplication}, from the first
 * {@code CREATE DATASET} on, for as long as such an index exists.
 */
public class LsmPoliciesResourceRegistry extends PersistedResourceRegistry {

    /**
     * Registers AsterixDB's classes, then ours. Called by the superclass constructor, so it reads nothing but
     * static state.
     *
     * @throws IllegalStateException if one of our ids is already taken (which would change what AsterixDB reads)
     */
    @Override
    protected void registerClasses() {
        super.registerClasses();
        for (Class<? extends StackMergePolicyFactory> factory : LsmPolicyFactories.ALL) {
            String id = LsmPolicyFactories.registryId(factory);
            Class<? extends IJsonSerializable> taken = registeredClasses.putIfAbsent(id, factory);
            if (taken != null) {
                throw new IllegalStateException("resource registry id '" + id + "' for " + factory.getName()
                        + " is already registered for " + taken.getName());
            }
        }
    }
}
