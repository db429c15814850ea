package io.lsmpolicies.lsm;

import java.util.List;

/**
 * Everything a read consults, published as one immutable object so that no read sees a MemTable and the
 * SSTable it was flushed into, or neither: the active MemTable, the immutable ones waiting for their flush
 * (newest first), and the SSTables ({@link Version}). A read takes a reference on the version while it runs.
 */
record ReadView(LiveMemTable active, List<LiveMemTable> immutables, Version version) {
    ReadView {
        immutables = List.copyOf(immutables);
    }

    /**
     * Sorted runs a point read may probe: level-0 components (a merge split by key is one) plus non-empty deeper
     * levels (docs/architecture.md).
     */
    int components() {
        int n = version.set().level0Components().size();
        var levels = version.levels();
        for (int i = 1; i < levels.size(); i++) {
            n += levels.get(i).isEmpty() ? 0 : 1;
        }
        return n;
    }
}
