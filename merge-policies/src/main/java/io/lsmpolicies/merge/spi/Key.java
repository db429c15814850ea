package io.lsmpolicies.merge.spi;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * An immutable key: a byte string ordered as unsigned bytes, lexicographically (the engine's order).
 * The empty key is the smallest key.
 */
public final class Key implements Comparable<Key> {
    /** The empty key, smaller than every other key. */
    public static final Key EMPTY = new Key(new byte[0]);

    private final byte[] bytes;

    private Key(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * {@return a key holding a copy of {@code bytes}}
     *
     * @param bytes the key's bytes
     */
    public static Key of(byte[] bytes) {
        return new Key(bytes.clone());
    }

    /**
     * {@return a key holding the UTF-8 bytes of {@code text}; convenient in tests and examples}
     *
     * @param text the key as text
     */
    public static Key of(String text) {
        return new Key(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** {@return a copy of the key's bytes} */
    public byte[] toByteArray() {
        return bytes.clone();
    }

    /** {@return the number of bytes} */
    public int length() {
        return bytes.length;
    }

    @Override
    public int compareTo(Key other) {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Key k && Arrays.equals(bytes, k.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** Printable ASCII as is, anything else as hex, e.g. {@code user12} or {@code 0x00ff}. */
    @Override
    public String toString() {
        for (byte b : bytes) {
            if (b < 0x20 || b > 0x7e) {
                return "0x" + HexFormat.of().formatHex(bytes);
            }
        }
        return new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
    }
}
