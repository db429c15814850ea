package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.events.EventLog;
import io.lsmpolicies.lsm.io.DeviceProfile;
import io.lsmpolicies.lsm.manifest.ManifestOptions;
import io.lsmpolicies.lsm.manifest.StoredOptions;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.sstable.SSTableWriter;
import io.lsmpolicies.lsm.wal.SyncMode;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.PolicySpec;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import java.util.Locale;
import java.util.Objects;

/**
 * How an {@link LsmStore} is configured. Every setting is validated when the options are built, and an
 * error names the setting, the value and the accepted range.
 *
 * <p>A final class, not a record, so that a new setting is not a breaking change: options are made by {@link
 * #builder()} (or {@link #toBuilder()}), never by a constructor, and read by their accessors.
 */
public final class StoreOptions {
    private final long memtableBytes;
    private final int maxImmutableMemtables;
    private final SyncMode walMode;
    private final MergePolicy policy;
    private final MergeOrder mergeOrder;
    /** The merge order asked for; null: the default for the policy's layout. */
    private final MergeOrder mergeOrderGiven;
    private final SSTableOptions sstable;
    private final long blockCacheBytes;
    private final int mergeThreads;
    private final int subcompactions;
    private final long subcompactionBytes;
    private final int maxKeyBytes;
    private final int maxValueBytes;
    private final DeviceProfile device;
    private final ManifestOptions manifest;
    private final long writeBytesPerSecond;
    private final long eventLogBytes;
    private final long walSegmentBytes;

    /** The default MemTable budget, 4 MiB. */
    public static final long DEFAULT_MEMTABLE_BYTES = 4L << 20;
    /** The default least input bytes per key range of a split merge, 32 MiB. */
    public static final long DEFAULT_SUBCOMPACTION_BYTES = 32L << 20;
    /** The default merge policy. */
    public static final String DEFAULT_POLICY = "binomial:k=6";
    /** The default write-ahead-log segment size before a new segment starts, 64 MiB. */
    public static final long DEFAULT_WAL_SEGMENT_BYTES = 64L << 20;
    /** The default largest key. */
    public static final int DEFAULT_MAX_KEY_BYTES = 1024;

    /** @throws IllegalArgumentException naming the setting, the value and the accepted range */
        private StoreOptions(long memtableBytes, int maxImmutableMemtables, SyncMode walMode, MergePolicy policy,
            MergeOrder mergeOrderGiven, SSTableOptions sstable, long blockCacheBytes, int mergeThreads,
            int subcompactions, long subcompactionBytes, int maxKeyBytes,
            int maxValueBytes, DeviceProfile device, ManifestOptions manifest, long writeBytesPerSecond,
            long eventLogBytes, long walSegmentBytes) {
        Objects.requireNonNull(walMode, "walMode");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(sstable, "sstable");
        Objects.requireNonNull(manifest, "manifest");
        range("memtableBytes", memtableBytes, 4096, 1L << 40);
        range("maxImmutableMemtables", maxImmutableMemtables, 1, 64);
        range("blockCacheBytes", blockCacheBytes, 0, Long.MAX_VALUE);
        range("mergeThreads", mergeThreads, 1, 64);
        range("subcompactions", subcompactions, 1, 64);
        range("subcompactionBytes", subcompactionBytes, 4096, 1L << 40);
        range("writeBytesPerSecond", writeBytesPerSecond, 0, Long.MAX_VALUE);
        range("eventLogBytes", eventLogBytes, 0, 1L << 40);
        range("walSegmentBytes", walSegmentBytes, 0, 1L << 40);
        int pageLimit = SSTableWriter.maxEntryBytes(sstable.pageSize());
        range("maxKeyBytes", maxKeyBytes, 1, pageLimit / 3);
        range("maxValueBytes", maxValueBytes, 0, pageLimit);
        if ((long) maxKeyBytes + maxValueBytes > pageLimit) {
            throw new IllegalArgumentException("maxKeyBytes + maxValueBytes = " + ((long) maxKeyBytes + maxValueBytes)
                    + " exceeds the " + pageLimit + " bytes an entry may hold in a " + sstable.pageSize()
                    + "-byte page; raise the page size or lower a limit");
        }
        this.memtableBytes = memtableBytes;
        this.maxImmutableMemtables = maxImmutableMemtables;
        this.walMode = walMode;
        this.policy = policy;
        this.mergeOrderGiven = mergeOrderGiven;
        this.mergeOrder = mergeOrderFor(policy, mergeOrderGiven);
        this.sstable = sstable;
        this.blockCacheBytes = blockCacheBytes;
        this.mergeThreads = mergeThreads;
        this.subcompactions = subcompactions;
        this.subcompactionBytes = subcompactionBytes;
        this.maxKeyBytes = maxKeyBytes;
        this.maxValueBytes = maxValueBytes;
        this.device = device;
        this.manifest = manifest;
        this.writeBytesPerSecond = writeBytesPerSecond;
        this.eventLogBytes = eventLogBytes;
        this.walSegmentBytes = walSegmentBytes;
    }

