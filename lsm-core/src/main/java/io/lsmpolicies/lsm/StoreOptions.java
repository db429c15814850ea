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
import java.util.Objects;

/**
 * How an {@link LsmStore} is configured. Every setting is validated when the options are built, and an
 * error names the setting, the value and the accepted range.
 *
 * @param memtableBytes         MemTable budget in bytes (keys, values and per-entry overhead); when the active
 *                              MemTable would exceed it, it becomes immutable and is flushed. Default 4 MiB, as in
 *                              the runs of Mao et al.; at least 4 KiB
 * @param maxImmutableMemtables immutable MemTables that may wait for their flush before writers stall;
 *                              default 2, in [1, 64]
 * @param walMode               write-ahead-log mode; default {@link SyncMode#SYNC} (acknowledged means fsynced)
 * @param policy                the merge policy; default {@code binomial} with k = 6
 * @param mergeOrder            whether a full MemTable is flushed and then merged, or merged directly into the
 *                              SSTables the policy chooses; default {@link MergeOrder#FLUSH_THEN_MERGE}
 * @param sstable               SSTable page size and Bloom filter bits per key; default 4 KiB pages, 10 bits
 * @param blockCacheBytes       bytes of SSTable pages the shared block cache holds; default 32 MiB, may be 0
 * @param mergeThreads          threads running merges; default 1, in [1, 64]
 * @param maxKeyBytes           the largest key accepted; default 1 KiB. Key plus value must fit one page
 * @param maxValueBytes         the largest value accepted; default: what is left of a page after a largest key
 * @param device                an emulated device that throttles all I/O (null: none, the default)
 * @param manifest              when the manifest rolls over
 * @param writeBytesPerSecond   the most bytes per second that flushes and merges may write to this store's
 *                              SSTables (AsterixDB's {@code storage.write.rate.limit}; the WAL is not limited);
 *                              0, the default, means unlimited
 * @param eventLogBytes         the cap on each of the two files of the store's event log (see {@link EventLog});
 *                              default 1 MiB, 0 keeps no log
 */
