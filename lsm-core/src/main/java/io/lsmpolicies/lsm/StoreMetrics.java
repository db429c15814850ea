package io.lsmpolicies.lsm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.UncheckedIOException;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A point-in-time copy of the store's counters, with the metrics of docs/architecture.md ("Metrics"). Immutable;
 * {@link #toJson()} gives the same fields as JSON.
 *
 * @param userBytes                    key and value bytes passed to put and delete
 * @param puts                         put operations (batch operations included)
 * @param deletes                      delete operations
 * @param gets                         point reads
 * @param flushes                      flushes installed
 * @param flushedBytes                 bytes of the SSTables flushes wrote (with {@link MergeOrder#MERGE_MEMTABLE},
 *                                     the estimated size of each MemTable as an SSTable)
 * @param merges                       merges installed
 * @param mergeInputBytes              bytes of the SSTables merges consumed
 * @param mergeOutputBytes             bytes of the SSTables merges wrote
 * @param modelWriteAmplification      (flush output + merge output) / flushed bytes; 1 if nothing was flushed
 * @param deviceWriteAmplification     bytes written by flushes and merges at the file layer / user bytes
 * @param walBytes                     bytes written to the write-ahead log
 * @param readAmplification            SSTables a point read may probe, averaged over flushes (sampled when each
 *                                     flush is installed, before the merges it triggers)
 * @param components                   SSTables a point read may probe now
 * @param tablesProbedPerGet           SSTables whose pages a get actually read (key range and Bloom filter
 *                                     passed), averaged over gets
 * @param transientSpaceAmplification  maximum over time of SSTable bytes on disk (merge outputs included, inputs
 *                                     not yet deleted) / bytes flushed so far
 * @param diskBytes                    SSTable bytes on disk now
 * @param liveTables                   tables in the current component set
 * @param stalls                       writes that waited for a flush
 * @param stallNanos                   total time writes waited
 * @param mergeLagNanos                total time flushes waited because the policy said merging lagged
 * @param flushLatency                 flush durations, microseconds
 * @param mergeLatency                 merge durations, microseconds
 * @param stallLatency                 stall durations, microseconds
 * @param mergeBytes                   bytes written per merge
 * @param bytesWrittenByCause          file-layer bytes written, by cause
 * @param bytesReadByCause             file-layer bytes read, by cause
 * @param blockCacheHits               block cache hits
 * @param blockCacheMisses             block cache misses
 * @param virtualMerges                virtual merges installed (delayed compaction: metadata only; not in
 *                                     {@code merges})
 * @param virtualTables                virtual tables in the current component set
 */
public record StoreMetrics(long userBytes, long puts, long deletes, long gets, long flushes, long flushedBytes,
        long merges, long mergeInputBytes, long mergeOutputBytes, double modelWriteAmplification,
        double deviceWriteAmplification, long walBytes, double readAmplification, int components,
        double tablesProbedPerGet, double transientSpaceAmplification, long diskBytes, int liveTables, long stalls,
        long stallNanos, long mergeLagNanos, Summary flushLatency, Summary mergeLatency, Summary stallLatency,
        Summary mergeBytes, Map<String, Long> bytesWrittenByCause, Map<String, Long> bytesReadByCause,
        long blockCacheHits, long blockCacheMisses, long virtualMerges, int virtualTables) {

    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    /**
     * A histogram's summary.
     *
     * @param count recorded values
     * @param mean  mean
     * @param p50   median
     * @param p99   99th percentile
     * @param max   maximum
     */
    public record Summary(long count, double mean, long p50, long p99, long max) {
        static Summary of(Histogram h) {
            if (h.getTotalCount() == 0) {
                return new Summary(0, 0, 0, 0, 0);
            }
            return new Summary(h.getTotalCount(), h.getMean(), h.getValueAtPercentile(50),
                    h.getValueAtPercentile(99), h.getMaxValue());
        }
    }

    /** The metrics as one JSON object. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