    /**
     * MemTable budget in bytes (keys, values and per-entry overhead); when the active MemTable would exceed it, it
     * becomes immutable and is flushed. Default 4 MiB, as in the runs of Mao et al.; at least 4 KiB.
     *
     * @return the budget in bytes
     */
    public long memtableBytes() {
        return memtableBytes;
    }

    /** {@return immutable MemTables that may wait for their flush before writers stall; default 2, in [1, 64]} */
    public int maxImmutableMemtables() {
        return maxImmutableMemtables;
    }

    /** {@return Write-ahead-log mode; default {@link SyncMode#SYNC} (acknowledged means fsynced)} */
    public SyncMode walMode() {
        return walMode;
    }

    /**
     * The size a write-ahead-log segment reaches before the next MemTable starts a new one; until then the
     * MemTables that follow write on in the same segment, which is deleted once all of them are flushed. Default
     * 64 MiB; 0 starts a segment per MemTable. {@link LsmStore#flush()} and the close start a new segment whatever the
     * current one holds, so a closed store keeps no log of what its tables hold. Starting a segment closes (and so
     * syncs) the previous one, creates
     * the next and syncs the directory, on the writer's path; a larger segment does that less often, and an open
     * after a crash reads at most about this much of the log besides the MemTables still to flush.
     *
     * @return the segment size in bytes, in [0, 1 TiB]
     */
    public long walSegmentBytes() {
        return walSegmentBytes;
    }

    /** {@return the merge policy; default {@code binomial} with k = 6} */
    public MergePolicy policy() {
        return policy;
    }

    /**
     * Whether a full MemTable is flushed and then merged, or merged directly into the SSTables the policy chooses;
     * default {@link MergeOrder#MERGE_MEMTABLE_SMALL} for a stack policy and {@link MergeOrder#FLUSH_THEN_MERGE}
     * for a leveled one (or one not registered, whose layout is not known).
     *
     * @return the merge order
     */
    public MergeOrder mergeOrder() {
        return mergeOrder;
    }

    /**
     * The merge order of {@code policy}: {@code given}, checked, or the default for its layout.
     *
     * @throws IllegalArgumentException if a merging order is given for a policy that is not a registered stack policy
     */
    private static MergeOrder mergeOrderFor(MergePolicy policy, MergeOrder given) {
        PolicyFactory f = MergePolicies.factories().get(policy.name());
        boolean stack = f != null && f.layout() == PolicyLayout.STACK;
        if (given == null) {
            return stack ? MergeOrder.MERGE_MEMTABLE_SMALL : MergeOrder.FLUSH_THEN_MERGE;
        }
        if (given != MergeOrder.FLUSH_THEN_MERGE && !stack) {
            throw new IllegalArgumentException("mergeOrder " + given + " merges a MemTable into a stack policy's "
                    + "merges; policy " + policy.name() + " is " + (f == null ? "not registered, its layout unknown"
                    : "a " + f.layout().name().toLowerCase(Locale.ROOT) + " policy") + ": use FLUSH_THEN_MERGE");
        }
        return given;
    }

