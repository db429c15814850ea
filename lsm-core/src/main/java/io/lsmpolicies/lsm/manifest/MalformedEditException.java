package io.lsmpolicies.lsm.manifest;

import io.lsmpolicies.lsm.CorruptionException.Code;

/**
 * Thrown inside the edit decoder when a field is malformed; {@link ManifestEdit#decode} turns it into a
 * {@link io.lsmpolicies.lsm.CorruptionException} naming the file and the record's offset, which the decoder
 * itself does not know.
 */
final class MalformedEditException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Code code;

    MalformedEditException(Code code, String detail) {
        super(detail);
        this.code = code;
    }

    Code code() {
        return code;
    }
}
