package io.lsmpolicies.bench.vsrocks;

import io.lsmpolicies.lsm.MergeOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * What a side-by-side run changes from the systems' defaults, passed from the run to each child.
 *
 * @param subcompactions the threads one merge may be split across, in both systems (our {@code subcompactions},
 *                       RocksDB's {@code max_subcompactions}); 0 keeps each one's default (ours 2, RocksDB's 1)
 * @param mergeOrder     our stack policies' merge order; null keeps the default ({@code MERGE_MEMTABLE_SMALL}); a
 *                       leveled policy always flushes, then merges
 * @param pageBytes      our page size: 0 keeps the default, pages fitted to the entries (4 KiB for 1 KB records);
 *                       otherwise every table's pages are this size (RocksDB's blocks stay 4 KiB)
 */
record Tuning(int subcompactions, MergeOrder mergeOrder, int pageBytes) {
    /** Both systems at their defaults. */
    static final Tuning DEFAULTS = new Tuning(0, null, 0);

    Tuning {
        if (subcompactions < 0 || subcompactions > 64) {
            throw new IllegalArgumentException("subcompactions must be in [0, 64], was " + subcompactions);
        }
        if (pageBytes != 0 && (pageBytes < 512 || Integer.bitCount(pageBytes) != 1)) {
            throw new IllegalArgumentException("page bytes must be 0 (fitted) or a power of two of at least 512, was "
                    + pageBytes);
        }
    }

    /** The child's command-line options that give this tuning. */
    List<String> args() {
        List<String> args = new ArrayList<>(List.of("--subcompactions", Integer.toString(subcompactions),
                "--page-bytes", Integer.toString(pageBytes)));
        if (mergeOrder != null) {
            args.addAll(List.of("--merge-order", mergeOrder.name()));
        }
        return args;
    }
}
