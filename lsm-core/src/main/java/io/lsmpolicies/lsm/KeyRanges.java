package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.sstable.SSTableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Where a merge split into key ranges is cut: keys that divide its inputs' bytes about evenly, so that the ranges,
 * merged at once on separate threads, take about as long. Candidates are the first keys of evenly spaced leaves of
 * the inputs, {@value #CANDIDATES_PER_RANGE} per range shared among the inputs by their bytes (an input with a
 * small share gives none, the largest at least one: a merge of many small inputs costs no more than a few index
 * reads per candidate); a
 * key's position is the bytes of all inputs before it, estimated from the leaf that would hold it in each (index
 * pages only). Any cut is correct, since every version of a key falls in one range; only
 * the balance depends on the estimate.
 */
final class KeyRanges {
    /** Candidate cuts per range, shared among the inputs by their bytes. */
    static final int CANDIDATES_PER_RANGE = 8;

    private KeyRanges() {
    }

    /**
     * Up to {@code ranges - 1} keys, ascending and distinct, that cut {@code inputs}' entries into ranges of about
     * equal bytes; fewer (none) if the inputs have too few leaves to tell.
     *
     * @param inputs the merge's inputs
     * @param ranges the ranges wanted, at least 2
     * @return the cuts: range i is {@code [cut(i - 1), cut(i))}, the first from the start, the last to the end
     * @throws IOException if an index page or a sampled leaf cannot be read
     */
    static List<byte[]> splitKeys(List<SSTableReader> inputs, int ranges) throws IOException {
        if (ranges < 2) {
            throw new IllegalArgumentException("ranges must be >= 2, was " + ranges);
        }
        double total = 0;
        for (SSTableReader r : inputs) {
            total += r.metadata().dataBytes();
        }
        SSTableReader largest = inputs.stream().max(Comparator.comparingLong(r -> r.metadata().dataBytes()))
                .orElseThrow();
        List<byte[]> candidates = new ArrayList<>();
        for (SSTableReader r : inputs) {
            long leaves = r.leafCount();
            long share = Math.round(CANDIDATES_PER_RANGE * ranges * r.metadata().dataBytes() / Math.max(1, total));
            int per = (int) Math.min(leaves - 1, r == largest ? Math.max(1, share) : share);
            for (int j = 1; j <= per; j++) {
                candidates.add(r.firstKey(j * leaves / (per + 1)));
            }
        }
        if (candidates.isEmpty()) {
            return List.of();
        }
        candidates.sort(Arrays::compareUnsigned);
        double[] position = new double[candidates.size()];
        for (int c = 0; c < candidates.size(); c++) {
            for (SSTableReader r : inputs) {
                position[c] += (double) r.metadata().dataBytes() * r.leafOf(candidates.get(c)) / r.leafCount();
            }
        }
        List<byte[]> cuts = new ArrayList<>(ranges - 1);
        int from = 0;
        for (int i = 1; i < ranges; i++) {
            double target = total * i / ranges;
            int best = -1;
            for (int c = from; c < candidates.size(); c++) {
                if (position[c] > 0 && (best < 0 || Math.abs(position[c] - target) < Math.abs(position[best] - target))
                        && (cuts.isEmpty() || Arrays.compareUnsigned(candidates.get(c), cuts.get(cuts.size() - 1)) > 0)) {
                    best = c;
                }
            }
            if (best < 0) {
                break;
            }
            cuts.add(candidates.get(best));
            from = best + 1;
        }
        return cuts;
    }
}
