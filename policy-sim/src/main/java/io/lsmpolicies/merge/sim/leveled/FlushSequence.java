package io.lsmpolicies.merge.sim.leveled;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The files a workload flushes, fixed by the workload alone: the MemTable takes {@code memtableOperations}
 * operations (the last MemTable may hold fewer), and its flush keeps the newest version of each key, sorted by
 * key, tombstones included. This is the append-only ("vector") MemTable of Wei et al. (EDBT 2025, Sect. 3):
 * duplicates within one MemTable are removed by the flush, not on insertion. Because no flush depends on the
 * tree, every compaction schedule sees the same flushes, which is what lets the optimal search replay the
 * workload. Immutable.
 */
public final class FlushSequence {

    /**
     * One flushed file's content. The arrays are shared, not copied: treat them as read-only.
     *
     * @param index      flush index, 1-based
     * @param keys       distinct keys, ascending
     * @param sequences  the newest sequence number of each key in this MemTable
     * @param tombstones whether that newest version is a delete
     * @param clock      the logical time of the flush: the sequence number of the MemTable's last operation
     */
    public record Flush(long index, int[] keys, long[] sequences, boolean[] tombstones, long clock) {
        /** {@return number of entries (distinct keys)} */
        public int entries() {
            return keys.length;
        }
    }

    private final Workload workload;
    private final int memtableOperations;
    private final List<Flush> flushes;
    /** remaining[i] = entries of flushes i, i+1, ... (0-based); remaining[size] = 0. */
    private final long[] remaining;

    private FlushSequence(Workload workload, int memtableOperations, List<Flush> flushes) {
        this.workload = workload;
        this.memtableOperations = memtableOperations;
        this.flushes = List.copyOf(flushes);
        this.remaining = new long[flushes.size() + 1];
        for (int i = flushes.size() - 1; i >= 0; i--) {
            remaining[i] = remaining[i + 1] + flushes.get(i).entries();
        }
    }

    /**
     * Cuts {@code workload} into MemTables of {@code memtableOperations} operations.
     *
     * @param workload           the workload
     * @param memtableOperations operations per MemTable
     * @return the flushes
     * @throws IllegalArgumentException if {@code memtableOperations < 1}
     */
    public static FlushSequence of(Workload workload, int memtableOperations) {
        if (memtableOperations < 1) {
            throw new IllegalArgumentException("MemTable operations must be >= 1, was " + memtableOperations);
        }
        List<Flush> out = new ArrayList<>();
        for (int start = 0; start < workload.size(); start += memtableOperations) {
            int end = Math.min(workload.size(), start + memtableOperations);
            Map<Integer, Integer> newest = new HashMap<>();
            for (int i = start; i < end; i++) {
                newest.put(workload.key(i), i);
            }
            int[] keys = newest.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
            long[] sequences = new long[keys.length];
            boolean[] tombstones = new boolean[keys.length];
            for (int j = 0; j < keys.length; j++) {
                int op = newest.get(keys[j]);
                sequences[j] = Workload.sequence(op);
                tombstones[j] = workload.kind(op) == OperationKind.DELETE;
            }
            out.add(new Flush(out.size() + 1, keys, sequences, tombstones, Workload.sequence(end - 1)));
        }
        return new FlushSequence(workload, memtableOperations, out);
    }

    /** {@return the workload cut into flushes} */
    public Workload workload() {
        return workload;
    }

    /** {@return the operations per MemTable} */
    public int memtableOperations() {
        return memtableOperations;
    }

    /** {@return the flushes, in order} */
    public List<Flush> flushes() {
        return flushes;
    }

    /** {@return number of flushes} */
    public int size() {
        return flushes.size();
    }

    /**
     * {@return flush {@code i}, 0-based}
     *
     * @param i the flush's index
     */
    public Flush get(int i) {
        return flushes.get(i);
    }

    /**
     * Entries written by all flushes.
     *
     * @return the entries
     */
    public long flushedEntries() {
        return remaining[0];
    }

    /**
     * Entries written by flushes {@code from, from + 1, ...} (0-based); 0 when {@code from == size()}.
     *
     * @param from the first flush, 0-based
     * @return the entries
     */
    public long entriesFrom(int from) {
        return remaining[from];
    }

    /** {@return number of operations, each of which ingests one entry} */
    public long operations() {
        return workload.size();
    }

    @Override
    public String toString() {
        return workload.description() + ", MemTable " + memtableOperations + " operations, " + flushes.size()
                + " flushes, " + remaining[0] + " entries flushed";
    }
}
