package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.PolicyState;
import java.nio.ByteBuffer;

/**
 * State of the stack-based policies that count flushes: the number of flushes seen and the flush at
 * which the policy last decided. Constant size, whatever the number of flushes.
 *
 * <p>Encoding (version 1, 17 bytes): the byte {@code 1}, then {@code flushes} and {@code decided} as
 * big-endian 64-bit integers.
 *
 * @param flushes number of flushes seen, {@code >= 0}
 * @param decided the value of {@code flushes} when the policy last made its once-per-flush decision,
 *                {@code 0 <= decided <= flushes}
 */
public record FlushCount(long flushes, long decided) implements PolicyState {
    static final byte VERSION = 1;
    static final int ENCODED_LENGTH = 17;

    /** No flush seen yet. */
    public static final FlushCount ZERO = new FlushCount(0, 0);

    /**
     * Checks the counts.
     *
     * @param flushes number of flushes seen
     * @param decided the value of {@code flushes} at the last decision
     * @throws IllegalArgumentException naming both values unless {@code 0 <= decided <= flushes}
     */
    public FlushCount {
        if (flushes < 0 || decided < 0 || decided > flushes) {
            throw new IllegalArgumentException(
                    "flush count state needs 0 <= decided <= flushes, was decided=" + decided + ", flushes=" + flushes);
        }
    }

    /** {@return the state after one more flush} */
    public FlushCount nextFlush() {
        if (flushes >= Binomials.MAX_FLUSH_INDEX) {
            throw new IllegalStateException("flush counter would overflow after " + flushes + " flushes");
        }
        return new FlushCount(flushes + 1, decided);
    }

    /** {@return whether the once-per-flush decision for the latest flush is still to be made} */
    public boolean undecided() {
        return decided < flushes;
    }

    /** {@return the state once the decision for the latest flush is made} */
    public FlushCount markDecided() {
        return new FlushCount(flushes, flushes);
    }

    @Override
    public byte[] encode() {
        return ByteBuffer.allocate(ENCODED_LENGTH).put(VERSION).putLong(flushes).putLong(decided).array();
    }

    /** Reads {@link #encode()}'s output back; errors name {@code policy} and what is wrong. */
    static FlushCount decode(String policy, byte[] encoded) {
        if (encoded.length != ENCODED_LENGTH) {
            throw new IllegalArgumentException("policy '" + policy + "': flush-count state must be "
                    + ENCODED_LENGTH + " bytes, was " + encoded.length);
        }
        ByteBuffer in = ByteBuffer.wrap(encoded);
        byte version = in.get();
        if (version != VERSION) {
            throw new IllegalArgumentException(
                    "policy '" + policy + "': unknown flush-count state version " + version);
        }
        long flushes = in.getLong();
        long decided = in.getLong();
        try {
            return new FlushCount(flushes, decided);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("policy '" + policy + "': " + e.getMessage(), e);
        }
    }

    /** Casts a state handed back by the engine, naming {@code policy} if it is of another policy. */
    static FlushCount of(String policy, PolicyState state) {
        if (state instanceof FlushCount c) {
            return c;
        }
        throw new IllegalArgumentException("policy '" + policy + "' expects a flush-count state, was " + state);
    }
}
