package io.lsmpolicies.merge.sim.leveled;

/**
 * The costs of running one policy (or one search schedule) on one workload in the key-level model. Every entry
 * is {@code entryBytes} bytes, so every figure below is a count of entries times that size.
 *
 * @param policy             the policy's label
 * @param workload           the workload's description
 * @param ingestedBytes      bytes passed in by the workload: one entry per operation (a delete's tombstone too)
 * @param flushes            number of flushes
 * @param flushBytes         bytes written by flushes (a flush keeps one version per key of its MemTable)
 * @param compactionBytes    bytes written by real compactions (trivial moves write nothing)
 * @param compactionReadBytes bytes read by real compactions
 * @param compactions        number of real compactions
 * @param trivialMoves       number of trivial moves
 * @param levels             number of levels at the end (up to the deepest non-empty one, level 0 included)
 * @param finalBytes         bytes in the tree at the end
 */
public record ModelResult(String policy, String workload, long ingestedBytes, long flushes, long flushBytes,
        long compactionBytes, long compactionReadBytes, long compactions, long trivialMoves, int levels,
        long finalBytes) {

    /**
     * Bytes written to storage: flushes plus compaction outputs.
     *
     * @return the bytes
     */
    public long writtenBytes() {
        return flushBytes + compactionBytes;
    }

    /**
     * Write amplification as Wei et al. (EDBT 2025, Sect. 3) measure it: bytes written by flushes and compactions
     * over the bytes ingested ({@code Put()} calls; no write-ahead log in either).
     *
     * @return the write amplification
     */
    public double writeAmplification() {
        return (double) writtenBytes() / ingestedBytes;
    }

    /** {@return the same written bytes over the bytes flushed: 1 + compaction bytes / flush bytes} */
    public double writeAmplificationOverFlushed() {
        return (double) writtenBytes() / flushBytes;
    }
}
