package io.lsmpolicies.ycsb.rocksdb;

import static io.lsmpolicies.ycsb.common.PropertyValues.longValue;
import static io.lsmpolicies.ycsb.common.PropertyValues.path;
import static io.lsmpolicies.ycsb.common.PropertyValues.size;
import static io.lsmpolicies.ycsb.common.PropertyValues.value;

import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.io.DeviceProfile;
import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import site.ycsb.DBException;

/**
 * The RocksDB peer's settings, parsed and validated in one place from YCSB's properties (the workload file plus
 * {@code -p} options). Every {@code rocksdb.*} property must be known; a bad value is a {@link DBException} naming
 * the property, the value and what is accepted. Defaults are RocksDB's, except where our engine's default differs
 * and the comparison needs the same setting (MemTable size, block cache, WAL mode; see docs/peers-rocksdb.md).
 * RocksDB's own option names ({@code rocksdb.write_buffer_size}, ...) and YCSB's {@code rocksdb.optionsfile} are
 * accepted too ({@link RocksDbNames}). Immutable.
 *
 * @param dir           the database directory
 * @param compaction    the compaction style
 * @param sizeRatio     leveled: the level size multiplier T ({@code max_bytes_for_level_multiplier}); universal: the
 *                      size-ratio flexibility in percent ({@code compaction_options_universal.size_ratio})
 * @param l0Trigger     {@code level0_file_num_compaction_trigger}: level-0 files (leveled) or sorted runs
 *                      (universal) that start a compaction
 * @param dynamicLevels leveled: {@code level_compaction_dynamic_level_bytes}; always false for universal
 * @param baseLevelBytes leveled: {@code max_bytes_for_level_base}, the base level's target (default 256 MiB)
 * @param targetFileBytes {@code target_file_size_base}: where compaction outputs are cut (default 64 MiB)
 * @param memtableBytes {@code write_buffer_size}
 * @param wal           the write-ahead-log mode
 * @param blockCacheBytes the LRU block cache's capacity; 0: no block cache
 * @param subcompactions {@code max_subcompactions}: the threads one compaction may be split across (default 1,
 *                      RocksDB's)
 * @param deviceName    {@code none}, {@code ssd} or {@code hdd}
 * @param device        the emulated device whose bandwidth limits flush and compaction I/O (null for none)
 * @param traceFile     optional: where the last DB instance writes the flush trace (CSV)
 * @param schema        the workload's field names: an update writing all of them replaces the record unread
 */
