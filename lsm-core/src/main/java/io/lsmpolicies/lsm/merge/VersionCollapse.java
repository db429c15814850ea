package io.lsmpolicies.lsm.merge;

import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Drops the versions a merge output no longer needs, from an input in {@link Entry#ORDER}, in place: a kept
 * entry is the input's current entry, read where the input holds it.
 *
 * <p>The live snapshots s_1 &lt; ... &lt; s_n cut each key's history into stripes: a version with sequence q
 * belongs to the stripe of the smallest snapshot &gt;= q, or to the newest stripe if q is above all of them.
 * Each reader sees the newest version of its stripe or an older stripe, so the newest version of every
 * stripe is kept and the others are dropped. When the merge is bottommost (nothing older than its inputs
 * exists for these keys), tombstones at the old end of what is kept are dropped too: with nothing older
 * behind them they hide nothing, and a reader that saw the tombstone sees the same absence without it.
 * Tombstones that still hide older versions are kept.
 *
 * <p>One pass, no look-ahead: versions come newest first, so the first version of a key and the first of each
 * older stripe are kept as they come. In a bottommost merge a kept tombstone is held back (copied: it has no
 * value) until a later kept version of its key shows that it still hides something; the tombstones still held
 * when the key ends are the old end, and go. Closing closes the input.
 */
public final class VersionCollapse implements EntryCursor {
    private final EntryCursor input;
    private final long[] snapshots;
    private final boolean bottommost;
    /** The current key's bytes (a copy) and length; {@code keyLen < 0} before the first entry. */
    private byte[] key = new byte[64];
    private int keyLen = -1;
    private int lastStripe;
    /** Bottommost: kept tombstones of the current key, held back until a later kept version. */
    private final ArrayDeque<Entry> held = new ArrayDeque<>();
    /** Held tombstones being given out before the input's current entry, which follows them. */
    private final ArrayDeque<Entry> releasing = new ArrayDeque<>();
    private Entry current;
    private EntryCursor currentCursor;

    /**
     * @param input      entries in {@link Entry#ORDER}, not yet advanced
     * @param snapshots  sequence numbers of the live snapshots, any order
     * @param bottommost true if no data older than the inputs exists for their keys
     */
    public VersionCollapse(EntryCursor input, long[] snapshots, boolean bottommost) {
        this.input = input;
        this.snapshots = snapshots.clone();
        Arrays.sort(this.snapshots);
        this.bottommost = bottommost;
    }

    @Override
    public boolean advance() throws IOException {
        if (!releasing.isEmpty()) {
            current = releasing.poll();
            return true;
        }
        if (current != null && currentCursor != null) { // the held tombstones are out: now the entry behind them
            current = null;
            return true;
        }
        current = null;
        currentCursor = null;
        while (input.advance()) {
            int stripe = stripe(input.sequence());
            int at = input.keyOffset();
            int len = input.keyLength();
            if (keyLen == len && Arrays.equals(key, 0, len, input.keyArray(), at, at + len)) {
                if (stripe == lastStripe) {
                    continue; // an older version of a stripe whose newest version is kept
                }
            } else { // a new key: tombstones still held are the old end of the previous key's kept versions
                held.clear();
                if (key.length < len) {
                    key = new byte[Math.max(len, 2 * key.length)];
                }
                System.arraycopy(input.keyArray(), at, key, 0, len);
                keyLen = len;
            }
            lastStripe = stripe;
            if (bottommost && input.tombstone()) {
                held.add(input.entry());
                continue;
            }
            if (held.isEmpty()) {
                return true;
            }
            releasing.addAll(held);
            held.clear();
            current = releasing.poll();
            currentCursor = input; // given out once the held tombstones are
            return true;
        }
        return false;
    }

    /** Index of the smallest snapshot &gt;= sequence, or snapshots.length for the newest stripe. */
    private int stripe(long sequence) {
        if (snapshots.length == 0) {
            return 0;
        }
        int i = Arrays.binarySearch(snapshots, sequence);
        return i >= 0 ? i : -i - 1;
    }

    @Override
    public byte[] keyArray() {
        return current != null ? current.key() : input.keyArray();
    }

    @Override
    public int keyOffset() {
        return current != null ? 0 : input.keyOffset();
    }

    @Override
    public int keyLength() {
        return current != null ? current.key().length : input.keyLength();
    }

    @Override
    public long sequence() {
        return current != null ? current.sequence() : input.sequence();
    }

    @Override
    public boolean tombstone() {
        return current != null ? current.tombstone() : input.tombstone();
    }

    @Override
    public byte[] valueArray() {
        return current != null ? current.value() : input.valueArray();
    }

    @Override
    public int valueOffset() {
        return current != null ? 0 : input.valueOffset();
    }

    @Override
    public int valueLength() {
        return current != null ? current.value().length : input.valueLength();
    }

    @Override
    public Entry entry() {
        return current != null ? current : input.entry();
    }

    @Override
    public void close() {
        input.close();
    }
}
