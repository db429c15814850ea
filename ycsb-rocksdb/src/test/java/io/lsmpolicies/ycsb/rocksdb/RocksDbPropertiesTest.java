package io.lsmpolicies.ycsb.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.FlushOptions;
import org.rocksdb.RateLimiter;
import site.ycsb.DBException;

/** Wrong or missing properties fail at init() with a DBException naming the property and what it accepts. */
@Timeout(60)
class RocksDbPropertiesTest {
    @TempDir
    Path tmp;

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    private DBException initFails(String... keyValues) {
        RocksDbDB db = new RocksDbDB();
        db.setProperties(props(keyValues));
        return catchThrowableOfType(DBException.class, db::init);
    }

    private DBException fails(String name, String value) {
        return initFails("rocksdb.dir", tmp.resolve("db").toString(), name, value);
    }

    @Test
    void rocksDbsOwnOptionNamesAndYcsbsOptionsFileAreAccepted() throws Exception {
        // Regression: YCSB's rocksdb.optionsfile and RocksDB's option names were unknown properties.
        RocksDbConfig named = RocksDbConfig.parse(props("rocksdb.dir", tmp.resolve("db").toString(),
                "rocksdb.write_buffer_size", "1048576", "rocksdb.max_bytes_for_level_multiplier", "4",
                "rocksdb.level_compaction_dynamic_level_bytes", "true"));
        assertThat(named.memtableBytes()).isEqualTo(1 << 20);
        assertThat(named.sizeRatio()).isEqualTo(4);
        assertThat(named.dynamicLevels()).isTrue();

        Path options = java.nio.file.Files.writeString(tmp.resolve("OPTIONS-000005"), "[Version]\n"
                + "  rocksdb_version=9.7.3\n[DBOptions]\n  max_background_jobs=2\n[CFOptions \"default\"]\n"
                + "  compaction_style=kCompactionStyleUniversal\n  write_buffer_size=2097152\n"
                + "  level0_file_num_compaction_trigger=8\n  bloom_locality=0\n"
                + "[TableOptions/BlockBasedTable \"default\"]\n  block_size=4096\n", StandardCharsets.UTF_8);
        RocksDbConfig fromFile = RocksDbConfig.parse(props("rocksdb.dir", tmp.resolve("db").toString(),
                "rocksdb.optionsfile", options.toString(), "rocksdb.l0-trigger", "6"));
        assertThat(fromFile.compaction()).isEqualTo(RocksDbConfig.Compaction.UNIVERSAL);
        assertThat(fromFile.memtableBytes()).isEqualTo(2 << 20);
        assertThat(fromFile.l0Trigger()).as("a property given wins over the file").isEqualTo(6);

        assertThat(fails("rocksdb.write_buffer_size", "1KB")).hasMessageContaining("rocksdb.memtable.size");
        assertThat(initFails("rocksdb.dir", "d", "rocksdb.memtable.size", "4MB", "rocksdb.write_buffer_size", "1MB"))
                .hasMessageContaining("give rocksdb.memtable.size or rocksdb.write_buffer_size (RocksDB's name), "
                        + "not both");
        assertThat(fails("rocksdb.compaction_style", "kCompactionStyleFIFO"))
                .hasMessageContaining("accepted: kCompactionStyleLevel, kCompactionStyleUniversal");
    }

    @Test
    void theDirectoryIsRequired() {
        assertThat(initFails()).hasMessageContaining("rocksdb.dir is required");
        assertThat(initFails("rocksdb.dir", " ")).hasMessageContaining("rocksdb.dir is required");
    }

