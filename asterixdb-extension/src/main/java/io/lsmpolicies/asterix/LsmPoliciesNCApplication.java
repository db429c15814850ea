package io.lsmpolicies.asterix;

import org.apache.asterix.hyracks.bootstrap.NCApplication;

/**
 * AsterixDB 0.9.8's node controller application with one change: its resource registry is a
 * {@link LsmPoliciesResourceRegistry}, so the node can create, and after a restart open, indexes whose merge
 * policy is one of ours. Everything else is AsterixDB's {@link NCApplication}.
 *
 * <p>Use: the NC's {@code -app-class} ({@code bin/asterixnc-lsmpolicies}, named by {@code [nc] command=} of
 * {@code cc.conf}), with the extension jar in the NC's class path ({@code repo/}). AsterixDB calls
 * {@link #configurePersistedResourceRegistry()} once, from {@code init}, before the node opens any index.
 *
 * <p>The cluster controller needs no counterpart: AsterixDB 0.9.8's CC creates its own registry inside
 * {@code CCApplication.start}, but nothing on the CC ever reads or writes a local resource through it (only the
 * NC's local resource repository, checkpoint manager and library manager use a registry), and the CC ships
 * merge-policy factories to the NCs inside job specifications, by Java serialisation. It only needs our classes
 * on its class path, to check a {@code CREATE DATASET}'s merge-policy parameters.
 */
public class LsmPoliciesNCApplication extends NCApplication {

    /** Installs a {@link LsmPoliciesResourceRegistry} instead of AsterixDB's registry. */
    @Override
    protected void configurePersistedResourceRegistry() {
        ncServiceCtx.setPersistedResourceRegistry(new LsmPoliciesResourceRegistry());
    }
}