public record StoreOptions(long memtableBytes, int maxImmutableMemtables, SyncMode walMode, MergePolicy policy,
        MergeOrder mergeOrder, SSTableOptions sstable, long blockCacheBytes, int mergeThreads, int maxKeyBytes,
        int maxValueBytes, DeviceProfile device, ManifestOptions manifest, long writeBytesPerSecond,
        long eventLogBytes) {

    /** The default MemTable budget, 4 MiB. */
    public static final long DEFAULT_MEMTABLE_BYTES = 4L << 20;
    /** The default merge policy. */
    public static final String DEFAULT_POLICY = "binomial:k=6";
    /** The default largest key. */
    public static final int DEFAULT_MAX_KEY_BYTES = 1024;

    /** @throws IllegalArgumentException naming the setting, the value and the accepted range */
    public StoreOptions {
        Objects.requireNonNull(walMode, "walMode");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(mergeOrder, "mergeOrder");
        Objects.requireNonNull(sstable, "sstable");
        Objects.requireNonNull(manifest, "manifest");
        range("memtableBytes", memtableBytes, 4096, 1L << 40);
        range("maxImmutableMemtables", maxImmutableMemtables, 1, 64);
        range("blockCacheBytes", blockCacheBytes, 0, Long.MAX_VALUE);
        range("mergeThreads", mergeThreads, 1, 64);
        range("writeBytesPerSecond", writeBytesPerSecond, 0, Long.MAX_VALUE);
        range("eventLogBytes", eventLogBytes, 0, 1L << 40);
        int pageLimit = SSTableWriter.maxEntryBytes(sstable.pageSize());
        range("maxKeyBytes", maxKeyBytes, 1, pageLimit / 3);
        range("maxValueBytes", maxValueBytes, 0, pageLimit);
        if ((long) maxKeyBytes + maxValueBytes > pageLimit) {
            throw new IllegalArgumentException("maxKeyBytes + maxValueBytes = " + ((long) maxKeyBytes + maxValueBytes)
                    + " exceeds the " + pageLimit + " bytes an entry may hold in a " + sstable.pageSize()
                    + "-byte page; raise the page size or lower a limit");
        }
    }

    private static void range(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("option " + name + " must be in [" + min + ", " + max + "], was "
                    + value);
        }
    }

    /** The settings a store records in its {@code OPTIONS} file (see {@link StoredOptions}). */
    public StoredOptions stored() {
        return new StoredOptions(PolicySpec.of(policy), mergeOrder.name(), memtableBytes, sstable.pageSize(),
                sstable.bloomBitsPerKey(), maxKeyBytes, maxValueBytes);
    }

    /** The defaults (see the record's parameters). */
    public static StoreOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder initialised from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.memtableBytes = memtableBytes;
        b.maxImmutableMemtables = maxImmutableMemtables;
        b.walMode = walMode;
        b.policy = policy;
        b.mergeOrder = mergeOrder;
        b.sstable = sstable;
        b.blockCacheBytes = blockCacheBytes;
        b.mergeThreads = mergeThreads;
        b.maxKeyBytes = maxKeyBytes;
        b.maxValueBytes = maxValueBytes;
        b.device = device;
        b.manifest = manifest;
        b.writeBytesPerSecond = writeBytesPerSecond;
        b.eventLogBytes = eventLogBytes;
        return b;
    }

    /** Collects settings; {@link #build()} validates them. Not thread-safe. */
    public static final class Builder {
        private long memtableBytes = DEFAULT_MEMTABLE_BYTES;
        private int maxImmutableMemtables = 2;
        private long eventLogBytes = EventLog.DEFAULT_MAX_BYTES;
        private SyncMode walMode = SyncMode.SYNC;
        private MergePolicy policy;
        private MergeOrder mergeOrder = MergeOrder.FLUSH_THEN_MERGE;
        private SSTableOptions sstable = SSTableOptions.DEFAULT;
        private long blockCacheBytes = 32L << 20;
        private int mergeThreads = 1;
        private int maxKeyBytes = DEFAULT_MAX_KEY_BYTES;
        private Integer maxValueBytes;
        private DeviceProfile device;
        private ManifestOptions manifest = ManifestOptions.DEFAULTS;
        private long writeBytesPerSecond;

        private Builder() {
        }

        public Builder memtableBytes(long v) {
            memtableBytes = v;
            return this;
        }

        public Builder maxImmutableMemtables(int v) {
            maxImmutableMemtables = v;
            return this;
        }

        public Builder walMode(SyncMode v) {
            walMode = v;
            return this;
        }

        public Builder policy(MergePolicy v) {
            policy = v;
            return this;
        }

        /** The policy from a specification such as {@code binomial:k=6} (see {@link MergePolicies#parse}). */
        public Builder policy(String spec) {
            policy = MergePolicies.parse(spec);
            return this;
        }

        public Builder mergeOrder(MergeOrder v) {
            mergeOrder = v;
            return this;
        }

        public Builder sstable(SSTableOptions v) {
            sstable = v;
            return this;
        }

        public Builder blockCacheBytes(long v) {
            blockCacheBytes = v;
            return this;
        }

        public Builder mergeThreads(int v) {
            mergeThreads = v;
            return this;
        }

        public Builder maxKeyBytes(int v) {
            maxKeyBytes = v;
            return this;
        }

        public Builder maxValueBytes(int v) {
            maxValueBytes = v;
            return this;
        }

        public Builder device(DeviceProfile v) {
            device = v;
            return this;
        }

        public Builder manifest(ManifestOptions v) {
            manifest = v;
            return this;
        }

        /** Caps each event log file at {@code v} bytes; 0 keeps no event log. */
        public Builder eventLogBytes(long v) {
            eventLogBytes = v;
            return this;
        }

        /** Limits flush and merge writes to {@code v} bytes per second; 0 means unlimited. */
        public Builder writeBytesPerSecond(long v) {
            writeBytesPerSecond = v;
            return this;
        }

        /** @throws IllegalArgumentException as {@link StoreOptions}' constructor */
        public StoreOptions build() {
            int values = maxValueBytes != null ? maxValueBytes
                    : SSTableWriter.maxEntryBytes(sstable.pageSize()) - maxKeyBytes;
            return new StoreOptions(memtableBytes, maxImmutableMemtables, walMode,
                    policy != null ? policy : MergePolicies.parse(DEFAULT_POLICY), mergeOrder, sstable,
                    blockCacheBytes, mergeThreads, maxKeyBytes, values, device, manifest, writeBytesPerSecond,
                    eventLogBytes);
        }
    }
}
