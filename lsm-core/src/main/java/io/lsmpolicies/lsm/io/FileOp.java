package io.lsmpolicies.lsm.io;

/** The kinds of file operation a {@link FaultInjector} can fail. */
public enum FileOp {
    /** Reading bytes from a file. */
    READ,
    /** Writing bytes to a file. */
    WRITE,
    /** Forcing a file's bytes to the device. */
    SYNC,
    /** Renaming a file. */
    RENAME,
    /** Deleting a file. */
    DELETE,
    /** Forcing a directory's entries to the device. */
    DIRECTORY_SYNC
}
