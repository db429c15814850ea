package io.lsmpolicies.lsm.manifest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The merge policy a store runs and the policy's own state, as the manifest keeps them: the name a
 * {@code PolicyFactory} is registered under and the bytes of {@code PolicyState.encode()}. The manifest never
 * interprets the state; the engine hands it to {@code MergePolicy.decodeState} on open, so a restarted store
 * continues the same schedule. Immutable: the state array is copied in and out.
 *
 * @param name  the policy's registered name, 1 to {@link #MAX_NAME_BYTES} UTF-8 bytes
 * @param state the encoded policy state, at most {@link #MAX_STATE_BYTES} bytes (may be empty)
 */
public record PolicyRecord(String name, byte[] state) {

    /** Longest name in UTF-8 bytes (stored with a 16-bit length). */
    public static final int MAX_NAME_BYTES = 0xFFFF;

    /** Largest encoded state; a policy's state is small (a counter or two), this only bounds damage. */
    public static final int MAX_STATE_BYTES = 1 << 20;

    /**
     * Copies the state and checks the record.
     *
     * @param name  the policy's registered name, 1 to {@link #MAX_NAME_BYTES} UTF-8 bytes
     * @param state the encoded policy state, at most {@link #MAX_STATE_BYTES} bytes (may be empty)
     * @throws IllegalArgumentException if the name is empty or too long, or the state too large
     */
    public PolicyRecord {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("policy name must be non-empty");
        }
        int nameBytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (nameBytes > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("policy name has " + nameBytes + " UTF-8 bytes, at most "
                    + MAX_NAME_BYTES + " are allowed");
        }
        if (state == null || state.length > MAX_STATE_BYTES) {
            throw new IllegalArgumentException("policy state must be present and at most " + MAX_STATE_BYTES
                    + " bytes" + (state == null ? "" : ", was " + state.length));
        }
        state = state.clone();
    }

    /**
     * {@return the record of the policy {@code set} runs (as the manifest last recorded it), or empty if none was
     * recorded}
     *
     * @param set a component set
     */
    public static Optional<PolicyRecord> recordedIn(ComponentSet set) {
        return set.policy();
    }

    /** {@return a copy of the encoded state} */
    @Override
    public byte[] state() {
        return state.clone();
    }

    /** The state itself, not a copy. REQUIRES: the caller does not modify it (encoders only). */
    byte[] stateUnsafe() {
        return state;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PolicyRecord p && name.equals(p.name) && Arrays.equals(state, p.state);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Arrays.hashCode(state);
    }

    @Override
    public String toString() {
        return "PolicyRecord[name=" + name + ", state=0x" + HexFormat.of().formatHex(state) + "]";
    }
}
