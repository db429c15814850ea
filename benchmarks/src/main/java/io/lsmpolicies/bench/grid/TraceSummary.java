package io.lsmpolicies.bench.grid;

import io.lsmpolicies.ycsb.common.TraceFile;
import java.util.List;

/**
 * The paper's metrics of one run, from its per-flush trace (Mao et al., VLDB Journal 2021, Sect. 4): write
 * amplification so far at each flush, the final one (after the last merges), average read amplification (the
 * SSTables a point read may probe, averaged over flushes) and transient space amplification (the most SSTable
 * bytes on disk at once over the bytes flushed so far).
 *
 * @param flushes                     flushes in the run
 * @param flushedBytes                bytes the flushes wrote
 * @param writtenBytes                bytes flushes and merges wrote
 * @param writeAmplification          {@code writtenBytes / flushedBytes} at the end
 * @param readAmplification           mean of the components column over the flush rows
 * @param transientSpaceAmplification max over rows of {@code disk_bytes / flushed_bytes}
 * @param flushSizes                  each flush's bytes, in order (the simulator's input for the same run)
 * @param curve                       write amplification so far after each flush (index 0: flush 1)
 */
public record TraceSummary(long flushes, long flushedBytes, long writtenBytes, double writeAmplification,
        double readAmplification, double transientSpaceAmplification, long[] flushSizes, double[] curve) {

    /** The summary of {@code rows} (a {@link TraceFile#read} result: flush rows, then the end row). */
    public static TraceSummary of(List<TraceFile.Row> rows) {
        List<TraceFile.Row> flushRows = rows.subList(0, rows.size() - 1);
        TraceFile.Row end = rows.get(rows.size() - 1);
        long[] sizes = new long[flushRows.size()];
        double[] curve = new double[flushRows.size()];
        double components = 0;
        double transientMax = 0;
        long before = 0;
        for (int i = 0; i < flushRows.size(); i++) {
            TraceFile.Row r = flushRows.get(i);
            sizes[i] = r.flushedBytes() - before;
            before = r.flushedBytes();
            curve[i] = r.flushedBytes() == 0 ? 1.0 : (double) r.writtenBytes() / r.flushedBytes();
            components += r.components();
            if (r.flushedBytes() > 0) {
                transientMax = Math.max(transientMax, (double) r.diskBytes() / r.flushedBytes());
            }
        }
        if (end.flushedBytes() > 0) {
            transientMax = Math.max(transientMax, (double) end.diskBytes() / end.flushedBytes());
        }
        return new TraceSummary(end.flushes(), end.flushedBytes(), end.writtenBytes(),
                end.flushedBytes() == 0 ? 1.0 : (double) end.writtenBytes() / end.flushedBytes(),
                flushRows.isEmpty() ? 0 : components / flushRows.size(), transientMax, sizes, curve);
    }
}
