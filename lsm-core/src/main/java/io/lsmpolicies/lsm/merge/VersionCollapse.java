package io.lsmpolicies.lsm.merge;

import io.lsmpolicies.lsm.sstable.Entry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Drops the versions a merge output no longer needs, from an input in {@link Entry#ORDER}.
 *
 * <p>The live snapshots s_1 &lt; ... &lt; s_n cut each key's history into stripes: a version with sequence q
 * belongs to the stripe of the smallest snapshot &gt;= q, or to the newest stripe if q is above all of them.
 * Each reader sees the newest version of its stripe or an older stripe, so the newest version of every
 * stripe is kept and the others are dropped. When the merge is bottommost (nothing older than its inputs
 * exists for these keys), tombstones at the old end of what is kept are dropped too: with nothing older
 * behind them they hide nothing, and a reader that saw the tombstone sees the same absence without it.
 * Tombstones that still hide older versions are kept.
 */
public final class VersionCollapse implements Iterator<Entry> {
    private final Iterator<Entry> input;
    private final long[] snapshots;
    private final boolean bottommost;
    private final ArrayDeque<Entry> ready = new ArrayDeque<>();
    private Entry pending;

    /**
     * @param input      entries in {@link Entry#ORDER}
     * @param snapshots  sequence numbers of the live snapshots, any order
     * @param bottommost true if no data older than the inputs exists for their keys
     */
    public VersionCollapse(Iterator<Entry> input, long[] snapshots, boolean bottommost) {
        this.input = input;
        this.snapshots = snapshots.clone();
        Arrays.sort(this.snapshots);
        this.bottommost = bottommost;
        pending = input.hasNext() ? input.next() : null;
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && pending != null) {
            collapseOneKey();
        }
        return !ready.isEmpty();
    }

    @Override
    public Entry next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.poll();
    }

    private void collapseOneKey() {
        Entry first = pending;
        byte[] key = first.key();
        pending = input.hasNext() ? input.next() : null;
        if (pending == null || !Arrays.equals(pending.key(), key)) { // one version, the common case: nothing to drop
            if (!(bottommost && first.tombstone())) {
                ready.add(first);
            }
            return;
        }
        List<Entry> kept = new ArrayList<>();
        kept.add(first);
        int lastStripe = stripe(first.sequence());
        while (pending != null && Arrays.equals(pending.key(), key)) {
            int stripe = stripe(pending.sequence());
            // Versions come newest first: the first one of each stripe is the one readers of that stripe see.
            if (stripe != lastStripe) {
                kept.add(pending);
                lastStripe = stripe;
            }
            pending = input.hasNext() ? input.next() : null;
        }
        if (bottommost) {
            while (!kept.isEmpty() && kept.get(kept.size() - 1).tombstone()) {
                kept.remove(kept.size() - 1);
            }
        }
        kept.forEach(ready::add);
    }

    /** Index of the smallest snapshot &gt;= sequence, or snapshots.length for the newest stripe. */
    private int stripe(long sequence) {
        int i = Arrays.binarySearch(snapshots, sequence);
        return i >= 0 ? i : -i - 1;
    }
}
