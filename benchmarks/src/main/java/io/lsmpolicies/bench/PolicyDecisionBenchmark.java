package io.lsmpolicies.bench;

import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.SimulationStep;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.spi.PersistentStack;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost of one per-flush decision of each registered merge policy: {@code policy.onFlush(state, view)}
 * followed by one {@code policy.decide(view, state')}, in nanoseconds per flush (average time).
 *
 * <p>Setup (once per trial, not measured): the policy ({@code k = 10} where it takes k, defaults
 * otherwise) runs in the simulator on {@code uniform:1:100} flush sizes (seed 42) past
 * {@code flushesBefore} flushes; for {@value #CAPTURED} consecutive flushes the benchmark keeps the stack the
 * flush met with the flushed SSTable on top, and the policy state before the flush. The benchmark method cycles through these pairs, so static schedules
 * (binomial, minlatency) see {@value #CAPTURED} consecutive flush indexes and stack-shape policies see the
 * shapes that really occur, including the flushes that trigger a merge. Only the first {@code decide}
 * after the flush is measured, not the follow-up call that confirms no further job.
 *
 * <p>{@code no-merge} keeps one SSTable per flush, so its captured views hold about {@code flushesBefore}
 * SSTables; its {@code decide} is O(1) whatever the view, which makes it the floor of the harness (cycle,
 * state field load, {@link io.lsmpolicies.merge.spi.Decision} allocation, Blackhole).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 8, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 10, time = 1, timeUnit = TimeUnit.SECONDS)
public class PolicyDecisionBenchmark {
    /** Number of consecutive (view, state) pairs the benchmark cycles through; a power of two. */
    static final int CAPTURED = 1024;

    /** Registered policy name. */
    @Param({"constant", "prefix", "bigtable", "exploring", "minlatency", "binomial", "tiered", "no-merge", "adaptive"})
    public String policy;

    /** Flushes run before the captured ones: a young tree or a tree after a million flushes. */
    @Param({"1000", "1000000"})
    public long flushesBefore;

    private MergePolicy mergePolicy;
    private TreeView[] views;
    private PolicyState[] states;
    private int next;

    /** Runs the simulator to the regime and builds the (view after flush, state before flush) pairs. */
    @Setup(Level.Trial)
    public void setUp() {
        mergePolicy = BenchPolicies.create(policy);
        List<SimulationStep> steps = new ArrayList<>(CAPTURED + 1);
        new Simulator(mergePolicy, FlushSizeSources.parse(BenchPolicies.FLUSH_SIZES, BenchPolicies.SEED),
                BenchPolicies.SEED).run(flushesBefore + CAPTURED + 1, step -> {
                    if (step.flush() >= flushesBefore) {
                        steps.add(step);
                    }
                });
        views = new TreeView[CAPTURED];
        states = new PolicyState[CAPTURED];
        for (int i = 0; i < CAPTURED; i++) {
            SimulationStep before = steps.get(i);
            SimulationStep flush = steps.get(i + 1);
            // The stack the next flush met, with that flush's SSTable pushed on top (as the engine shows it).
            SSTableInfo flushed = SSTableInfo.builder(-1 - i).bytes(flush.flushBytes()).entries(flush.flushBytes())
                    .flush(flush.flush()).createdMillis(flush.flush()).build();
            // The simulator's views share one PersistentStack: push onto it rather than copy (no-merge's views
            // hold a million runs each).
            @SuppressWarnings("unchecked")
            PersistentStack<SortedRun> previous = (PersistentStack<SortedRun>) before.view().level0Runs();
            views[i] = TreeView.stack(previous.push(SortedRun.of(flushed)));
            states[i] = before.state();
        }
        next = 0;
    }

    /** One flush decision: onFlush, then the first decide, on the next captured pair. */
    @Benchmark
    public void flushDecision(Blackhole bh) {
        int i = next;
        next = (i + 1) & (CAPTURED - 1);
        TreeView view = views[i];
        PolicyState afterFlush = mergePolicy.onFlush(states[i], view);
        bh.consume(mergePolicy.decide(view, afterFlush));
    }
}
