package io.lsmpolicies.bench;

import com.google.common.hash.Funnels;
import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.lsm.sstable.BloomFilter;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The Bloom probe of a point read, against Guava's {@code BloomFilter} (the peer) on the same keys at the same
 * false-positive rate (10 bits per key, about 0.96 %), in the same run. {@code tables} filters of {@code keys}
 * keys each are probed with one absent key, as a get that misses every table does: ours hashes the key once
 * ({@link BloomFilter#hash}) and probes every filter with it; Guava hashes it again for each filter.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
public class BloomProbeBenchmark {
    @Param("1000000")
    int keys;

    @Param({"1", "6"})
    int tables;

    private BloomFilter[] ours;
    private com.google.common.hash.BloomFilter<byte[]>[] guava;
    private final SplittableRandom random = new SplittableRandom(3);

    @Setup
    @SuppressWarnings("unchecked")
    public void build() {
        ours = new BloomFilter[tables];
        guava = new com.google.common.hash.BloomFilter[tables];
        for (int t = 0; t < tables; t++) {
            BloomFilter.Builder b = BloomFilter.builder(BloomFilter.DEFAULT_BITS_PER_KEY);
            guava[t] = com.google.common.hash.BloomFilter.create(Funnels.byteArrayFunnel(), keys, 0.0096);
            for (long i = 0; i < keys; i++) {
                byte[] key = YcsbKeys.key((long) t * keys + i, YcsbKeys.KeyOrder.HASHED);
                b.add(key);
                guava[t].put(key);
            }
            ours[t] = b.build();
        }
    }

    private byte[] absentKey() {
        return YcsbKeys.key((long) tables * keys + random.nextLong(1L << 40), YcsbKeys.KeyOrder.HASHED);
    }

    @Benchmark
    public int oursHashOnce() {
        byte[] key = absentKey();
        BloomFilter.KeyHash h = BloomFilter.hash(key);
        int maybe = 0;
        for (BloomFilter f : ours) {
            maybe += f.mightContain(h) ? 1 : 0;
        }
        return maybe;
    }

    @Benchmark
    public int guavaPeer() {
        byte[] key = absentKey();
        int maybe = 0;
        for (com.google.common.hash.BloomFilter<byte[]> f : guava) {
            maybe += f.mightContain(key) ? 1 : 0;
        }
        return maybe;
    }

    /** The key generation alone, to subtract from both. */
    @Benchmark
    public byte[] keyOnly() {
        return absentKey();
    }
}
