package io.lsmpolicies.bench.vsrocks;

import io.lsmpolicies.bench.BenchFiles;
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
 * Point reads, ours against RocksDB in the same JMH run (sample mode: p50, p99, p99.9): each side loads the same
 * records ({@link Records}: YCSB keys in hashed order, 1,000-byte values) with the same budgets as
 * {@code bin/bench-vs-rocksdb} ({@link Side}: 4 MiB MemTable, 32 MiB block cache), settles, and then serves gets of
 * uniformly random loaded keys. {@code pairing} gives our policy and RocksDB's compaction style. The load runs once
 * per fork, in setup; each side runs in its own fork.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public class GetBenchmark {
    @Param("200000")
    long records;

    @Param({"ours", "rocksdb"})
    String side;

    @Param("binomial:k=6/universal")
    String pairing;

    private Path dir;
    private BenchStore store;
    private final SplittableRandom random = new SplittableRandom(7);

    @Setup(Level.Trial)
    public void load() throws IOException {
        dir = Files.createTempDirectory("lsm-get-vs-rocksdb");
        store = Side.of(side).open(Pairing.parse(pairing), dir);
        for (long i = 0; i < records; i++) {
            store.put(Records.key(i), Records.value(i, 1000));
        }
        store.settle();
    }

    @Benchmark
    public byte[] getPresent() throws IOException {
        return store.get(Records.key(random.nextLong(records)));
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        store.close();
        BenchFiles.deleteTree(dir);
    }
}