    /** {@return SSTable page size and Bloom filter bits per key; default 4 KiB pages, 10 bits} */
    public SSTableOptions sstable() {
        return sstable;
    }

    /**
     * Bytes of SSTable pages the shared block cache holds; default 32 MiB, may be 0.
     *
     * @return the cache's bytes
     */
    public long blockCacheBytes() {
        return blockCacheBytes;
    }

    /**
     * Threads running merges; default 1, in [1, 64].
     *
     * @return the thread count
     */
    public int mergeThreads() {
        return mergeThreads;
    }

    /**
     * Threads one merge of a stack-based policy may use: a merge whose inputs hold at least twice
     * {@link #subcompactionBytes()} is split by key into up to this many ranges, merged at once, each range
     * written as its own file; the files of one merge share its flushes and hold disjoint keys, and are one
     * component (one sorted run) to the policy and to reads. Default 2, in [1, 64]; 1 never splits. Merges of
     * leveled policies and merges that take a MemTable are never split.
     *
     * @return the most key ranges of one merge
     */
    public int subcompactions() {
        return subcompactions;
    }

    /**
     * The least input bytes each key range of a split merge reads: a merge of b input bytes is split into
     * min({@link #subcompactions()}, floor(b / this)) ranges. Default 32 MiB, in [4 KiB, 1 TiB].
     *
     * @return the bytes
     */
    public long subcompactionBytes() {
        return subcompactionBytes;
    }

    /** {@return the largest key accepted; default 1 KiB} Key plus value must fit one page. */
    public int maxKeyBytes() {
        return maxKeyBytes;
    }

    /** {@return the largest value accepted; default: what is left of a page after a largest key} */
    public int maxValueBytes() {
        return maxValueBytes;
    }

    /** {@return an emulated device that throttles all I/O (null: none, the default)} */
    public DeviceProfile device() {
        return device;
    }

    /** {@return when the manifest rolls over} */
    public ManifestOptions manifest() {
        return manifest;
    }

    /**
     * The most bytes per second that flushes and merges may write to this store's SSTables (AsterixDB's {@code
     * storage.write.rate.limit}; the WAL is not limited); 0, the default, means unlimited.
     *
     * @return the limit (0: unlimited)
     */
    public long writeBytesPerSecond() {
        return writeBytesPerSecond;
    }

