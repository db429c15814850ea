package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.PolicyState;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The state of the leveled family: the round-robin cursor of each level that has one (RocksDB keeps the same
 * in its manifest, as compact cursors). Policies with another picker keep it empty.
 *
 * <p>Encoding (version 1): the byte {@code 1}, the number of cursors as a big-endian 32-bit integer, then per
 * cursor, by ascending level: the level and the key's length (big-endian 32-bit integers) and the key's bytes.
 * An empty state is 5 bytes.
 *
 * @param cursors cursor key by level number ({@code >= 1}), ascending; immutable
 */
public record CompactionState(Map<Integer, Key> cursors) implements PolicyState {
    static final byte VERSION = 1;

    /** No cursor yet. */
    public static final CompactionState EMPTY = new CompactionState(Map.of());

    /**
     * Copies the cursors, sorted by level.
     *
     * @param cursors cursor key by level number
     * @throws IllegalArgumentException naming the level, if a level is below 1 or a key is null
     */
    public CompactionState {
        TreeMap<Integer, Key> copy = new TreeMap<>(cursors);
        for (Map.Entry<Integer, Key> e : copy.entrySet()) {
            if (e.getKey() < 1 || e.getValue() == null) {
                throw new IllegalArgumentException("a cursor needs a level >= 1 and a key, was level " + e.getKey());
            }
        }
        cursors = Collections.unmodifiableMap(copy);
    }

    /**
     * {@return level {@code level}'s cursor, or {@code null} if it has none}
     *
     * @param level a level number, {@code >= 1}
     */
    public Key cursor(int level) {
        return cursors.get(level);
    }

    /** This state with level {@code level}'s cursor set to {@code key}. */
    CompactionState withCursor(int level, Key key) {
        TreeMap<Integer, Key> next = new TreeMap<>(cursors);
        next.put(level, key);
        return new CompactionState(next);
    }

    @Override
    public byte[] encode() {
        int length = 5;
        for (Key k : cursors.values()) {
            length += 8 + k.length();
        }
        ByteBuffer out = ByteBuffer.allocate(length).put(VERSION).putInt(cursors.size());
        cursors.forEach((level, key) -> out.putInt(level).putInt(key.length()).put(key.toByteArray()));
        return out.array();
    }

    /**
     * Reads {@link #encode()}'s output back.
     *
     * @throws IllegalArgumentException naming {@code policy} and what is wrong: unknown version, a truncated
     *                                  record, a bad length or level, or trailing bytes
     */
    static CompactionState decode(String policy, byte[] encoded) {
        ByteBuffer in = ByteBuffer.wrap(encoded);
        try {
            byte version = in.get();
            if (version != VERSION) {
                throw new IllegalArgumentException("policy '" + policy + "': unknown cursor state version " + version);
            }
            int count = in.getInt();
            if (count < 0 || count > in.remaining() / 8) {
                throw new IllegalArgumentException("policy '" + policy + "': cursor state claims " + count
                        + " cursors in " + encoded.length + " bytes");
            }
            TreeMap<Integer, Key> cursors = new TreeMap<>();
            for (int i = 0; i < count; i++) {
                int level = in.getInt();
                int length = in.getInt();
                if (level < 1 || length < 0 || length > in.remaining() || cursors.containsKey(level)) {
                    throw new IllegalArgumentException("policy '" + policy + "': cursor " + i + " of the state has "
                            + "level " + level + " and length " + length + " with " + in.remaining() + " bytes left");
                }
                byte[] key = new byte[length];
                in.get(key);
                cursors.put(level, Key.of(key));
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("policy '" + policy + "': cursor state has " + in.remaining()
                        + " trailing bytes");
            }
            return new CompactionState(cursors);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("policy '" + policy + "': cursor state truncated at " + encoded.length
                    + " bytes", e);
        }
    }

    /** Casts a state handed back by the engine, naming {@code policy} if it is another policy's. */
    static CompactionState of(String policy, PolicyState state) {
        if (state instanceof CompactionState c) {
            return c;
        }
        throw new IllegalArgumentException("policy '" + policy + "' expects a cursor state, was " + state);
    }

    @Override
    public String toString() {
        return "cursors" + cursors;
    }
}
