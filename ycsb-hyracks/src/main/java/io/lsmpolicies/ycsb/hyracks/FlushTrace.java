package io.lsmpolicies.ycsb.hyracks;

import io.lsmpolicies.ycsb.common.TraceFile.Event;
import io.lsmpolicies.ycsb.common.TraceFile.Row;
import io.lsmpolicies.ycsb.common.TraceFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;

/**
 * The benchmark's trace of one index in this process: one row per flush, in install order, and one {@code end} row
 * once everything has settled, written as CSV ({@link TraceFile}), the contract every system of the benchmark follows.
 *
 * <ul>
 *   <li>{@code flushes}: flushes installed so far (1..n);</li>
 *   <li>{@code flushed_bytes}: bytes of the disk components written by those flushes (their B-tree and Bloom filter
 *       files, {@code getComponentSize()});</li>
 *   <li>{@code written_bytes}: bytes of the disk components written by flushes and by the merges installed so
 *       far;</li>
 *   <li>{@code components}: disk components right after the flush is installed, before the merges it triggers
 *       (merge inputs still count while their merge runs: a point read still probes them);</li>
 *   <li>{@code disk_bytes}: the largest total seen since the previous row, counting the components of the index
 *       plus the outputs written but not yet installed (a merge output beside its inputs, a flush output waiting
 *       for a lagging merge).</li>
 * </ul>
 *
 * <p>Fed by two hooks, both in Hyracks 0.3.8's {@code LSMHarness}: {@link #written} from the index's IO-operation
 * callback ({@code afterFinalize}: the output's files are complete and forced, not yet installed), and
 * {@link #installed} from the merge-policy wrapper ({@code diskComponentAdded}, right after Hyracks adds a flush
 * output or swaps a merge output in). The type of each output is the type of the operation that wrote it, so flushes
 * and merges are told apart exactly. REQUIRES: both hooks are called holding the index's operation-tracker lock
 * (Hyracks holds it for {@code diskComponentAdded}; the callback takes it), which orders them as Hyracks orders the
 * installs. Thread-safe.
 */
final class FlushTrace {
    private record Written(LSMIOOperationType type, long bytes) {
    }

    private final Map<ILSMDiskComponent, Written> pending = new IdentityHashMap<>();
    private final List<Row> rows = new ArrayList<>();
    private long flushes;
    private long merges;
    private long flushedBytes;
    private long writtenBytes;
    private long maxDiskSinceRow;

    /**
     * A flush or merge wrote {@code output} (complete on disk, not yet installed); {@code components} are the
     * index's disk components now.
     */
    synchronized void written(LSMIOOperationType type, ILSMDiskComponent output, List<ILSMDiskComponent> components) {
        pending.put(output, new Written(type, output.getComponentSize()));
        observe(components);
    }

    /**
     * Hyracks installed one output: {@code components} (newest first) are the index's disk components now. A flush
     * adds a row.
     */
    synchronized void installed(List<ILSMDiskComponent> components) {
        Written flush = null;
        for (ILSMDiskComponent c : components) {
            Written w = pending.remove(c);
            if (w == null) {
                continue;
            }
            writtenBytes += w.bytes();
            if (w.type() == LSMIOOperationType.FLUSH) {
                flushes++;
                flushedBytes += w.bytes();
                flush = w;
            } else {
                merges++;
            }
        }
        long disk = observe(components);
        if (flush != null) {
            rows.add(new Row(Event.FLUSH, flushes, flushedBytes, writtenBytes, components.size(), maxDiskSinceRow));
            maxDiskSinceRow = disk;
        }
    }

    /** The {@code end} row, with {@code components} the settled index's disk components. */
    synchronized Row end(List<ILSMDiskComponent> components) {
        observe(components);
        return new Row(Event.END, flushes, flushedBytes, writtenBytes, components.size(), maxDiskSinceRow);
    }

    /** The flush rows so far. */
    synchronized List<Row> rows() {
        return List.copyOf(rows);
    }

    /** Merges installed so far. */
    synchronized long merges() {
        return merges;
    }

    /** Writes the flush rows and {@code end} to {@code file} ({@link TraceFile#write}). */
    void write(Path file, Row end) throws IOException {
        List<Row> all = new ArrayList<>(rows());
        all.add(end);
        TraceFile.write(file, all);
    }

    /** Notes the current total (components plus outputs not yet installed); returns it. */
    private long observe(List<ILSMDiskComponent> components) {
        long total = 0;
        for (ILSMDiskComponent c : components) {
            total += c.getComponentSize();
        }
        for (Written w : pending.values()) {
            total += w.bytes();
        }
        maxDiskSinceRow = Math.max(maxDiskSinceRow, total);
        return total;
    }
}
