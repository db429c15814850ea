package io.lsmpolicies.lsm.sstable;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leaf pages of all open SSTables, shared and bounded in bytes (Caffeine, W-TinyLFU eviction), each with
 * its parsed entry index ({@link Page}). A page enters the cache only after its checksum has been verified, and
 * is never modified afterwards. Internal (index) pages are not cached here: each reader pins its own, as the
 * Bloom filter is pinned, in memory of a second arena the cache keeps for them ({@link #indexArena()}). Thread-safe.
 *
 * <p>The pages' bytes live off the heap, in the cache's {@link PageArena} of {@code capacityBytes} (in whole
 * blocks of 1 MiB, or one block of the whole capacity if it is smaller): a page
 * missing from the cache is read from the file straight into a free slot of the arena, so cached pages cost
 * the garbage collector nothing and a miss allocates only the page's small entry index. Cached pages are
 * reference counted ({@link Page#retain()}): a page evicted while a reader still uses it keeps its memory
 * until that reader releases it. The eviction bound is {@link #HEADROOM} below the arena's size, so that the
 * arena has room for pages being read and pages still in use after their eviction. When the arena has no free
 * slot of the size a read needs, the coldest cached pages of that size are evicted, or, if its blocks serve
 * other page sizes (tables of different page sizes share the cache), the pages of the block with the fewest in
 * use, so that the block can serve the new size; when that frees nothing yet (readers hold those pages), the
 * page is read into memory of its own and not cached.
 */
public final class BlockCache {
    /** The share of the capacity kept free of cached pages, for pages being read or still in use. */
    public static final double HEADROOM = 1.0 / 8;
    /** Pages evicted at once when the arena has no free slot of the size a read needs. */
    private static final int EVICT_FOR_ROOM = 4;
    /** How many of the coldest pages are looked at to find those. */
    private static final int EVICT_SCAN = 256;

    private final Cache<PageKey, Page> pages;
    private final PageArena arena;
    /** The off-heap memory of the readers' pinned internal pages ({@link IndexMemory}), not bounded by the cache. */
    private final PageArena indexArena = new PageArena(Long.MAX_VALUE);
    private final AtomicLong nextFileId = new AtomicLong();
    private final long capacityBytes;

    private record PageKey(long file, long page) {
    }

    private BlockCache(long capacityBytes) {
        this.capacityBytes = capacityBytes;
        this.arena = capacityBytes == 0 ? null : new PageArena(capacityBytes);
        this.pages = Caffeine.newBuilder()
                .maximumWeight((long) ((arena == null ? 0 : arena.capacityBytes()) * (1 - HEADROOM)))
                .weigher((PageKey k, Page v) -> (int) Math.min(Integer.MAX_VALUE, v.weight()))
                .executor(Runnable::run) // evicted pages release their memory before the next read needs it
                .removalListener((PageKey k, Page v, RemovalCause cause) -> {
                    if (v != null) {
                        v.release();
                    }
                })
                .recordStats().build();
    }

    /**
     * A cache of at most {@code capacityBytes} bytes of pages; 0 disables caching.
     *
     * @param capacityBytes the most bytes of pages the cache holds (0: no cache)
     * @return the cache
     * @throws IllegalArgumentException if negative
     */
    public static BlockCache ofBytes(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("block cache capacity must be >= 0 bytes, was " + capacityBytes);
        }
        return new BlockCache(capacityBytes);
    }

    /** A new id for an opened file; ids are never reused, so a reopened file never sees stale pages. */
    long newFileId() {
        return nextFileId.incrementAndGet();
    }

    /** The cached page, with a reference taken for the caller (who releases it), or {@code null}. */
    Page get(long file, long page) {
        if (arena == null) {
            return null;
        }
        Page p = pages.getIfPresent(new PageKey(file, page));
        return p != null && p.retain() ? p : null;
    }

    /**
     * A free slot of the cache's memory of {@code pageSize} bytes (a table's page size: its pages are at most that
     * long), to read a missing page into, or {@code null} if the page is not to be cached (caching disabled, or no
     * room).
     */
    PageArena.Slot allocate(int pageSize) {
        if (arena == null) {
            return null;
        }
        PageArena.Slot slot = arena.allocate(pageSize);
        if (slot == null) { // every slot of this size is taken: make room
            evictColdest(pageSize);
            slot = arena.allocate(pageSize);
        }
        if (slot == null) { // the blocks serve other page sizes: empty the one with the fewest pages in use
            Object victim = arena.victimFor(pageSize);
            if (victim != null) {
                pages.asMap().entrySet().removeIf(e -> PageArena.inBlock(e.getValue().slot(), victim));
                slot = arena.allocate(pageSize);
            }
        }
        return slot;
    }

    /** Evicts up to {@link #EVICT_FOR_ROOM} of the coldest cached pages in slots of {@code pageSize} bytes. */
    private void evictColdest(int pageSize) {
        pages.policy().eviction().ifPresent(eviction -> {
            int evicted = 0;
            for (Map.Entry<PageKey, Page> e : eviction.coldest(EVICT_SCAN).entrySet()) {
                if (e.getValue().memoryBytes() == pageSize) {
                    pages.asMap().remove(e.getKey(), e.getValue());
                    if (++evicted == EVICT_FOR_ROOM) {
                        break;
                    }
                }
            }
        });
    }

    /** The arena that {@link #allocate} takes slots from, for {@link Page#parse} (null if caching is off). */
    PageArena arena() {
        return arena;
    }

    /**
     * The arena the pinned internal pages of the readers using this cache take their chunks from: direct memory
     * outside the cache's capacity, taken in blocks of 1 MiB as first needed and kept while the cache lives, so
     * that it holds the most the open tables have pinned at once.
     */
    PageArena indexArena() {
        return indexArena;
    }

    /** {@return the bytes of off-heap memory taken so far for the readers' pinned internal pages} */
    public long indexReservedBytes() {
        return indexArena.reservedBytes();
    }

    /** Gives back a slot from {@link #allocate} that holds no parsed page (the read or the check failed). */
    void free(PageArena.Slot slot) {
        arena.free(slot);
    }

    /**
     * Caches {@code parsed}, a page read into a slot from {@link #allocate}, unless another reader cached the same
     * page meanwhile. The caller keeps its own reference either way, and releases it when done.
     */
    void put(long file, long page, Page parsed) {
        if (parsed.slot() == null) { // memory of its own: not the cache's to hold
            return;
        }
        parsed.retain(); // the cache's reference, released on eviction
        if (pages.asMap().putIfAbsent(new PageKey(file, page), parsed) != null) {
            parsed.release();
        }
    }

    /** Drops a closed file's pages. */
    void invalidateFile(long file) {
        pages.asMap().keySet().removeIf(k -> k.file() == file);
    }

    /** {@return the capacity the cache was made with, in bytes} */
    public long capacityBytes() {
        return capacityBytes;
    }

    /** {@return the bytes of pages held now (after pending evictions)} */
    public long weightedBytes() {
        pages.cleanUp();
        return pages.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    /** {@return the bytes of off-heap memory the cache has taken so far (at most its capacity)} */
    public long reservedBytes() {
        return arena == null ? 0 : arena.reservedBytes();
    }

    /** {@return the lookups that found their page cached, since the cache was made} */
    public long hits() {
        return pages.stats().hitCount();
    }

    /** {@return the lookups that did not find their page cached, since the cache was made} */
    public long misses() {
        return pages.stats().missCount();
    }
}
