package io.lsmpolicies.feeds;

/** Why a record was not applied. Each kind is counted separately in {@link FeedStats}. */
public enum ErrorKind {
    /** Bytes outside any record that are not whitespace (one error per run of such bytes). */
    STRAY_BYTES,
    /**
     * A record still open after {@link FeedConfig#maxRecordBytes()}; framing resumes at the next '{' after its
     * start (see {@link RecordFramer}).
     */
    TOO_LARGE,
    /** A framed record that is not valid UTF-8. */
    INVALID_UTF8,
    /** A framed record that the format's parser rejects. */
    SYNTAX,
    /** A primary key field absent, null, or of a type that is not a key type (string, integer, double, hex). */
    MISSING_KEY,
    /** A record the store refused (its key or value exceeds the store's limits). */
    REJECTED,
    /** A record cut off by the end of the stream (the client closed or died mid-record); nothing applied. */
    TRUNCATED,
    /**
     * A parsed record whose store stopped taking writes (its write failed, or an earlier one, or a background flush
     * or merge; see {@link Partition}): the connection is closed and every record it still held is counted here;
     * none was applied or acknowledged.
     */
    STORE_FAILED,
    /**
     * A parsed record for a partition without a store that takes writes (it failed to open, was opened read-only,
     * or is being reopened; see {@link Partition}): the connection is closed and every record it still held is
     * counted here; none was applied or acknowledged.
     */
    PARTITION_UNAVAILABLE
}
