package io.lsmpolicies.lsm.sstable;

import java.util.Objects;

/**
 * How SSTables are written: page size and Bloom filter bits per key. Every setting is validated when the options
 * are built, and an error names the setting, the value and the accepted range.
 *
 * <p>A final class, not a record, so that a new setting is not a breaking change: options are made by {@link
 * #builder()} (or {@link #toBuilder()}), never by a constructor, and read by their accessors. The only API class of
 * {@code io.lsmpolicies.lsm.sstable}; the rest of that package is internal.
 *
 * <p>A page holds whole entries, so entries that are large against the page leave its end unused: 1 KB
 * entries fill a 4 KiB page to 76 %. On disk that end is not written (a page takes only the bytes it holds), but a
 * page cached in the block cache takes memory of the full page size, and every table pins one separator per page in
 * memory. A point read, on the other hand, reads and checks one whole page, so smaller pages make faster reads. With
 * {@link #fitPageSize()}, each table's page size is fitted to the mean size of the entries it is written from
 * ({@link #fittedTo}): the smallest power of two from {@link #pageSize()} up to {@link #MAX_FITTED_PAGE_SIZE} that
 * holds at least {@link #MIN_ENTRIES_PER_PAGE} whole entries of that size and that they fill to at least
 * {@link #TARGET_FILL} (4 KiB for 1 KB entries: 3 entries, 76 %; 8 KiB for 2 KB entries), as long as a flush's data spans at least
 * {@link #MIN_FITTED_PAGES} such pages (so a small flush is not cut into a handful of large pages). The bound is the
 * flush's, not the table's, so that the flushes and merges of one store use one page size.
 * The page size is recorded in each table, so tables of different page sizes are read alike.
 *
 * <p>Pages of exactly 1 KiB, 12 Bloom filter bits per key:
 * {@code SSTableOptions.builder().pageSize(1024).fitPageSize(false).bloomBitsPerKey(12).build()}.
 */
public final class SSTableOptions {
    /** 4 KiB pages, larger for large entries; 10 bits per key. */
    public static final SSTableOptions DEFAULT = builder().build();
    /** The least share of a fitted page that whole entries of the mean size fill. */
    public static final double TARGET_FILL = 0.7;
    /** The fewest whole entries of the mean size a fitted page holds. */
    public static final int MIN_ENTRIES_PER_PAGE = 3;
    /** A fitted page size is at most the bytes of a flush over this. */
    public static final int MIN_FITTED_PAGES = 64;
    /** The largest page size fitting chooses. */
    public static final int MAX_FITTED_PAGE_SIZE = 64 * 1024;
    /** Bytes of a leaf entry's encoding beyond its key and value (flags and lengths; sequences of 4 bytes). */
    private static final int ENTRY_ENCODING_BYTES = 8;

    private final int pageSize;
    private final int bloomBitsPerKey;
    private final boolean fitPageSize;

    /** @throws IllegalArgumentException naming the setting, the value and the accepted range */
    private SSTableOptions(int pageSize, int bloomBitsPerKey, boolean fitPageSize) {
        if (pageSize < SSTableFormat.MIN_PAGE_SIZE || pageSize > SSTableFormat.MAX_PAGE_SIZE
                || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("SSTable option pageSize must be a power of two in ["
                    + SSTableFormat.MIN_PAGE_SIZE + ", " + SSTableFormat.MAX_PAGE_SIZE + "], was " + pageSize);
        }
        if (bloomBitsPerKey < 1 || bloomBitsPerKey > 64) {
            throw new IllegalArgumentException("SSTable option bloomBitsPerKey must be in [1, 64], was "
                    + bloomBitsPerKey);
        }
        this.pageSize = pageSize;
        this.bloomBitsPerKey = bloomBitsPerKey;
        this.fitPageSize = fitPageSize;
    }

    /**
     * Bytes per page: a power of two in [512, 1 MiB]; default 4 KiB. With {@link #fitPageSize()}, the smallest page
     * size a table is written with; without, the page size of every table.
     *
     * @return the page size in bytes
     */
    public int pageSize() {
        return pageSize;
    }

