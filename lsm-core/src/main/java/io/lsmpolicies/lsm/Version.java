package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An immutable component set with its open tables: what one read sees on disk. The store holds one reference
 * to its current version; each read or iterator holds one while it runs. When the count reaches zero the
 * version releases its tables, which close (and delete, when replaced) once no version holds them.
 */
final class Version {
    private final ComponentSet set;
    /** Per level, in the component set's order (level 0 newest first, deeper levels by key). */
    private final List<List<TableHandle>> levels;
    /** Starts at 1: the store's reference while this is its current version. */
    private final AtomicInteger refs = new AtomicInteger(1);

    /** A version of {@code set}, taking a reference on each of its tables found in {@code tables}. */
    Version(ComponentSet set, Map<Long, TableHandle> tables) {
        this.set = set;
        List<List<TableHandle>> out = new ArrayList<>();
        for (var level : set.levels()) {
            List<TableHandle> handles = new ArrayList<>(level.size());
            for (var t : level) {
                TableHandle h = tables.get(t.fileNumber());
                if (h == null) {
                    throw new IllegalStateException("no open table for file " + t.fileNumber());
                }
                h.ref();
                handles.add(h);
            }
            out.add(List.copyOf(handles));
        }
        this.levels = List.copyOf(out);
    }

    ComponentSet set() {
        return set;
    }

    List<List<TableHandle>> levels() {
        return levels;
    }

    /** Every table, level 0 newest first, then deeper levels. */
    List<TableHandle> tables() {
        List<TableHandle> all = new ArrayList<>();
        levels.forEach(all::addAll);
        return all;
    }

    /** Takes a reference unless the version was already released; false means: read the current one again. */
    boolean tryRef() {
        while (true) {
            int n = refs.get();
            if (n == 0) {
                return false;
            }
            if (refs.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** Drops a reference; the last one releases the tables. */
    void unref() {
        int left = refs.decrementAndGet();
        if (left < 0) {
            throw new IllegalStateException("version released more often than referenced");
        }
        if (left == 0) {
            IOException first = null;
            for (TableHandle h : tables()) {
                try {
                    h.unref();
                } catch (IOException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
            if (first != null) {
                throw new UncheckedIOException("releasing a table failed", first);
            }
        }
    }
}
