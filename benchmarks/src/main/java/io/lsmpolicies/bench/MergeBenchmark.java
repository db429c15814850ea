package io.lsmpolicies.bench;

import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.lsm.wal.SyncMode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * One merge of a whole store, timed alone: {@link LsmStore#compactAll()} of a store of {@code tables} flushed
 * tables whose keys (YCSB keys in hashed order, 1 KB values) all overlap, so every entry goes through the k-way
 * merge, version collapse, the output's encoding, checksums and Bloom filter, and the output's writes and final
 * force. The store is loaded once per fork without merging (a constant policy with room for every flush) and
 * copied afresh before each merge, outside the timed part. Single-shot: one merge per measurement. With JMH's
 * {@code -prof gc}, the heap bytes a merge allocates ({@code gc.alloc.rate.norm}), which does not depend on the
 * machine's load as the time does; {@code engineCpuMicros} is the CPU time the engine's threads spent on it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 4)
@Measurement(iterations = 10)
public class MergeBenchmark {
    @Param("200000")
    long records;

    @Param("1000")
    int valueBytes;

    /** MemTable size: the store holds records x (value + key) / this many tables. */
    @Param("16777216")
    long memtableBytes;

    private Path template;
    private Path dir;
    private LsmStore store;
    private StoreOptions options;

    @Setup(Level.Trial)
    public void load() throws IOException {
        template = Files.createTempDirectory("lsm-merge-bench");
        options = StoreOptions.builder().policy("constant:k=1000").walMode(SyncMode.OFF).memtableBytes(memtableBytes)
                .build();
        try (LsmStore loading = LsmStore.open(template, options)) {
            SplittableRandom values = new SplittableRandom(42);
            for (long i = 0; i < records; i++) {
                byte[] value = new byte[valueBytes];
                values.nextBytes(value);
                loading.put(YcsbKeys.key(i, YcsbKeys.KeyOrder.HASHED), value);
            }
            loading.flush();
            loading.awaitMerges();
        }
    }

    @Setup(Level.Invocation)
    public void copy() throws IOException {
        dir = BenchFiles.copyStore(template, "lsm-merge-bench-run");
        store = LsmStore.open(dir, options);
    }

    /**
     * CPU time the engine's threads (named {@code lsm-...}: the merge, the output's background writes, the purge)
     * spent on the merge, in microseconds: less sensitive to a busy machine than the merge's elapsed time.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class EngineCpu {
        public long engineCpuMicros;
    }

    @Benchmark
    public void compactAll(EngineCpu cpu) throws IOException {
        long before = engineCpuNanos();
        store.compactAll();
        cpu.engineCpuMicros += (engineCpuNanos() - before) / 1000;
    }

    private static long engineCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("lsm-")) {
                sum += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
            }
        }
        return sum;
    }

    @TearDown(Level.Invocation)
    public void close() throws IOException {
        store.close();
        BenchFiles.deleteTree(dir);
    }

    @TearDown(Level.Trial)
    public void deleteTemplate() throws IOException {
        BenchFiles.deleteTree(template);
    }
}
