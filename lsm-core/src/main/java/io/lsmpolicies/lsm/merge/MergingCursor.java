package io.lsmpolicies.lsm.merge;

import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import java.io.IOException;
import java.util.List;

/**
 * Merges cursors that are each in {@link Entry#ORDER} into one cursor in that order, in place: the current entry
 * is the current entry of the input that holds the smallest, read where that input holds it. A k-way merge with
 * a tournament tree of losers (Knuth, The Art of Computer Programming vol. 3, 5.4.1): each internal node keeps the
 * input that lost the match played there, the root's winner is the current input, and after the winner advances
 * only the matches on its path to the root are replayed, ceil(log2 k) comparisons per entry (a binary heap needs
 * up to twice as many), with no allocation. On equal entries (same key and sequence number, which a consistent
 * store never holds twice) the earlier input comes first and both are returned ({@link VersionCollapse} keeps the
 * first).
 *
 * <p>Advancing moves only the input that held the current entry, so the previous entry's bytes stay where
 * that input's own contract keeps them. Closing closes every input.
 */
public final class MergingCursor implements EntryCursor {
    private final EntryCursor[] inputs;
    /** Inputs that have no entry left; they lose every match. */
    private final boolean[] done;
    /** {@code tree[0]}: the winner (the current input); {@code tree[1..k-1]}: the loser of each internal match. */
    private final int[] tree;
    private boolean started;

    /** @param inputs cursors, each in internal order, not yet advanced; on ties the earlier input comes first */
    public MergingCursor(List<? extends EntryCursor> inputs) {
        this.inputs = inputs.toArray(new EntryCursor[0]);
        this.done = new boolean[this.inputs.length];
        this.tree = new int[Math.max(1, this.inputs.length)];
    }

    @Override
    public boolean advance() throws IOException {
        int k = inputs.length;
        if (k == 0) {
            return false;
        }
        if (!started) {
            started = true;
            for (int i = 0; i < k; i++) {
                done[i] = !inputs[i].advance();
            }
            // Leaves are the inputs at positions k..2k-1 of the implicit tree; play every match bottom-up.
            int[] winners = new int[2 * k];
            for (int i = 0; i < k; i++) {
                winners[k + i] = i;
            }
            for (int p = k - 1; p >= 1; p--) {
                int a = winners[2 * p];
                int b = winners[2 * p + 1];
                boolean aWins = beats(a, b);
                winners[p] = aWins ? a : b;
                tree[p] = aWins ? b : a;
            }
            tree[0] = k == 1 ? 0 : winners[1];
            return !done[tree[0]];
        }
        int w = tree[0];
        if (done[w]) {
            return false;
        }
        done[w] = !inputs[w].advance();
        for (int p = (w + k) >>> 1; p >= 1; p >>>= 1) { // replay the winner's path to the root
            int loser = tree[p];
            if (beats(loser, w)) {
                tree[p] = w;
                w = loser;
            }
        }
        tree[0] = w;
        return !done[w];
    }

    /** Whether input {@code a}'s current entry comes before input {@code b}'s (an input with none comes last). */
    private boolean beats(int a, int b) {
        if (done[a] || done[b]) {
            return !done[a] && done[b] || done[a] && done[b] && a < b;
        }
        int c = EntryCursor.compare(inputs[a], inputs[b]);
        return c < 0 || c == 0 && a < b;
    }

    private EntryCursor top() {
        return inputs[tree[0]];
    }

    @Override
    public byte[] keyArray() {
        return top().keyArray();
    }

    @Override
    public int keyOffset() {
        return top().keyOffset();
    }

    @Override
    public int keyLength() {
        return top().keyLength();
    }

    @Override
    public long sequence() {
        return top().sequence();
    }

    @Override
    public boolean tombstone() {
        return top().tombstone();
    }

    @Override
    public byte[] valueArray() {
        return top().valueArray();
    }

    @Override
    public int valueOffset() {
        return top().valueOffset();
    }

    @Override
    public int valueLength() {
        return top().valueLength();
    }

    @Override
    public Entry entry() {
        return top().entry();
    }

    @Override
    public void close() {
        for (EntryCursor c : inputs) {
            c.close();
        }
    }
}
