package io.lsmpolicies.lsm.sstable;

/**
 * How SSTables are written.
 *
 * @param pageSize        bytes per page: a power of two in [512, 1 MiB]; default 4 KiB
 * @param bloomBitsPerKey Bloom filter bits per key in [1, 64]; default 10
 */
public record SSTableOptions(int pageSize, int bloomBitsPerKey) {
    /** 4 KiB pages, 10 bits per key. */
    public static final SSTableOptions DEFAULT =
            new SSTableOptions(SSTableFormat.DEFAULT_PAGE_SIZE, BloomFilter.DEFAULT_BITS_PER_KEY);

    public SSTableOptions {
        if (pageSize < SSTableFormat.MIN_PAGE_SIZE || pageSize > SSTableFormat.MAX_PAGE_SIZE
                || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("page size must be a power of two in [" + SSTableFormat.MIN_PAGE_SIZE
                    + ", " + SSTableFormat.MAX_PAGE_SIZE + "], was " + pageSize);
        }
        if (bloomBitsPerKey < 1 || bloomBitsPerKey > 64) {
            throw new IllegalArgumentException("Bloom filter bits per key must be in [1, 64], was " + bloomBitsPerKey);
        }
    }
}
