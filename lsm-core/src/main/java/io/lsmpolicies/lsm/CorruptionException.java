package io.lsmpolicies.lsm;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Stored data failed a check: a checksum, a magic number, a length, a version. Names the file, the byte
 * offset and a stable {@link Code}, so that an operator (and a test) knows exactly what broke where. It is
 * never swallowed into a wrong answer.
 */
public final class CorruptionException extends IOException {
    private static final long serialVersionUID = 1L;

    /** What kind of check failed; stable names, safe to match on. */
    public enum Code {
        /** The file does not start with the expected magic number: not our file, or the wrong kind. */
        BAD_MAGIC,
        /** The file's format version is one this code cannot read. */
        UNSUPPORTED_VERSION,
        /** A stored checksum does not match the bytes it covers. */
        CHECKSUM_MISMATCH,
        /** A stored length is impossible (negative, over the limit, or past the end of the file). */
        BAD_LENGTH,
        /** The file ends inside its header. */
        TRUNCATED_HEADER,
        /** A log ends with an incomplete final write, and the reader was told not to tolerate that. */
        TORN_TAIL,
        /** A record holds a field tag this code does not know (a newer writer, or damage under a valid CRC). */
        UNKNOWN_TAG,
        /**
         * A record decodes but contradicts the format's rules or the state it applies to (e.g. a manifest edit
         * that removes a file the component set does not hold).
         */
        INCONSISTENT_RECORD,
        /** A file that stored data names (e.g. the manifest that CURRENT points at) does not exist. */
        MISSING_FILE
    }

    private final transient Path file;
    /** The byte offset of the record, page or header that failed. */
    private final long offset;
    /** What kind of damage it is. */
    private final Code code;

    /**
     * Damage found in a file.
     *
     * @param file     the damaged file
     * @param offset the byte offset of the record, page or header that failed
     * @param code     what kind of damage it is
     * @param detail what was found, for the message
     */
    public CorruptionException(Path file, long offset, Code code, String detail) {
        super(file + " at offset " + offset + ": " + code + ": " + detail);
        this.file = file;
        this.offset = offset;
        this.code = code;
    }

    /** {@return the damaged file} */
    public Path file() {
        return file;
    }

    /** {@return byte offset in {@link #file()} of the record, page or header that failed} */
    public long offset() {
        return offset;
    }

    /** {@return what kind of damage it is} */
    public Code code() {
        return code;
    }
}