public record RocksDbConfig(Path dir, Compaction compaction, int sizeRatio, int l0Trigger, boolean dynamicLevels,
        long baseLevelBytes, long targetFileBytes, long memtableBytes, Wal wal, long blockCacheBytes, int subcompactions, String deviceName, DeviceProfile device, Path traceFile,
        Set<String> schema) {

    /** RocksDB's compaction styles offered here. */
    public enum Compaction {
        /** Leveled compaction ({@code kCompactionStyleLevel}), RocksDB's default. */
        LEVELED,
        /** Universal (tiered) compaction ({@code kCompactionStyleUniversal}). */
        UNIVERSAL
    }

    /** How a returned write is made durable. */
    public enum Wal {
        /** {@code WriteOptions.sync}: each write is fsynced before it returns. */
        SYNC,
        /** The default {@code WriteOptions}: the WAL is written to the OS, so a write survives a process crash. */
        ASYNC,
        /** {@code WriteOptions.disableWAL}: a write survives once its MemTable is flushed. */
        OFF
    }

    public static final String DIR = "rocksdb.dir";
    public static final String COMPACTION = "rocksdb.compaction";
    public static final String SIZE_RATIO = "rocksdb.size-ratio";
    public static final String L0_TRIGGER = "rocksdb.l0-trigger";
    public static final String LEVEL_TARGETS = "rocksdb.level-targets";
    public static final String BASE_LEVEL_BYTES = "rocksdb.base-level-bytes";
    public static final String TARGET_FILE_BYTES = "rocksdb.target-file-bytes";
    public static final String MEMTABLE_SIZE = "rocksdb.memtable.size";
    public static final String WAL = "rocksdb.wal";
    public static final String BLOCK_CACHE = "rocksdb.block-cache";
    public static final String DEVICE = "rocksdb.device";
    public static final String SUBCOMPACTIONS = "rocksdb.subcompactions";
    /** The flush trace, a property shared by every system of the benchmark. */
    public static final String TRACE_FILE = "bench.trace.file";

    /** RocksDB's {@code max_bytes_for_level_multiplier}; the range of our leveled policy's size-ratio. */
    public static final int DEFAULT_LEVELED_SIZE_RATIO = 10;
    /** RocksDB's {@code compaction_options_universal.size_ratio}; our universal policy's size-ratio-percent. */
    public static final int DEFAULT_UNIVERSAL_SIZE_RATIO = 1;
    /** RocksDB's {@code level0_file_num_compaction_trigger}. */
    public static final int DEFAULT_L0_TRIGGER = 4;
    /** Our engine's default block cache, 32 MiB. */
    public static final long DEFAULT_BLOCK_CACHE_BYTES = 32L << 20;
    /** RocksDB clips {@code write_buffer_size} to [64 KiB, 64 GiB]; we refuse values outside instead. */
    public static final long MIN_MEMTABLE_BYTES = 64L << 10;
    public static final long MAX_MEMTABLE_BYTES = 64L << 30;

    private static final Set<String> KEYS = Set.of(DIR, COMPACTION, SIZE_RATIO, L0_TRIGGER, LEVEL_TARGETS,
            BASE_LEVEL_BYTES, TARGET_FILE_BYTES, MEMTABLE_SIZE, WAL, BLOCK_CACHE, DEVICE, SUBCOMPACTIONS);

    /**
     * Parses and validates the settings.
     *
     * @throws DBException naming the property, if a {@code rocksdb.*} property is unknown, {@code rocksdb.dir} is
     *                     missing, or a value is bad
     */
    public static RocksDbConfig parse(Properties given) throws DBException {
        List<String> ignored = new ArrayList<>();
        Properties p = RocksDbNames.resolve(given, ignored);
        if (!ignored.isEmpty()) {
            System.getLogger(RocksDbConfig.class.getName()).log(System.Logger.Level.INFO, "{0}: RocksDB options this "
                    + "peer does not set, ignored: {1}", RocksDbNames.OPTIONS_FILE, String.join(", ", ignored));
        }
        for (String name : new TreeSet<>(p.stringPropertyNames())) {
            if (name.startsWith("rocksdb.") && !KEYS.contains(name)) {
                throw new DBException("unknown property " + name + "; known: " + String.join(", ", new TreeSet<>(KEYS))
                        + ", " + TRACE_FILE + ", " + RocksDbNames.OPTIONS_FILE + ", and RocksDB's names "
                        + String.join(", ", RocksDbNames.propertyNames()));
            }
        }
        String dirText = p.getProperty(DIR);
        if (dirText == null || dirText.isBlank()) {
            throw new DBException(DIR + " is required: the database directory, e.g. -p " + DIR + "=/tmp/ycsb-rocksdb");
        }
        Path dir = path(DIR, dirText.trim());
        Compaction compaction = switch (value(p, COMPACTION, "leveled")) {
            case "leveled" -> Compaction.LEVELED;
            case "universal" -> Compaction.UNIVERSAL;
            default -> throw new DBException(COMPACTION + ": '" + value(p, COMPACTION, "leveled")
                    + "' is not a compaction style; accepted: leveled, universal");
        };
        int sizeRatio = compaction == Compaction.LEVELED
                ? (int) longValue(p, SIZE_RATIO, DEFAULT_LEVELED_SIZE_RATIO, 2, 1000,
                        "with " + COMPACTION + "=leveled, the level size multiplier T")
                : (int) longValue(p, SIZE_RATIO, DEFAULT_UNIVERSAL_SIZE_RATIO, 0, 1_000_000,
                        "with " + COMPACTION + "=universal, the size-ratio flexibility in percent");
        int l0Trigger = (int) longValue(p, L0_TRIGGER, DEFAULT_L0_TRIGGER, 1, 10_000,
                "level-0 files (leveled) or sorted runs (universal) that start a compaction");
        boolean dynamic = switch (value(p, LEVEL_TARGETS, "static")) {
            case "static" -> false;
            case "dynamic" -> true;
            default -> throw new DBException(LEVEL_TARGETS + ": '" + value(p, LEVEL_TARGETS, "static")
                    + "' is not accepted; accepted: static, dynamic");
        };
        if (p.getProperty(LEVEL_TARGETS) != null && compaction != Compaction.LEVELED) {
            throw new DBException(LEVEL_TARGETS + " applies to " + COMPACTION + "=leveled only, not "
                    + compaction.name().toLowerCase(Locale.ROOT));
        }
        long baseLevel = size(p, BASE_LEVEL_BYTES, 256L << 20);
        long targetFile = size(p, TARGET_FILE_BYTES, 64L << 20);
        if (baseLevel < 1 || targetFile < 1) {
            throw new DBException((baseLevel < 1 ? BASE_LEVEL_BYTES : TARGET_FILE_BYTES) + " must be at least 1 byte");
        }
        if (p.getProperty(BASE_LEVEL_BYTES) != null && compaction != Compaction.LEVELED) {
            throw new DBException(BASE_LEVEL_BYTES + " applies to " + COMPACTION + "=leveled only");
        }
        long memtable = size(p, MEMTABLE_SIZE, StoreOptions.DEFAULT_MEMTABLE_BYTES);
        if (memtable < MIN_MEMTABLE_BYTES || memtable > MAX_MEMTABLE_BYTES) {
            throw new DBException(MEMTABLE_SIZE + ": " + memtable + " bytes is not accepted; accepted: 64KB to 64GB "
                    + "(RocksDB's range for write_buffer_size)");
        }
        Wal wal = switch (value(p, WAL, "async")) {
            case "sync" -> Wal.SYNC;
            case "async" -> Wal.ASYNC;
            case "off" -> Wal.OFF;
            default -> throw new DBException(WAL + ": '" + value(p, WAL, "async")
                    + "' is not a WAL mode; accepted: sync, async, off");
        };
        long cache = size(p, BLOCK_CACHE, DEFAULT_BLOCK_CACHE_BYTES);
        if (cache > (1L << 40)) {
            throw new DBException(BLOCK_CACHE + ": " + cache + " bytes is not accepted; accepted: 0 (no cache) to 1TB");
        }
        int subcompactions = (int) longValue(p, SUBCOMPACTIONS, 1, 1, 64,
                "threads one compaction may be split across (max_subcompactions)");
        String deviceName = value(p, DEVICE, "none");
        DeviceProfile device;
        try {
            device = DeviceProfile.named(deviceName);
        } catch (IllegalArgumentException e) {
            throw new DBException(DEVICE + ": '" + deviceName + "' is not a device profile; accepted: ssd, hdd, none");
        }
        String trace = p.getProperty(TRACE_FILE);
        Path traceFile = trace == null || trace.isBlank() ? null : path(TRACE_FILE, trace.trim());
        return new RocksDbConfig(dir, compaction, sizeRatio, l0Trigger, dynamic, baseLevel, targetFile, memtable, wal, cache, subcompactions, deviceName,
                device, traceFile, YcsbRecord.schema(p));
    }

    /** The settings that fix how the database is opened, as text: DB instances sharing one must agree on them. */
    public String settings() {
        return COMPACTION + "=" + name(compaction) + ", " + SIZE_RATIO + "=" + sizeRatio + ", " + L0_TRIGGER + "="
                + l0Trigger + (compaction == Compaction.LEVELED ? ", " + LEVEL_TARGETS + "="
                + (dynamicLevels ? "dynamic" : "static") + ", " + BASE_LEVEL_BYTES + "=" + baseLevelBytes : "") + ", "
                + TARGET_FILE_BYTES + "=" + targetFileBytes + ", " + MEMTABLE_SIZE + "=" + memtableBytes + ", "
                + WAL + "=" + name(wal) + ", " + BLOCK_CACHE + "=" + blockCacheBytes + ", " + SUBCOMPACTIONS + "="
                + subcompactions + ", " + DEVICE + "=" + deviceName;
    }

    private static String name(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

}
