package io.lsmpolicies.lsm.merge;

import io.lsmpolicies.lsm.sstable.Entry;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Merges iterators that are each in {@link Entry#ORDER} into one iterator in that order: a k-way merge with
 * a heap, O(log k) per entry. Entries with the same key and sequence number in two inputs are both returned
 * (they cannot occur in a consistent store; {@link VersionCollapse} keeps the first).
 */
public final class MergingIterator implements Iterator<Entry> {
    private record Head(Entry entry, int input, Iterator<Entry> rest) {
    }

    private final PriorityQueue<Head> heap;

    /** @param inputs iterators, each in {@link Entry#ORDER}; on ties the earlier input comes first */
    public MergingIterator(List<? extends Iterator<Entry>> inputs) {
        heap = new PriorityQueue<>(Math.max(1, inputs.size()), (a, b) -> {
            int c = Entry.ORDER.compare(a.entry, b.entry);
            return c != 0 ? c : Integer.compare(a.input, b.input);
        });
        for (int i = 0; i < inputs.size(); i++) {
            Iterator<Entry> it = inputs.get(i);
            if (it.hasNext()) {
                heap.add(new Head(it.next(), i, it));
            }
        }
    }

    @Override
    public boolean hasNext() {
        return !heap.isEmpty();
    }

    @Override
    public Entry next() {
        Head head = heap.poll();
        if (head == null) {
            throw new NoSuchElementException();
        }
        if (head.rest.hasNext()) {
            heap.add(new Head(head.rest.next(), head.input, head.rest));
        }
        return head.entry;
    }
}
