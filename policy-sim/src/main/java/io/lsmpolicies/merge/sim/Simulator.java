package io.lsmpolicies.merge.sim;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PersistentStack;
import io.lsmpolicies.merge.spi.PolicyFactory;
import io.lsmpolicies.merge.spi.PolicyLayout;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs a stack-based policy on a sequence of flush sizes in the model of Mao et al. (VLDB Journal 2021,
 * Sect. 3): at each step t a flush of l_t bytes becomes the newest SSTable, then the policy's merges run
 * until it asks for none. A merge's output is exactly the sum of its inputs (no updates, no deletes). Two
 * costs are kept: the engine's (every flush and every merge output is written) and the model's,
 * delta(sigma_t, sigma_{t-1}) of Mathieu et al.: the sizes of the SSTables that exist after step t and did not
 * before, so an SSTable created and merged away within one step (the flushed MemTable merged at once, or
 * the intermediate output of a cascade) is not charged; that is {@link SimulationResult#mergeCost()}. With
 * reads (r_t after step t, each probing every SSTable then present at {@code readCostBytes} bytes a probe) it
 * also keeps the read cost and the total cost, the cost model with reads of {@code docs/policies.md}. The
 * policy objects are the ones the engine runs, driven through the same protocol ({@code onFlush}, then
 * {@code decide} until no job), so a schedule here is the schedule in the engine. At flush t the policy is told
 * r(t - 1), the reads since the previous flush (0 at the first): it decides step t's merges without knowing r(t).
 *
 * <p>Only stack policies run here ({@link #requireStack}); leveled ones run in the engine.
 * The simulator enforces the stack model: every merge must take SSTables that are contiguous in the
 * stack (a stable policy) and must be a real merge into level 0; anything else is an
 * {@link IllegalStateException} naming the policy and the flush.
 *
 * <p>Cost per flush is O(policy decision + depth of the merged SSTables in the stack): the stack is a
 * {@link PersistentStack}, so handing the policy a fresh immutable view costs O(1).
 */
public final class Simulator {
    /** Bound on merges after one flush, so a policy that never settles is reported instead of looping. */
    static final int MAX_MERGES_PER_FLUSH = 100_000;

    /** The bytes one SSTable probe of one read costs unless told otherwise ({@code --read-cost}). */
    public static final long DEFAULT_READ_COST_BYTES = 4096;

    private final MergePolicy policy;
    private final FlushSizes sizes;
    private final ReadCounts reads;
    private final long readCostBytes;
    private final long seed;

    /**
     * A run without reads: {@code readCost} is 0 and {@code totalCost} equals {@code mergeCost}.
     *
     * @param policy the policy to run
     * @param sizes  the flush sizes
     * @param seed   recorded in the result (the seed the random flush sizes were drawn with)
     */
    public Simulator(MergePolicy policy, FlushSizes sizes, long seed) {
        this(policy, sizes, ReadCountSources.none(), DEFAULT_READ_COST_BYTES, seed);
    }

    /**
     * @param policy        the policy to run
     * @param sizes         the flush sizes
     * @param reads         r_t, the reads after each step's flush and merges
     * @param readCostBytes the bytes one read's probe of one SSTable costs ({@code >= 0})
     * @param seed          recorded in the result (the seed the random flush sizes were drawn with)
     * @throws IllegalArgumentException if {@code readCostBytes < 0}
     */
    public Simulator(MergePolicy policy, FlushSizes sizes, ReadCounts reads, long readCostBytes, long seed) {
        requireStack(policy);
        if (readCostBytes < 0) {
            throw new IllegalArgumentException("read cost must be >= 0 bytes, was " + readCostBytes);
        }
        this.policy = policy;
        this.sizes = sizes;
        this.reads = reads;
        this.readCostBytes = readCostBytes;
        this.seed = seed;
    }

    /**
     * Checks that {@code policy} is one the stack model can run: a registered policy must be of layout
     * {@link PolicyLayout#STACK} (a policy not in the registry, e.g. one built in a test, is accepted and still
     * checked job by job).
     *
     * @param policy the policy
     * @throws IllegalArgumentException naming the policy and the stack policies if it is a leveled policy
     */
    public static void requireStack(MergePolicy policy) {
        PolicyFactory f = MergePolicies.factories().get(policy.name());
        if (f != null && f.layout() != PolicyLayout.STACK) {
            throw new IllegalArgumentException("policy '" + policy.name() + "' is a " + f.layout().name()
                    .toLowerCase(java.util.Locale.ROOT) + " policy; the simulator runs only stack policies ("
                    + String.join(", ", MergePolicies.names(PolicyLayout.STACK)) + "): run '" + policy.name()
                    + "' in the key-level model (bin/bench-pickers --policy, which needs keys, not only flush sizes)"
                    + " or in the engine (lsm-core)");
        }
    }

    /**
     * Runs {@code flushes} flushes.
     *
     * @param flushes the flushes to run, {@code >= 1}
     * @return the result
     */
    public SimulationResult run(long flushes) {
        return run(flushes, null);
    }

    /**
     * Runs {@code flushes} flushes, calling {@code listener} (if not null) after each flush and its merges.
     *
     * @param flushes  the flushes to run, {@code >= 1}
     * @param listener told of each step, or null
     * @return the result
     * @throws IllegalArgumentException if {@code flushes < 1}, a size is negative, a trace (of sizes or reads) is
     *                                  too short, or the read cost does not fit in 64 bits
     */
    public SimulationResult run(long flushes, Consumer<SimulationStep> listener) {
        if (flushes < 1) {
            throw new IllegalArgumentException("flushes must be >= 1, was " + flushes);
        }
        if (sizes.remaining() < flushes) {
            throw new IllegalArgumentException(sizes.describe() + " has only " + sizes.remaining()
                    + " flush sizes, but " + flushes + " flushes were asked for");
        }
        if (reads.remaining() < flushes) {
            throw new IllegalArgumentException("reads '" + reads.describe() + "' give read counts for only "
                    + reads.remaining() + " flushes, but " + flushes + " flushes were asked for");
        }
        PersistentStack<SortedRun> stack = PersistentStack.empty();
        PolicyState state = policy.initialState();
        long nextId = 1;
        long flushed = 0;
        long written = 0;
        long notChargedByModel = 0;
        long mergeOutput = 0;
        long totalBytes = 0;
        long merges = 0;
        double transientMax = 0;
        Map<Long, Long> createdThisStep = new HashMap<>();
        double countSum = 0;
        int countMax = 0;
        long probes = 0;
        long previousReads = 0; // r(t - 1): what the policy learns at flush t (it never sees r(t) in advance)
        for (long t = 1; t <= flushes; t++) {
            long size = sizes.next();
            if (size < 0) {
                throw new IllegalArgumentException(sizes.describe() + ": flush " + t + " has negative size " + size);
            }
            SSTableInfo table = SSTableInfo.builder(nextId++).bytes(size).entries(size)
                    .sequences(t, t).flush(t).createdMillis(t).build();
            stack = stack.push(SortedRun.of(table));
            flushed += size;
            written += size;
            totalBytes += size;
            transientMax = Math.max(transientMax, ratio(totalBytes, flushed));
            TreeView view = TreeView.stack(stack);
            state = policy.onFlush(state, view, previousReads);
            List<MergeJob> done = listener == null ? null : new ArrayList<>(2);
            // SSTables created in this step (the flush, then merge outputs), by id -> bytes: if a later merge of
            // the same step consumes one, the model never sees it (it is not in sigma_t), so it is not charged.
            createdThisStep.clear();
            createdThisStep.put(table.id(), size);
            int mergesThisFlush = 0;
            while (true) {
                Decision decision = policy.decide(view, state);
                state = decision.state();
                if (decision.jobs().isEmpty()) {
                    break;
                }
                for (MergeJob job : decision.jobs()) {
                    if (++mergesThisFlush > MAX_MERGES_PER_FLUSH) {
                        throw new IllegalStateException("policy " + policy.name() + " asked for more than "
                                + MAX_MERGES_PER_FLUSH + " merges after flush " + t);
                    }
                    long out = job.inputBytes();
                    SSTableInfo merged = mergedTable(nextId++, job.inputs(), t);
                    stack = replace(stack, job, merged, t);
                    transientMax = Math.max(transientMax, ratio(totalBytes + out, flushed));
                    written += out;
                    mergeOutput += out;
                    merges++;
                    for (SSTableInfo input : job.inputs()) {
                        Long fleeting = createdThisStep.remove(input.id());
                        if (fleeting != null) {
                            notChargedByModel += fleeting;
                        }
                    }
                    createdThisStep.put(merged.id(), out);
                    if (done != null) {
                        done.add(job);
                    }
                }
                view = TreeView.stack(stack);
            }
            int count = stack.size();
            countSum += count;
            countMax = Math.max(countMax, count);
            long r = reads.next();
            if (r < 0) {
                throw new IllegalArgumentException("reads '" + reads.describe() + "': flush " + t
                        + " has negative read count " + r);
            }
            probes = addExact(probes, multiplyExact(r, count, "table probes"), "table probes");
            previousReads = r;
            if (listener != null) {
                long mergeCost = written - notChargedByModel;
                listener.accept(new SimulationStep(t, size, List.copyOf(done), view, ratio(written, flushed),
                        ratio(mergeCost, flushed), transientMax, state, r, mergeCost, readCost(probes)));
            }
        }
        // The model's merge cost is the numerator of modelWriteAmplification (one figure, computed once).
        long mergeCost = written - notChargedByModel;
        long readCost = readCost(probes);
        return new SimulationResult(policy.name(), policy.parameters().values(), sizes.describe(), seed, flushes,
                flushed, mergeOutput, ratio(written, flushed), ratio(mergeCost, flushed),
                countSum / flushes, countMax, merges, transientMax, reads.describe(), readCostBytes, mergeCost,
                readCost, addExact(mergeCost, readCost, "total cost"));
    }

    /** The read cost of {@code probes} table probes: probes x read-cost bytes. */
    private long readCost(long probes) {
        return multiplyExact(probes, readCostBytes, "read cost");
    }

    private static long multiplyExact(long a, long b, String what) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw tooLarge(what);
        }
    }

    private static long addExact(long a, long b, String what) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw tooLarge(what);
        }
    }

    private static IllegalArgumentException tooLarge(String what) {
        return new IllegalArgumentException("the " + what + " exceeds 2^63-1: use fewer reads, a smaller read cost or "
                + "fewer flushes");
    }

    /** bytes / flushed, with 0 / 0 taken as 1 (nothing flushed, nothing written). */
    private static double ratio(long bytes, long flushed) {
        return flushed == 0 ? 1.0 : (double) bytes / flushed;
    }

    private static SSTableInfo mergedTable(long id, List<SSTableInfo> inputs, long t) {
        long bytes = 0;
        long entries = 0;
        long tombstones = 0;
        long minSeq = Long.MAX_VALUE;
        long maxSeq = Long.MIN_VALUE;
        long minFlush = Long.MAX_VALUE;
        long maxFlush = Long.MIN_VALUE;
        for (SSTableInfo in : inputs) {
            bytes += in.bytes();
            entries += in.entries();
            tombstones += in.tombstones();
            minSeq = Math.min(minSeq, in.minSequence());
            maxSeq = Math.max(maxSeq, in.maxSequence());
            minFlush = Math.min(minFlush, in.minFlushIndex());
            maxFlush = Math.max(maxFlush, in.maxFlushIndex());
        }
        return SSTableInfo.builder(id).bytes(bytes).entries(entries).tombstones(tombstones)
                .keys(Key.EMPTY, Key.EMPTY).sequences(minSeq, maxSeq).flushes(minFlush, maxFlush)
                .createdMillis(t).build();
    }

    /**
     * The stack with {@code job}'s inputs, which must be contiguous and given newest first, replaced by
     * {@code merged}. O(depth of the inputs).
     */
    private PersistentStack<SortedRun> replace(PersistentStack<SortedRun> stack, MergeJob job, SSTableInfo merged,
            long t) {
        if (job.kind() != MergeKind.REAL || job.outputLevel() != 0) {
            throw new IllegalStateException("policy " + policy.name() + " asked for a " + job.kind()
                    + " into level " + job.outputLevel() + " after flush " + t + "; the stack model runs only real "
                    + "merges into level 0");
        }
        List<SSTableInfo> inputs = job.inputs();
        long firstId = inputs.get(0).id();
        List<SortedRun> above = new ArrayList<>();
        PersistentStack<SortedRun> rest = stack;
        while (!rest.isEmpty() && rest.peek().first().id() != firstId) {
            above.add(rest.peek());
            rest = rest.pop();
        }
        for (SSTableInfo input : inputs) {
            if (rest.isEmpty() || rest.peek().first().id() != input.id()) {
                throw new IllegalStateException("policy " + policy.name() + " asked after flush " + t
                        + " to merge SSTables " + ids(inputs) + ", which are not contiguous in the stack (newest "
                        + "first); stack-based policies must be stable");
            }
            rest = rest.pop();
        }
        rest = rest.push(SortedRun.of(merged));
        for (int i = above.size() - 1; i >= 0; i--) {
            rest = rest.push(above.get(i));
        }
        return rest;
    }

    private static List<Long> ids(List<SSTableInfo> tables) {
        List<Long> ids = new ArrayList<>(tables.size());
        for (SSTableInfo t : tables) {
            ids.add(t.id());
        }
        return ids;
    }
}