    @Test
    void everySettingIsValidatedNamingPropertyValueAndWhatIsAccepted() {
        assertThat(fails("rocksdb.compaction", "tiered")).hasMessage(
                "rocksdb.compaction: 'tiered' is not a compaction style; accepted: leveled, universal");
        assertThat(fails("rocksdb.size-ratio", "1")).hasMessageContaining("rocksdb.size-ratio: '1'")
                .hasMessageContaining("[2, 1000]").hasMessageContaining("level size multiplier");
        assertThat(fails("rocksdb.size-ratio", "ten")).hasMessageContaining("rocksdb.size-ratio: 'ten'");
        assertThat(initFails("rocksdb.dir", "d", "rocksdb.compaction", "universal", "rocksdb.size-ratio", "-1"))
                .hasMessageContaining("rocksdb.size-ratio: '-1'").hasMessageContaining("[0, 1000000]")
                .hasMessageContaining("percent");
        assertThat(fails("rocksdb.l0-trigger", "0")).hasMessageContaining("rocksdb.l0-trigger: '0'")
                .hasMessageContaining("[1, 10000]");
        assertThat(fails("rocksdb.level-targets", "auto")).hasMessage(
                "rocksdb.level-targets: 'auto' is not accepted; accepted: static, dynamic");
        assertThat(initFails("rocksdb.dir", "d", "rocksdb.compaction", "universal", "rocksdb.level-targets",
                "dynamic")).hasMessageContaining("rocksdb.level-targets applies to rocksdb.compaction=leveled only");
        assertThat(initFails("rocksdb.dir", "d", "rocksdb.compaction", "universal", "rocksdb.base-level-bytes",
                "1MB")).hasMessageContaining("rocksdb.base-level-bytes applies to rocksdb.compaction=leveled only");
        assertThat(fails("rocksdb.target-file-bytes", "big")).hasMessageContaining("rocksdb.target-file-bytes")
                .hasMessageContaining("is not a size");
        assertThat(fails("rocksdb.memtable.size", "lots")).hasMessageContaining("rocksdb.memtable.size")
                .hasMessageContaining("'lots' is not a size").hasMessageContaining("e.g. 4MB");
        assertThat(fails("rocksdb.memtable.size", "32KB")).hasMessageContaining("rocksdb.memtable.size: 32768 bytes")
                .hasMessageContaining("accepted: 64KB to 64GB");
        assertThat(fails("rocksdb.wal", "fast")).hasMessage(
                "rocksdb.wal: 'fast' is not a WAL mode; accepted: sync, async, off");
        assertThat(fails("rocksdb.block-cache", "-1")).hasMessageContaining("rocksdb.block-cache")
                .hasMessageContaining("is not a size");
        assertThat(fails("rocksdb.device", "nvme")).hasMessage(
                "rocksdb.device: 'nvme' is not a device profile; accepted: ssd, hdd, none");
        assertThat(fails("rocksdb.threads", "4")).hasMessageContaining("unknown property rocksdb.threads")
                .hasMessageContaining("rocksdb.compaction").hasMessageContaining("bench.trace.file");
    }

    @Test
    void defaultsAreRocksDbsExceptTheSettingsMatchedToOurEngine() throws Exception {
        RocksDbConfig leveled = RocksDbConfig.parse(props("rocksdb.dir", "d"));
        assertThat(leveled.settings()).isEqualTo("rocksdb.compaction=leveled, rocksdb.size-ratio=10, "
                + "rocksdb.l0-trigger=4, rocksdb.level-targets=static, rocksdb.base-level-bytes=268435456, "
                + "rocksdb.target-file-bytes=67108864, rocksdb.memtable.size=4194304, "
                + "rocksdb.wal=async, rocksdb.block-cache=33554432, rocksdb.subcompactions=1, rocksdb.device=none");
        assertThat(leveled.traceFile()).isNull();
        assertThat(RocksDbConfig.parse(props("rocksdb.dir", "d", "rocksdb.subcompactions", "2")).subcompactions())
                .isEqualTo(2);
        assertThat(RocksDbConfig.parse(props("rocksdb.dir", "d", "rocksdb.max_subcompactions", "3")).subcompactions())
                .as("RocksDB's own name").isEqualTo(3);
        assertThat(fails("rocksdb.subcompactions", "0")).hasMessageContaining("rocksdb.subcompactions");
        assertThat(leveled.schema()).hasSize(10).contains("field0", "field9");
        RocksDbConfig universal = RocksDbConfig.parse(props("rocksdb.dir", "d", "rocksdb.compaction", "universal",
                "rocksdb.wal", "off", "rocksdb.device", "hdd", "rocksdb.block-cache", "0", "bench.trace.file", "t.csv"));
        assertThat(universal.sizeRatio()).isEqualTo(1);
        assertThat(universal.wal()).isEqualTo(RocksDbConfig.Wal.OFF);
        assertThat(universal.device().bytesPerSecond()).isEqualTo(150_000_000L);
        assertThat(universal.blockCacheBytes()).isZero();
        assertThat(universal.traceFile()).isEqualTo(Path.of("t.csv"));
        assertThat(RocksDbConfig.parse(props("rocksdb.dir", "d", "rocksdb.memtable.size", "64KB")).memtableBytes())
                .isEqualTo(65536);
    }

    @Test
    void aDeviceProfileLimitsFlushIoAtItsBandwidthAndAnEmptyCacheIsAccepted() throws Exception {
        RocksDbConfig config = RocksDbConfig.parse(props("rocksdb.dir", tmp.resolve("db").toString(),
                "rocksdb.device", "ssd", "rocksdb.block-cache", "0", "rocksdb.wal", "sync"));
        io.lsmpolicies.ycsb.common.SharedResources.Handle<OpenRocksDb> shared = SharedRocksDbs.acquire(config);
        try {
            RateLimiter limiter = shared.resource().rateLimiter;
            assertThat(limiter.getBytesPerSecond()).isEqualTo(520_000_000L);
            long before = limiter.getTotalBytesThrough();
            for (int i = 0; i < 100; i++) {
                shared.resource().db.put(shared.resource().writeOptions, ("k" + i).getBytes(StandardCharsets.UTF_8),
                        new byte[1000]);
            }
            try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
                shared.resource().db.flush(f);
            }
            assertThat(limiter.getTotalBytesThrough() - before).as("the flush's writes went through the limiter")
                    .isGreaterThan(100_000L);
        } finally {
            SharedRocksDbs.release(shared);
        }
    }
}
