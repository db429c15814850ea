package io.lsmpolicies.lsm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.UncheckedIOException;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A point-in-time copy of the store's counters, grouped as the data path is: writes, flushes, merges, reads, the
 * amplifications computed from them, the tables now, file-layer I/O and the block cache. The metrics are defined
 * in docs/architecture.md ("Metrics"). Immutable; {@link #toJson()} gives the same groups as nested JSON objects.
 *
 * @param writes        the write path
 * @param flushes       flushes installed
 * @param merges        merges installed
 * @param reads         point reads
 * @param amplification write, read and transient space amplification
 * @param tables        the component set now
 * @param io            file-layer bytes by cause
 * @param cache         the block cache
 */
public record StoreMetrics(Writes writes, Flushes flushes, Merges merges, Reads reads, Amplification amplification,
        Tables tables, Io io, Cache cache) {

    /**
     * @param userBytes    key and value bytes passed to put and delete
     * @param puts         put operations (batch operations included)
     * @param deletes      delete operations
     * @param walBytes     bytes written to the write-ahead log
     * @param stalls       writes that waited for a flush
     * @param stallNanos   total time writes waited
     * @param stallLatency stall durations, microseconds
     */
    public record Writes(long userBytes, long puts, long deletes, long walBytes, long stalls, long stallNanos,
            Summary stallLatency) {
    }

    /**
     * @param count         flushes installed
     * @param bytes         bytes of the SSTables flushes wrote (with a merging flush, {@link MergeOrder#MERGE_MEMTABLE}
     *                      or {@link MergeOrder#MERGE_MEMTABLE_SMALL}, the estimated size of each MemTable as an
     *                      SSTable)
     * @param mergeLagNanos total time flushes waited because the policy said merging lagged
     * @param latency       flush durations, microseconds
     */
    public record Flushes(long count, long bytes, long mergeLagNanos, Summary latency) {
    }

    /**
     * @param count       real merges installed
     * @param inputBytes  bytes of the SSTables they consumed
     * @param outputBytes bytes of the SSTables they wrote
     * @param virtual     virtual merges installed (delayed compaction: metadata only; not in {@code count})
     * @param latency     merge durations (every kind), microseconds
     * @param outputSizes bytes written per real merge
     */
    public record Merges(long count, long inputBytes, long outputBytes, long virtual, Summary latency,
            Summary outputSizes) {
    }

    /**
     * @param gets               point reads
     * @param scans              scans (iterators opened)
     * @param tablesProbedPerGet SSTables whose pages a get actually read (key range and Bloom filter passed),
     *                           averaged over gets
     */
    public record Reads(long gets, long scans, double tablesProbedPerGet) {
    }

    /**
     * @param modelWrite     (flush output + merge output) / flushed bytes; 1 if nothing was flushed
     * @param deviceWrite    bytes written by flushes and merges at the file layer / user bytes
     * @param read           SSTables a point read may probe, averaged over flushes (sampled when each flush is
     *                       installed, before the merges it triggers)
     * @param transientSpace maximum over time of SSTable bytes on disk (merge outputs included, inputs not yet
     *                       deleted) / bytes flushed so far
     */
    public record Amplification(double modelWrite, double deviceWrite, double read, double transientSpace) {
    }

    /**
     * @param components    sorted runs a point read may probe now (level-0 components and non-empty deeper levels)
     * @param live          tables in the current component set
     * @param virtual       virtual tables among them
     * @param diskBytes     SSTable bytes on disk now
     */
    public record Tables(int components, int live, int virtual, long diskBytes) {
    }

    /**
     * @param bytesWrittenByCause file-layer bytes written, by cause
     * @param bytesReadByCause    file-layer bytes read, by cause
     */
    public record Io(Map<String, Long> bytesWrittenByCause, Map<String, Long> bytesReadByCause) {
        /**
         * Copies both maps: the record never changes, whatever the caller does with its maps after.
         *
         * @param bytesWrittenByCause file-layer bytes written, by cause
         * @param bytesReadByCause    file-layer bytes read, by cause
         */
        public Io {
            bytesWrittenByCause = Map.copyOf(bytesWrittenByCause);
            bytesReadByCause = Map.copyOf(bytesReadByCause);
        }
    }

    /**
     * @param hits             block cache hits
     * @param misses           block cache misses
     * @param cachedBytes      bytes of leaf pages (with their parsed entry index) the block cache holds now
     * @param offHeapBytes     bytes of off-heap memory the block cache has taken for pages (at most its
     *                         capacity; taken as first needed and kept while the store is open)
     * @param pinnedIndexBytes bytes of internal (index) pages the open tables hold outside the cache, off the heap,
     *                         each parsed once on first use; Bloom filters and page offsets (8 bytes per page),
     *                         held on the heap from a table's open, are not counted here
     */
    public record Cache(long hits, long misses, long cachedBytes, long offHeapBytes, long pinnedIndexBytes) {
    }

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

    /** {@return the metrics as one JSON object, the groups as nested objects} */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
