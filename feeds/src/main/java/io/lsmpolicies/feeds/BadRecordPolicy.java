package io.lsmpolicies.feeds;

/** What a connection does after a bad record. */
public enum BadRecordPolicy {
    /** Count it, log it with its offset and excerpt, resynchronise at the next record and go on (the default). */
    LOG_AND_CONTINUE,
    /**
     * Count and log it, apply nothing more from the connection (records already queued are still applied), and
     * close the connection.
     */
    CLOSE_CONNECTION
}
