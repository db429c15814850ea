package io.lsmpolicies.bench;

import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.SimulationResult;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.spi.MergePolicy;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole simulator loop: one operation is {@code new Simulator(policy, uniform:1:100 seed 42).run(1_000_000)}
 * (flush, {@code onFlush}, {@code decide} until no job, install the merges, account the metrics), so the
 * reported time in seconds per operation is the time per million flushes. Policies take {@code k = 10}
 * where they have a k, defaults otherwise. Single-shot mode: each iteration is one full run from an empty
 * stack, which includes the allocation of the SSTable metadata and the garbage collection it causes (most
 * visible for {@code no-merge}, whose stack keeps all million SSTables). The requirement this checks: a
 * million uniform flushes with k = 10 take at most a few seconds per policy on a 2-core machine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 5)
@Measurement(iterations = 5)
public class SimulatorThroughputBenchmark {
    /** Flushes per simulated run. */
    static final long FLUSHES = 1_000_000L;

    /** Registered policy name. */
    @Param({"constant", "prefix", "bigtable", "exploring", "minlatency", "binomial", "tiered", "no-merge", "adaptive"})
    public String policy;

    /** One simulated run of a million flushes. */
    @Benchmark
    public SimulationResult millionFlushes() {
        MergePolicy p = BenchPolicies.create(policy);
        Simulator sim = new Simulator(p, FlushSizeSources.parse(BenchPolicies.FLUSH_SIZES, BenchPolicies.SEED),
                BenchPolicies.SEED);
        return sim.run(FLUSHES);
    }
}
