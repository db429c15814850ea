package io.lsmpolicies.merge.spi;

import java.util.List;

/**
 * A sorted run: SSTables with disjoint key ranges, ordered by key (ascending). A stack-based policy's
 * runs are its components: usually one SSTable each, several when an engine split a merge by key into files
 * (they share the merge's flushes; a merge of the run takes them all). Immutable.
 *
 * @param tables the SSTables, ascending by key, non-empty, pairwise non-overlapping
 */
public record SortedRun(List<SSTableInfo> tables) {

    /**
     * Copies the SSTables and checks their order.
     *
     * @param tables the SSTables, ascending by key
     * @throws IllegalArgumentException naming the SSTables, if there are none or two overlap or are out of order
     */
    public SortedRun {
        tables = List.copyOf(tables);
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("a sorted run holds at least one SSTable");
        }
        for (int i = 1; i < tables.size(); i++) {
            SSTableInfo prev = tables.get(i - 1);
            SSTableInfo next = tables.get(i);
            if (prev.maxKey().compareTo(next.minKey()) >= 0) {
                throw new IllegalArgumentException("sorted run: SSTable " + next.id() + " (from " + next.minKey()
                        + ") does not start after SSTable " + prev.id() + " (to " + prev.maxKey() + ")");
            }
        }
    }

    /**
     * {@return a run of one SSTable, the usual shape of a run under a stack-based policy}
     *
     * @param table the SSTable
     */
    public static SortedRun of(SSTableInfo table) {
        return new SortedRun(List.of(table));
    }

    /** {@return the first (smallest-key) SSTable; for a one-table run, the table} */
    public SSTableInfo first() {
        return tables.get(0);
    }

    /** {@return total bytes of the run's SSTables} */
    public long bytes() {
        long sum = 0;
        for (SSTableInfo t : tables) {
            sum += t.bytes();
        }
        return sum;
    }

    /** {@return whether any SSTable of the run is the input of a running merge} */
    public boolean compacting() {
        for (SSTableInfo t : tables) {
            if (t.compacting()) {
                return true;
            }
        }
        return false;
    }
}
