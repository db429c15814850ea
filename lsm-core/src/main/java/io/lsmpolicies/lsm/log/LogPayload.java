package io.lsmpolicies.lsm.log;

import java.nio.ByteBuffer;

/**
 * A log record's payload that encodes itself where the log buffers it, so a record is written without an array of
 * its own ({@link LogWriter#append(LogPayload)}).
 */
public interface LogPayload {
    /**
     * The payload's encoded length.
     *
     * @return its bytes; {@link #encodeTo} puts exactly that many
     */
    int encodedSize();

    /**
     * Puts the payload's bytes at {@code out}'s position, advancing it by {@link #encodedSize()}.
     *
     * @param out a buffer with at least {@link #encodedSize()} bytes remaining
     */
    void encodeTo(ByteBuffer out);

    /**
     * A payload of bytes already encoded.
     *
     * @param bytes the payload (not copied)
     * @return it as a payload
     */
    static LogPayload of(byte[] bytes) {
        return new LogPayload() {
            @Override
            public int encodedSize() {
                return bytes.length;
            }

            @Override
            public void encodeTo(ByteBuffer out) {
                out.put(bytes);
            }
        };
    }
}
