package io.lsmpolicies.bench;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.lsm.sstable.SSTableOptions;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
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

/**
 * Point-read latency distribution (JMH sample mode: p50, p99) on a store loaded with YCSB-keyed records in
 * hashed order ({@code binomial:k=6}, 1 KB values), with the block cache large enough for the whole store
 * ({@code warm}) or disabled ({@code cold}: every page read from the file through the OS page cache). The load
 * runs once per fork, in setup. The peer, measured in the same run, is a get of an absent key (Bloom filters
 * answer it without a page read).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public class StoreGetBenchmark {
    @Param("200000")
    long records;

    @Param({"warm", "cold"})
    String cache;

    /** {@code fitted}: the default page sizes, fitted to the entries; a number: every page that many bytes. */
    @Param("fitted")
    String pages;

    private Path dir;
    private LsmStore store;
    private final SplittableRandom random = new SplittableRandom(7);

    @Setup(Level.Trial)
    public void load() throws IOException {
        dir = Files.createTempDirectory("lsm-get-bench");
        StoreOptions options = StoreOptions.builder().policy("binomial:k=6").walMode(SyncMode.OFF)
                .blockCacheBytes(cache.equals("warm") ? 4L << 30 : 0).sstable(pages.equals("fitted")
                        ? SSTableOptions.DEFAULT
                        : SSTableOptions.builder().pageSize(Integer.parseInt(pages)).fitPageSize(false).build())
                .build();
        try (LsmStore loading = LsmStore.open(dir, options)) {
            SplittableRandom values = new SplittableRandom(42);
            for (long i = 0; i < records; i++) {
                byte[] value = new byte[1000];
                values.nextBytes(value);
                loading.put(YcsbKeys.key(i, YcsbKeys.KeyOrder.HASHED), value);
            }
            loading.flush();
            loading.awaitMerges();
        }
        store = LsmStore.open(dir, options);
    }

    @Benchmark
    public byte[] getPresent() throws IOException {
        return store.get(YcsbKeys.key(random.nextLong(records), YcsbKeys.KeyOrder.HASHED));
    }

    @Benchmark
    public byte[] getAbsent() throws IOException {
        return store.get(YcsbKeys.key(records + random.nextLong(records), YcsbKeys.KeyOrder.HASHED));
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        store.close();
        BenchFiles.deleteTree(dir);
    }
}