    /** {@return Bloom filter bits per key, in [1, 64]; default 10} */
    public int bloomBitsPerKey() {
        return bloomBitsPerKey;
    }

    /**
     * Whether each table's page size is fitted to its entries ({@link #fittedTo}); default true. False: every table
     * has pages of exactly {@link #pageSize()} bytes.
     *
     * @return whether page sizes are fitted
     */
    public boolean fitPageSize() {
        return fitPageSize;
    }

    /**
     * The options for one table of {@code entries} entries holding {@code dataBytes} key and value bytes, in a
     * store whose flushes write {@code flushBytes}: these options if the page size is not fitted or nothing is
     * known; otherwise an exact page size, the smallest power of two in [{@link #pageSize()},
     * {@link #MAX_FITTED_PAGE_SIZE}] that holds {@link #MIN_ENTRIES_PER_PAGE} whole entries of the mean size and
     * that they fill to {@link #TARGET_FILL} (the largest if none does), but no larger than {@code flushBytes /}
     * {@link #MIN_FITTED_PAGES}.
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
        while (size < MAX_FITTED_PAGE_SIZE
                && (fill(size, entry) < TARGET_FILL || entriesPerPage(size, entry) < MIN_ENTRIES_PER_PAGE)
                && 2L * size * MIN_FITTED_PAGES <= flushBytes) {
            size *= 2;
        }
        return new SSTableOptions(Math.max(size, pageSize), bloomBitsPerKey, false);
    }

    /** The share of a page of {@code size} bytes that whole entries of {@code entry} bytes fill. */
    static double fill(int size, double entry) {
        return entriesPerPage(size, entry) * entry / size;
    }

    /** The whole entries of {@code entry} bytes a page of {@code size} bytes holds. */
    static double entriesPerPage(int size, double entry) {
        return Math.floor(SSTableFormat.maxEntryBytes(size) / entry);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SSTableOptions other && pageSize == other.pageSize
                && bloomBitsPerKey == other.bloomBitsPerKey && fitPageSize == other.fitPageSize;
    }

    @Override
    public int hashCode() {
        return Objects.hash(pageSize, bloomBitsPerKey, fitPageSize);
    }

    @Override
    public String toString() {
        return "SSTableOptions[pageSize=" + pageSize + ", bloomBitsPerKey=" + bloomBitsPerKey + ", fitPageSize="
                + fitPageSize + "]";
    }

    /** {@return a builder with every setting at its default} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder initialised from these options} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.pageSize = pageSize;
        b.bloomBitsPerKey = bloomBitsPerKey;
        b.fitPageSize = fitPageSize;
        return b;
    }

    /** Collects settings; {@link #build()} validates them. Not thread-safe. */
    public static final class Builder {
        private int pageSize = SSTableFormat.DEFAULT_PAGE_SIZE;
        private int bloomBitsPerKey = BloomFilter.DEFAULT_BITS_PER_KEY;
        private boolean fitPageSize = true;

        private Builder() {
        }

        /**
         * Sets the page size in bytes: a power of two in [512, 1 MiB]; exact with {@code fitPageSize(false)},
         * otherwise the smallest page size fitting chooses.
         *
         * @param v the page size in bytes
         * @return this builder
         */
        public Builder pageSize(int v) {
            pageSize = v;
            return this;
        }

        /**
         * Sets the Bloom filter bits per key, in [1, 64].
         *
         * @param v the Bloom filter bits per key
         * @return this builder
         */
        public Builder bloomBitsPerKey(int v) {
            bloomBitsPerKey = v;
            return this;
        }

        /**
         * Sets whether each table's page size is fitted to its entries (true, the default) or is exactly the page
         * size (false).
         *
         * @param v whether page sizes are fitted
         * @return this builder
         */
        public Builder fitPageSize(boolean v) {
            fitPageSize = v;
            return this;
        }

        /**
         * Validates the settings.
         *
         * @return the options
         * @throws IllegalArgumentException naming the setting out of range, its value and its range
         */
        public SSTableOptions build() {
            return new SSTableOptions(pageSize, bloomBitsPerKey, fitPageSize);
        }
    }
}
