package io.lsmpolicies.lsm.sstable;

/**
 * How SSTables are written.
 *
 * <p>A page holds whole entries, so entries that are large against the page leave its end unused: 1 KB
 * entries fill a 4 KiB page to 76 %. With {@code fitPageSize}, each table's page size is fitted to the mean
 * size of the entries it is written from ({@link #fittedTo}): the smallest power of two from {@code pageSize}
 * up to {@link #MAX_FITTED_PAGE_SIZE} that whole entries of that size fill to at least {@link #TARGET_FILL},
 * as long as a flush's data spans at least {@link #MIN_FITTED_PAGES} such pages (a table's Bloom filter,
 * metadata and index levels take whole pages too, which a small table would pay for in padding). The bound
 * is the flush's, not the table's, so that the flushes and merges of one store use one page size, and a
 * merge's output takes about the bytes of its inputs.
 * The page size is recorded in each table, so tables of different page sizes are read alike.
 *
 * @param pageSize        bytes per page: a power of two in [512, 1 MiB]; default 4 KiB. With
 *                        {@code fitPageSize}, the smallest page size
 * @param bloomBitsPerKey Bloom filter bits per key in [1, 64]; default 10
 * @param fitPageSize     whether each table's page size is fitted to its entries; default true. The
 *                        two-argument constructor (an explicit page size) says false
 */
public record SSTableOptions(int pageSize, int bloomBitsPerKey, boolean fitPageSize) {
    /** 4 KiB pages, larger for large entries; 10 bits per key. */
    public static final SSTableOptions DEFAULT =
            new SSTableOptions(SSTableFormat.DEFAULT_PAGE_SIZE, BloomFilter.DEFAULT_BITS_PER_KEY, true);
    /** The least share of a fitted page that whole entries of the mean size fill. */
    public static final double TARGET_FILL = 0.9;
    /** A fitted page size is at most the bytes of a flush over this. */
    public static final int MIN_FITTED_PAGES = 64;
    /** The largest page size fitting chooses. */
    public static final int MAX_FITTED_PAGE_SIZE = 64 * 1024;
    /** Bytes of a leaf entry's encoding beyond its key and value (flags and lengths; sequences of 4 bytes). */
    private static final int ENTRY_ENCODING_BYTES = 8;

    /**
     * Pages of exactly {@code pageSize} bytes, not fitted to the entries.
     *
     * @param pageSize        bytes per page: a power of two in [512, 1 MiB]
     * @param bloomBitsPerKey Bloom filter bits per key in [1, 64]
     */
    public SSTableOptions(int pageSize, int bloomBitsPerKey) {
        this(pageSize, bloomBitsPerKey, false);
    }

    /**
     * The options for one table of {@code entries} entries holding {@code dataBytes} key and value bytes, in a
     * store whose flushes write {@code flushBytes}: these options if the page size is not fitted or nothing is
     * known; otherwise an exact page size, the smallest power of two in [{@code pageSize},
     * {@link #MAX_FITTED_PAGE_SIZE}] that whole entries of the mean size fill to {@link #TARGET_FILL} (the
     * largest if none does), but no larger than {@code flushBytes /} {@link #MIN_FITTED_PAGES}.
     *
     * @param entries    the table's entries
     * @param dataBytes  their key and value bytes
     * @param flushBytes the bytes one flush of the store writes (its MemTable budget)
     * @return the options to write that table with
     */
    public SSTableOptions fittedTo(long entries, long dataBytes, long flushBytes) {
        if (!fitPageSize || entries <= 0 || dataBytes < 0) {
            return this;
        }
        double entry = (double) dataBytes / entries + ENTRY_ENCODING_BYTES;
        int size = pageSize;
        while (size < MAX_FITTED_PAGE_SIZE && fill(size, entry) < TARGET_FILL
                && 2L * size * MIN_FITTED_PAGES <= flushBytes) {
            size *= 2;
        }
        return new SSTableOptions(Math.max(size, pageSize), bloomBitsPerKey, false);
    }

    /** The share of a page of {@code size} bytes that whole entries of {@code entry} bytes fill. */
    static double fill(int size, double entry) {
        double usable = SSTableFormat.maxEntryBytes(size);
        return Math.floor(usable / entry) * entry / size;
    }

    /**
     * Checks the settings.
     *
     * @param pageSize        bytes per page: a power of two in [512, 1 MiB]
     * @param bloomBitsPerKey Bloom filter bits per key in [1, 64]
     * @param fitPageSize     whether each table's page size is fitted to its entries
     * @throws IllegalArgumentException naming the setting out of range and its range
     */
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
