package io.lsmpolicies.bench;

import com.google.common.hash.Funnels;
import io.lsmpolicies.lsm.cli.YcsbKeys;
import io.lsmpolicies.lsm.sstable.BloomFilter;
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
 * Building the Bloom filter of one SSTable, as a flush or merge does for its output: {@code keys} keys (YCSB keys
 * in hashed order, generated beforehand) added and the filter built, at 10 bits per key. The peer, in the same run,
 * is Guava's {@code BloomFilter} created for the same keys at the same false-positive rate and given every key.
 * Time per key is the score over {@code keys}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class BloomBuildBenchmark {
    @Param("1000000")
    int keys;

    private byte[][] input;

    @Setup
    public void keys() {
        input = new byte[keys][];
        for (int i = 0; i < keys; i++) {
            input[i] = YcsbKeys.key(i, YcsbKeys.KeyOrder.HASHED);
        }
    }

    @Benchmark
    public BloomFilter ours() {
        BloomFilter.Builder b = BloomFilter.builder(BloomFilter.DEFAULT_BITS_PER_KEY);
        for (byte[] key : input) {
            b.add(key);
        }
        return b.build();
    }

    /**
     * As {@link #ours()} with the key count known beforehand as a bound, as a merge's single output knows it: the
     * bits are set in place in a filter sized for 1.125 times the bound, with no hash kept per key.
     */
    @Benchmark
    public BloomFilter oursBounded() {
        BloomFilter.Builder b = BloomFilter.builder(BloomFilter.DEFAULT_BITS_PER_KEY, keys);
        for (byte[] key : input) {
            b.add(key);
        }
        return b.build();
    }

    @Benchmark
    public com.google.common.hash.BloomFilter<byte[]> guavaPeer() {
        com.google.common.hash.BloomFilter<byte[]> f =
                com.google.common.hash.BloomFilter.create(Funnels.byteArrayFunnel(), keys, 0.0096);
        for (byte[] key : input) {
            f.put(key);
        }
        return f;
    }
}
