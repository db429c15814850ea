package io.lsmpolicies.lsm.merge;

import io.lsmpolicies.lsm.sstable.Entry;
import io.lsmpolicies.lsm.sstable.EntryCursor;
import java.io.IOException;
import java.util.List;

/**
 * Merges cursors that are each in {@link Entry#ORDER} into one cursor in that order,
 * in place: the current entry is the current entry of the input that holds the smallest, read where that input
 * holds it. A k-way merge with a binary heap of the inputs, O(log k) comparisons per entry and no allocation.
 * On equal entries (same key and sequence number, which a consistent store never holds twice) the earlier input
 * comes first and both are returned ({@link VersionCollapse} keeps the first).
 *
 * <p>Advancing moves only the input that held the current entry, so the previous entry's bytes stay where
 * that input's own contract keeps them. Closing closes every input.
 */
public final class MergingCursor implements EntryCursor {
    private final EntryCursor[] inputs;
    /** Heap of input indexes, the smallest current entry at the top; {@code size} of them still have entries. */
    private final int[] heap;
    private int size;
    private boolean started;

    /** @param inputs cursors, each in internal order, not yet advanced; on ties the earlier input comes first */
    public MergingCursor(List<? extends EntryCursor> inputs) {
        this.inputs = inputs.toArray(new EntryCursor[0]);
        this.heap = new int[this.inputs.length];
    }

    @Override
    public boolean advance() throws IOException {
        if (!started) {
            started = true;
            for (int i = 0; i < inputs.length; i++) {
                if (inputs[i].advance()) {
                    heap[size++] = i;
                }
            }
            for (int i = size / 2 - 1; i >= 0; i--) {
                siftDown(i);
            }
            return size > 0;
        }
        if (size == 0) {
            return false;
        }
        if (!inputs[heap[0]].advance()) {
            heap[0] = heap[--size];
        }
        if (size > 1) {
            siftDown(0);
        }
        return size > 0;
    }

    private boolean less(int a, int b) {
        int c = EntryCursor.compare(inputs[a], inputs[b]);
        return c < 0 || c == 0 && a < b;
    }

    private void siftDown(int i) {
        int x = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && less(heap[child + 1], heap[child])) {
                child++;
            }
            if (!less(heap[child], x)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = x;
    }

    private EntryCursor top() {
        return inputs[heap[0]];
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
