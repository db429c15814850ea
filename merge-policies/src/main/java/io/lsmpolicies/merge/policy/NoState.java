package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.PolicyState;

/** The state of a policy that keeps none: it decides from the view alone. Encodes as zero bytes. */
public enum NoState implements PolicyState {
    /** The one state. */
    INSTANCE;

    @Override
    public byte[] encode() {
        return new byte[0];
    }

    /** Reads {@link #encode()}'s output back; anything but zero bytes is an error naming {@code policy}. */
    static NoState decode(String policy, byte[] encoded) {
        if (encoded.length != 0) {
            throw new IllegalArgumentException("policy '" + policy + "' keeps no state, but was given "
                    + encoded.length + " bytes of state");
        }
        return INSTANCE;
    }
}
