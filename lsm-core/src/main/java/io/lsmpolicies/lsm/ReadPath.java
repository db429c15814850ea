package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.sstable.BloomFilter;
import io.lsmpolicies.lsm.sstable.BloomFilter.KeyHash;
import io.lsmpolicies.lsm.sstable.Entry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The read path, lock-free: a read takes the current {@link ReadView} (a reference on its version), then its
 * sequence number, and looks in the active MemTable, the immutable ones newest first, level 0 newest first, and
 * one table per deeper level found by key range; the first version found wins. A virtual table is read through
 * its parents, and the virtual tables a read meets are offered for materialising.
 */
final class ReadPath {
    private final StoreContext ctx;
    private final MergeScheduler scheduler;
    private final LongSupplier visible;

    /** @param visible the sequence number of the newest acknowledged write */
    ReadPath(StoreContext ctx, MergeScheduler scheduler, LongSupplier visible) {
        this.ctx = ctx;
        this.scheduler = scheduler;
        this.visible = visible;
    }

    /**
     * A read at {@code snapshot}, or (-1) at the newest acknowledged write. The latter reads the sequence
     * number after taking the view: every version a flush or merge in that view dropped was superseded by
     * one at or below that number, so the read sees the newest; reading it before could meet a view whose
     * flush dropped the version it needs.
     */
    byte[] get(byte[] key, long snapshot) throws IOException {
        ReadView rv = ctx.tables().acquire(ctx.run());
        long sequence = snapshot >= 0 ? snapshot : visible.getAsLong();
        try {
            ctx.stats().get();
            Entry e = rv.active().table().get(key, sequence);
            for (int i = 0; e == null && i < rv.immutables().size(); i++) {
                e = rv.immutables().get(i).table().get(key, sequence);
            }
            if (e == null) {
                e = getFromTables(rv.version(), key, sequence);
            }
            return e == null || e.tombstone() ? null : e.value();
        } finally {
            TableSet.release(rv);
        }
    }

    /** As {@link #get}: -1 reads the newest acknowledged write, its number taken after the view. */
    StoreIterator scan(byte[] from, byte[] to, long snapshot) throws IOException {
        ReadView rv = ctx.tables().acquire(ctx.run());
        ctx.stats().scan();
        return new StoreIterator(rv, from, to, snapshot >= 0 ? snapshot : visible.getAsLong());
    }

    /** See {@link LsmStore#spaceUsage}. */
    SpaceUsage spaceUsage() throws IOException {
        ReadView rv = ctx.tables().acquire(ctx.run());
        long onDisk = rv.version().tables().stream().flatMap(t -> t.realTables().stream())
                .mapToLong(t -> t.record().fileBytes()).sum();
        long entries = 0;
        long bytes = 0;
        try (StoreIterator it = new StoreIterator(rv, null, null, visible.getAsLong())) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                entries++;
                bytes += kv.key().length + kv.value().length;
            }
        }
        return new SpaceUsage(onDisk, entries, bytes, bytes == 0 ? Double.NaN : (double) (onDisk - bytes) / bytes);
    }

    private Entry getFromTables(Version v, byte[] key, long sequence) throws IOException {
        List<TableHandle> metVirtual = new ArrayList<>(0);
        try {
            return search(v, key, BloomFilter.hash(key), sequence, metVirtual);
        } finally {
            if (!metVirtual.isEmpty()) {
                scheduler.considerMaterializing(metVirtual);
            }
        }
    }

    /**
     * {@link #getFromTables}'s search, with the key hashed once for every table's Bloom filter; adds each
     * virtual table it reads through to {@code metVirtual}.
     */
    private Entry search(Version v, byte[] key, KeyHash hash, long sequence, List<TableHandle> metVirtual)
            throws IOException {
        List<List<TableHandle>> levels = v.levels();
        for (int level = 0; level < levels.size(); level++) {
            List<TableHandle> candidates = levels.get(level);
            if (level > 0) {
                TableHandle t = findCovering(candidates, key);
                candidates = t == null ? List.of() : List.of(t);
            }
            for (TableHandle t : candidates) {
                if (t.isVirtual() && t.covers(key)) {
                    metVirtual.add(t);
                    t.touch();
                    Entry e = getFromParents(t, key, hash, sequence);
                    if (e != null) {
                        return e;
                    }
                    continue;
                }
                if (!t.covers(key) || !t.reader().mightContain(hash)) {
                    continue;
                }
                ctx.stats().tableProbed();
                t.touch();
                Entry e = t.reader().getAdmitted(key, sequence);
                if (e != null) {
                    return e;
                }
            }
        }
        return null;
    }

    /**
     * The newest version of {@code key} at or below {@code sequence} among a virtual table's parents, which may
     * overlap: they are tried newest first (by largest sequence), skipped by key range and Bloom filter, and the
     * search stops at a parent whose largest sequence is below the best version found.
     */
    private Entry getFromParents(TableHandle virtual, byte[] key, KeyHash hash, long sequence) throws IOException {
        Entry best = null;
        for (TableHandle p : virtual.parents()) {
            if (best != null && p.record().maxSequence() < best.sequence()) {
                break;
            }
            if (!p.covers(key) || !p.reader().mightContain(hash)) {
                continue;
            }
            ctx.stats().tableProbed();
            Entry e = p.reader().getAdmitted(key, sequence);
            if (e != null && (best == null || e.sequence() > best.sequence())) {
                best = e;
            }
        }
        return best;
    }

    /** The table of a key-partitioned level whose range holds {@code key}, by binary search; or null. */
    private static TableHandle findCovering(List<TableHandle> level, byte[] key) {
        int lo = 0;
        int hi = level.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            TableHandle t = level.get(mid);
            if (t.endsBefore(key)) {
                lo = mid + 1;
            } else if (t.covers(key)) {
                return t;
            } else {
                hi = mid - 1;
            }
        }
        return null;
    }
}