    /**
     * The cap on each of the two files of the store's event log (see {@link EventLog}); default 1 MiB, 0 keeps no
     * log.
     *
     * @return the cap in bytes (0: no log)
     */
    public long eventLogBytes() {
        return eventLogBytes;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof StoreOptions other)) {
            return false;
        }
        return memtableBytes == other.memtableBytes
                && maxImmutableMemtables == other.maxImmutableMemtables
                && Objects.equals(walMode, other.walMode)
                && Objects.equals(policy, other.policy)
                && Objects.equals(mergeOrder, other.mergeOrder)
                && Objects.equals(sstable, other.sstable)
                && blockCacheBytes == other.blockCacheBytes
                && mergeThreads == other.mergeThreads
                && subcompactions == other.subcompactions
                && subcompactionBytes == other.subcompactionBytes
                && maxKeyBytes == other.maxKeyBytes
                && maxValueBytes == other.maxValueBytes
                && Objects.equals(device, other.device)
                && Objects.equals(manifest, other.manifest)
                && writeBytesPerSecond == other.writeBytesPerSecond
                && eventLogBytes == other.eventLogBytes && walSegmentBytes == other.walSegmentBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(memtableBytes, maxImmutableMemtables, walMode, policy, mergeOrder, sstable, blockCacheBytes,
                mergeThreads, subcompactions, subcompactionBytes, maxKeyBytes, maxValueBytes, device, manifest, writeBytesPerSecond, eventLogBytes,
                walSegmentBytes);
    }

    @Override
    public String toString() {
        return "StoreOptions[" + "memtableBytes=" + memtableBytes + ", "
                + "maxImmutableMemtables=" + maxImmutableMemtables + ", "
                + "walMode=" + walMode + ", "
                + "policy=" + policy + ", "
                + "mergeOrder=" + mergeOrder + ", "
                + "sstable=" + sstable + ", "
                + "blockCacheBytes=" + blockCacheBytes + ", "
                + "mergeThreads=" + mergeThreads + ", "
                + "subcompactions=" + subcompactions + ", "
                + "subcompactionBytes=" + subcompactionBytes + ", "
                + "maxKeyBytes=" + maxKeyBytes + ", "
                + "maxValueBytes=" + maxValueBytes + ", "
                + "device=" + device + ", "
                + "manifest=" + manifest + ", "
                + "writeBytesPerSecond=" + writeBytesPerSecond + ", "
                + "eventLogBytes=" + eventLogBytes + ", walSegmentBytes=" + walSegmentBytes + "]";
    }


    private static void range(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("option " + name + " must be in [" + min + ", " + max + "], was "
                    + value);
        }
    }

    /** {@return the settings a store records in its {@code OPTIONS} file (see {@link StoredOptions})} */
    public StoredOptions stored() {
        return new StoredOptions(PolicySpec.of(policy), mergeOrder.name(), memtableBytes, sstable.pageSize(),
                sstable.bloomBitsPerKey(), maxKeyBytes, maxValueBytes);
    }

    /** {@return the defaults (see the record's parameters)} */
    public static StoreOptions defaults() {
        return builder().build();
    }

    /** {@return a builder with every setting at its default} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder initialised from these options} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.memtableBytes = memtableBytes;
        b.maxImmutableMemtables = maxImmutableMemtables;
        b.walMode = walMode;
        b.policy = policy;
        b.mergeOrder = mergeOrderGiven;
        b.sstable = sstable;
        b.blockCacheBytes = blockCacheBytes;
        b.mergeThreads = mergeThreads;
        b.subcompactions = subcompactions;
        b.subcompactionBytes = subcompactionBytes;
        b.maxKeyBytes = maxKeyBytes;
        b.maxValueBytes = maxValueBytes;
        b.device = device;
        b.manifest = manifest;
        b.writeBytesPerSecond = writeBytesPerSecond;
        b.eventLogBytes = eventLogBytes;
        b.walSegmentBytes = walSegmentBytes;
        return b;
    }

    /** Collects settings; {@link #build()} validates them. Not thread-safe. */
    public static final class Builder {
        private long memtableBytes = DEFAULT_MEMTABLE_BYTES;
        private int maxImmutableMemtables = 2;
        private long eventLogBytes = EventLog.DEFAULT_MAX_BYTES;
        private long walSegmentBytes = DEFAULT_WAL_SEGMENT_BYTES;
        private SyncMode walMode = SyncMode.SYNC;
        private MergePolicy policy;
        private MergeOrder mergeOrder;
        private SSTableOptions sstable = SSTableOptions.DEFAULT;
        private long blockCacheBytes = 32L << 20;
        private int mergeThreads = 1;
        private int subcompactions = 2;
        private long subcompactionBytes = DEFAULT_SUBCOMPACTION_BYTES;
        private int maxKeyBytes = DEFAULT_MAX_KEY_BYTES;
        private Integer maxValueBytes;
        private DeviceProfile device;
        private ManifestOptions manifest = ManifestOptions.DEFAULTS;
        private long writeBytesPerSecond;

        private Builder() {
        }

        /**
         * Sets the MemTable budget in bytes.
         *
         * @param v the MemTable budget in bytes
         * @return this builder
         */
        public Builder memtableBytes(long v) {
            memtableBytes = v;
            return this;
        }

        /**
         * Sets how many full MemTables may wait for their flush.
         *
         * @param v how many full MemTables may wait for their flush
         * @return this builder
         */
        public Builder maxImmutableMemtables(int v) {
            maxImmutableMemtables = v;
            return this;
        }

        /**
         * Sets the write-ahead log's sync mode.
         *
         * @param v the write-ahead log's sync mode
         * @return this builder
         */
        public Builder walMode(SyncMode v) {
            walMode = v;
            return this;
        }

        /**
         * Sets the merge policy.
         *
         * @param v the merge policy
         * @return this builder
         */
        public Builder policy(MergePolicy v) {
            policy = v;
            return this;
        }

        /**
         * {@return the policy from a specification such as {@code binomial:k=6} (see {@link MergePolicies#parse})}
         *
         * @param spec a policy spec, {@code NAME} or {@code NAME:param=value,...} ({@code MergePolicies.parse})
         */
        public Builder policy(String spec) {
            policy = MergePolicies.parse(spec);
            return this;
        }

        /**
         * Sets the merge order (null: the default for the policy's layout, see {@link StoreOptions#mergeOrder()}).
         *
         * @param v the merge order
         * @return this builder
         */
        public Builder mergeOrder(MergeOrder v) {
            mergeOrder = v;
            return this;
        }

        /**
         * Sets the SSTable format options.
         *
         * @param v the SSTable format options
         * @return this builder
         */
        public Builder sstable(SSTableOptions v) {
            sstable = v;
            return this;
        }

        /**
         * Sets the block cache's bytes.
         *
         * @param v the block cache's bytes
         * @return this builder
         */
        public Builder blockCacheBytes(long v) {
            blockCacheBytes = v;
            return this;
        }

        /**
         * Sets the threads running merges.
         *
         * @param v the threads running merges
         * @return this builder
         */
        public Builder mergeThreads(int v) {
            mergeThreads = v;
            return this;
        }

        /**
         * Sets the most key ranges (threads) one merge is split into.
         *
         * @param v the most key ranges of one merge; 1 never splits
         * @return this builder
         */
        public Builder subcompactions(int v) {
            subcompactions = v;
            return this;
        }

        /**
         * Sets the least input bytes per key range of a split merge.
         *
         * @param v the least input bytes per range
         * @return this builder
         */
        public Builder subcompactionBytes(long v) {
            subcompactionBytes = v;
            return this;
        }

        /**
         * Sets the largest key in bytes.
         *
         * @param v the largest key in bytes
         * @return this builder
         */
        public Builder maxKeyBytes(int v) {
            maxKeyBytes = v;
            return this;
        }

        /**
         * Sets the largest value in bytes.
         *
         * @param v the largest value in bytes
         * @return this builder
         */
        public Builder maxValueBytes(int v) {
            maxValueBytes = v;
            return this;
        }

        /**
         * Sets the emulated device (null: none).
         *
         * @param v the emulated device (null: none)
         * @return this builder
         */
        public Builder device(DeviceProfile v) {
            device = v;
            return this;
        }

        /**
         * Sets the manifest options.
         *
         * @param v the manifest options
         * @return this builder
         */
        public Builder manifest(ManifestOptions v) {
            manifest = v;
            return this;
        }

        /**
         * Caps each event log file at {@code v} bytes; 0 keeps no event log.
         *
         * @param v the value
         * @return this builder
         */
        public Builder eventLogBytes(long v) {
            eventLogBytes = v;
            return this;
        }

        /**
         * Limits flush and merge writes to {@code v} bytes per second; 0 means unlimited.
         *
         * @param v the value
         * @return this builder
         */
        public Builder writeBytesPerSecond(long v) {
            writeBytesPerSecond = v;
            return this;
        }

        /**
         * Sets the size a write-ahead-log segment reaches before a new one starts; 0 starts one per MemTable.
         *
         * @param v the segment size in bytes, in [0, 1 TiB]
         * @return this builder
         */
        public Builder walSegmentBytes(long v) {
            walSegmentBytes = v;
            return this;
        }

        /**
         * @throws IllegalArgumentException as {@link StoreOptions}' constructor
         *
         * @return the options
         */
        public StoreOptions build() {
            int values = maxValueBytes != null ? maxValueBytes
                    : SSTableWriter.maxEntryBytes(sstable.pageSize()) - maxKeyBytes;
            return new StoreOptions(memtableBytes, maxImmutableMemtables, walMode,
                    policy != null ? policy : MergePolicies.parse(DEFAULT_POLICY), mergeOrder, sstable,
                    blockCacheBytes, mergeThreads, subcompactions, subcompactionBytes, maxKeyBytes, values, device, manifest, writeBytesPerSecond,
                    eventLogBytes, walSegmentBytes);
        }
    }
}
