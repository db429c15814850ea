package io.lsmpolicies.lsm;

/**
 * The store's write and space counters at one moment, taken when a flush is installed (see
 * {@link LsmStore#onFlush}) or on demand ({@link LsmStore#sample()}). A series of them is the per-flush trace
 * from which the figures of Mao et al. (VLDB Journal 2021, Sect. 4: write amplification against flushes, average
 * read amplification, transient space amplification) are drawn.
 *
 * @param flushes       flushes installed so far
 * @param flushedBytes  bytes of the SSTables flushes wrote so far
 * @param writtenBytes  bytes of the SSTables flushes and installed real merges wrote so far (the numerator of
 *                      write amplification; virtual merges write nothing)
 * @param components    SSTables a point read may probe now; at a flush, before the merges it triggers
 * @param peakDiskBytes the most SSTable bytes on disk at once since the previous sample (merge outputs counted
 *                      while their inputs still exist)
 */
public record FlushSample(long flushes, long flushedBytes, long writtenBytes, int components, long peakDiskBytes) {
}
