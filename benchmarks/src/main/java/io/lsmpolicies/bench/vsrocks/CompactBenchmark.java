package io.lsmpolicies.bench.vsrocks;

import io.lsmpolicies.bench.BenchFiles;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * One merge of a whole store, ours against RocksDB's in the same JMH run: each side loads the same records
 * ({@link Records}: YCSB keys in hashed order, 1,000-byte values) into overlapping flushed tables and merges none
 * (ours: a constant policy with room for every flush; RocksDB: automatic compactions off), once per fork; each
 * invocation copies that store afresh (untimed) and times one merge of all of it into one sorted run, output forced
 * to the device: our {@code compactAll}, RocksDB's {@code CompactRange} to the bottom level. Both without
 * compression, with 10 Bloom bits per key and a MemTable of {@code memtableBytes}; {@code subcompactions} is the
 * threads one merge may be split across on both sides (ours: {@code subcompactions}, RocksDB's
 * {@code max_subcompactions}). Single-shot: one merge per measurement.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
public class CompactBenchmark {
    @Param("400000")
    long records;

    @Param({"ours", "rocksdb"})
    String side;

    @Param({"1", "2"})
    int subcompactions;

    @Param("16777216")
    long memtableBytes;

    private Path template;
    private Path dir;
    private LsmStore ours;
    private Options rocksOptions;
    private RocksDB rocks;

    static {
        RocksDB.loadLibrary();
    }

    @Setup(Level.Trial)
    public void load() throws IOException, RocksDBException {
        template = Files.createTempDirectory("compact-vs-rocksdb");
        if (side.equals("ours")) {
            try (LsmStore store = LsmStore.open(template, ourOptions())) {
                for (long i = 0; i < records; i++) {
                    store.put(Records.key(i), Records.value(i, 1000));
                }
                store.flush();
                store.awaitMerges();
            }
        } else {
            rocksOptions = rocksOptions();
            try (RocksDB db = RocksDB.open(rocksOptions, template.toString());
                    WriteOptions w = new WriteOptions().setDisableWAL(true);
                    FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
                for (long i = 0; i < records; i++) {
                    db.put(w, Records.key(i), Records.value(i, 1000));
                }
                db.flush(f);
            }
        }
    }

    private StoreOptions ourOptions() {
        return StoreOptions.builder().policy("constant:k=100000").walMode(SyncMode.OFF).memtableBytes(memtableBytes)
                .subcompactions(subcompactions).build();
    }

    private Options rocksOptions() {
        BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockSize(4096)
                .setFilterPolicy(new BloomFilter(10, false));
        return new Options().setCreateIfMissing(true).setWriteBufferSize(memtableBytes).setMaxWriteBufferNumber(3)
                .setDisableAutoCompactions(true).setCompressionType(CompressionType.NO_COMPRESSION)
                .setBottommostCompressionType(CompressionType.DISABLE_COMPRESSION_OPTION).setMaxBackgroundJobs(2)
                .setMaxSubcompactions(subcompactions).setLevel0SlowdownWritesTrigger(100_000)
                .setLevel0StopWritesTrigger(100_000).setTableFormatConfig(table);
    }

    @Setup(Level.Invocation)
    public void copy() throws IOException, RocksDBException {
        dir = BenchFiles.copyStore(template, "compact-vs-rocksdb-run");
        if (side.equals("ours")) {
            ours = LsmStore.open(dir, ourOptions());
        } else {
            rocks = RocksDB.open(rocksOptions, dir.toString());
        }
    }

    @Benchmark
    public void compactAll() throws IOException, RocksDBException {
        if (ours != null) {
            ours.compactAll();
        } else {
            rocks.compactRange(); // one pass: level 0 into the bottom level, outputs synced as RocksDB always does
        }
    }

    @TearDown(Level.Invocation)
    public void close() throws IOException {
        if (ours != null) {
            ours.close();
            ours = null;
        }
        if (rocks != null) {
            rocks.close();
            rocks = null;
        }
        BenchFiles.deleteTree(dir);
    }

    @TearDown(Level.Trial)
    public void deleteTemplate() throws IOException {
        if (rocksOptions != null) {
            rocksOptions.close();
        }
        BenchFiles.deleteTree(template);
    }
}
