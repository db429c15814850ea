package io.lsmpolicies.lsm.sstable;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leaf pages of all open SSTables, shared and bounded in bytes (Caffeine, W-TinyLFU eviction), each with
 * its parsed entry index ({@link Page}). A page enters the cache only after its checksum has been verified, and
 * is never modified afterwards. Internal (index) pages are not cached here: each reader pins its own, as the
 * Bloom filter is pinned. Thread-safe.
 */
public final class BlockCache {
    private final Cache<PageKey, Page> pages;
    private final AtomicLong nextFileId = new AtomicLong();
    private final long capacityBytes;

    private record PageKey(long file, long page) {
    }

    private BlockCache(long capacityBytes) {
        this.capacityBytes = capacityBytes;
        this.pages = Caffeine.newBuilder().maximumWeight(capacityBytes)
                .weigher((PageKey k, Page v) -> (int) Math.min(Integer.MAX_VALUE, v.weight())).recordStats().build();
    }

    /**
     * A cache of at most {@code capacityBytes} bytes of pages; 0 disables caching.
     *
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

    Page get(long file, long page) {
        return capacityBytes == 0 ? null : pages.getIfPresent(new PageKey(file, page));
    }

    void put(long file, long page, Page parsed) {
        if (capacityBytes > 0) {
            pages.put(new PageKey(file, page), parsed);
        }
    }

    /** Drops a closed file's pages. */
    void invalidateFile(long file) {
        pages.asMap().keySet().removeIf(k -> k.file() == file);
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /** Bytes of pages held now (after pending evictions). */
    public long weightedBytes() {
        pages.cleanUp();
        return pages.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    public long hits() {
        return pages.stats().hitCount();
    }

    public long misses() {
        return pages.stats().missCount();
    }
}
