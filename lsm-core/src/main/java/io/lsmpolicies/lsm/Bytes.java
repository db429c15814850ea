package io.lsmpolicies.lsm;

import java.nio.ByteBuffer;

/** Decoding helpers shared by the engine's small binary formats. */
public final class Bytes {
    private Bytes() {
    }

    /**
     * Reads a u32 length and that many bytes.
     *
     * @param in   the buffer
     * @param what what the bytes are, for the error message
     * @return the bytes read
     * @throws IllegalArgumentException naming {@code what} if the length is negative or runs past the buffer
     */
    public static byte[] lengthPrefixed(ByteBuffer in, String what) {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException(what + " length " + Integer.toUnsignedString(n) + " runs past the "
                    + in.remaining() + " bytes left");
        }
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }
}
