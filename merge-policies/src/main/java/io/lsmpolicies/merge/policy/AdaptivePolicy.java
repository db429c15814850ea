package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Adaptive: an online stack policy for the cost model with reads. It knows nothing of the future: only the stack it
 * sees (the real sizes of flushes and merge outputs, so outputs that updates and deletes shrank count at their real
 * size) and the reads it has been told of ({@link io.lsmpolicies.merge.spi.MergePolicy#onFlush(PolicyState, TreeView,
 * long)}, {@link io.lsmpolicies.merge.spi.MergePolicy#onReads}).
 *
 * <p><b>The problem.</b> The cost model with reads of Mathieu, Staelin, Young and Yousefi ("Bigtable merge
 * compaction", arXiv:1407.3008, 2014), as the project states it (docs/policies.md, section 6): after each flush and
 * its merges, every read probes every SSTable, at {@code read-cost} bytes a probe; every SSTable a step creates costs
 * its bytes. The later version of that work (Mathieu, Rajaraman, Young, Yousefi, "Competitive data-structure
 * dynamization", SODA 2021, arXiv:2011.02615) calls this Min-Sum Dynamization and bounds online algorithms for it by
 * their competitive ratio; this policy claims no such bound and is measured against the exact offline optimum
 * instead (docs/policies.md, section 6.3).
 *
 * <p><b>The tree.</b> For a constant rate, with {@code c} the read cost of one more SSTable per flush in flush lengths,
 * the cheapest eager schedule is the tree of {@link BudgetTree}; the policy walks it online. Every SSTable has a budget
 * and a gap (nodes not yet created between it and the SSTable below it). At a flush, if the SSTable below has a right
 * subtree (budget at least {@code c}), the flush is a leaf of it, alone; otherwise the flush becomes the nearest node
 * not yet created above it, merging the SSTables up to the first with a gap, or all of them (the tree grows a root). A
 * merge output's budget is its oldest input's plus one, or that of a complete tree of its size if larger; its size is
 * the number of flushes it holds, or its bytes in mean flush lengths if fewer ({@link #flushesOf}): the tree's nodes
 * are flushes, so a flush 50 times the mean length is one node, not a tree of 50, while an output that updates and
 * deletes shrank is taken at its real size. A flush of at least {@value #LONG_FLUSH} mean lengths becomes the nearest
 * node not yet created above it at once, even where the tree would make it a leaf: left alone, it would be merged with
 * those SSTables later and its bytes written again, where in its own step they cost nothing more (the offline optimum
 * makes long flushes the newest input of a merge and rarely merges them again). The rate is a decayed average of the
 * reads per flush (weight {@value #RATE_WEIGHT}), the length another (weight {@value #SIZE_WEIGHT}), and {@code c} is
 * renewed only when the estimate moves by more than {@value #RATE_SLACK} of it.
 *
 * <p><b>Rent or buy.</b> An SSTable's rent is {@code read-cost} x the reads since it appeared. A merge the tree asks
 * for runs only once its inputs' rent, plus one step at the current rate, reaches {@value #TREE_GATE} of its price
 * (the bytes it writes). Any run whose extra SSTables (all but its oldest) have paid, plus one step at the latest
 * count, at least {@value #BREAK_EVEN} of its price is merged: the break-even rule of ski rental (rent until what was
 * paid equals the price, then buy); the flush of the step is free to merge in its own step; among several, the one
 * that removes the most SSTables. That rule second-guesses the tree, so it applies only during the first
 * {@value #PAYBACK_PERIODS} payback periods ({@code 1 / c} flushes each), during a surge (the rate above
 * {@value #SURGE} times a slow average of it, weight {@value #SLOW_WEIGHT}), and once the step's flush is no longer
 * alone (the tree merged it, or reads came between flushes): not while the tree leaves the flush alone in a steady
 * phase.
 *
 * <p><b>Low rates.</b> Below a table rate {@code c} of {@value #TIERED_BELOW} (about two reads a flush of 1 MB at
 * 4 KB a probe), outside quiet stretches and surges, Tiered's rule replaces the tree and the break-even rule: with
 * size ratio B, the power of two nearest {@value #TIERED_SCALE} / sqrt(c), the oldest B SSTables of a run of at
 * least B adjacent SSTables of the same tier (floor(log_B) of their flush counts, or of their bytes in typical flush
 * lengths if more; the typical length is the median bytes per flush of the stack) are merged. At such a rate a merge
 * pays back only over hundreds of flushes; the tree keeps hundreds of single flushes and then merges the whole stack,
 * which rarely pays back before a trace ends, where merges of B similar SSTables cost little and start paying at
 * once. Similar in bytes, too: a merge pays back over its bytes over the SSTables it removes, so a flush of a hundred
 * typical lengths, counted as one flush, would be written with B - 1 short ones for a saving that one read a flush
 * repays only over tens of thousands of steps. B is taken from the table rate in use, which moves only by more than
 * {@value #RATE_SLACK}, and is a power of two so that such moves rarely change it; a merge runs only if it pays back
 * within {@value #PAYBACK_PERIODS} payback periods of a typical flush or within as many steps as flushes seen, which
 * stops the merges of SSTables built at a smaller B when B does jump.
 *
 * <p><b>Bounds.</b> In a quiet stretch (the rate below {@value #QUIET} of the highest it has been, from a step without
 * reads, or one whose rate would give the low-rate rule a size ratio above {@code quiet-k}, until the rate is back
 * above that fraction) the SSTables of the stretch's flushes follow MinLatency's schedule with {@code k = quiet-k}: a
 * hedge against the first step of a surge of reads, which is decided before it is seen. When the stack holds more
 * than {@code max-k} SSTables, the cheapest run that brings it back to {@code max-k} is merged.
 *
 * <p>Parameters: {@code max-k} (1..1,000,000, default {@value #DEFAULT_MAX_K}), {@code quiet-k} (1..1,000,000,
 * default {@value #DEFAULT_QUIET_K}) and {@code read-cost} (bytes one read pays to probe one SSTable, 0..2^30, default
 * 4096, the simulator's default; set it to what a probe costs in the store, e.g. one data block). One merge at a
 * time: while any SSTable is compacting, it returns no job. State: a {@link ReadLedger}.
 */
public final class AdaptivePolicy extends AbstractStackPolicy {
    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "adaptive";
    /** Default bound on the stack when reads do not force merges. */
    static final int DEFAULT_MAX_K = 1000;
    /** Default bound on the stack in a quiet stretch (reads below {@link #QUIET} of the highest rate seen). */
    static final int DEFAULT_QUIET_K = 32;
    /**
     * A stretch is quiet when the read rate is below this fraction of the highest rate seen; it starts at a step
     * without reads (or with so few that the low-rate rule's size ratio exceeds {@code quiet-k}).
     */
    static final double QUIET = 0.01;
    /** The tree's merge runs once the rent its inputs have paid, plus one step, reaches this fraction of its price. */
    static final double TREE_GATE = 0.5;
    /** Any run is merged once its rent reaches this fraction of its price (plain break-even). */
    static final double BREAK_EVEN = 1.0;
    /** Weight of the latest step in the decayed average of the reads per flush (a memory of about 8 flushes). */
    static final double RATE_WEIGHT = 1.0 / 8;
    /** Weight of the latest step in the slow decayed average of the reads per flush (about 64 flushes). */
    static final double SLOW_WEIGHT = 1.0 / 64;
    /** A surge: the read rate above this multiple of its slow average (the break-even rule is then on). */
    static final double SURGE = 1.5;
    /**
     * The break-even rule is on while fewer flushes than this many payback periods (1 / c) have been seen; the low-rate
     * rule buys a merge that pays back within this many payback periods of a typical flush.
     */
    static final double PAYBACK_PERIODS = 4;
    /** Weight of the latest flush in the decayed average of the flush length (about 20 flushes). */
    static final double SIZE_WEIGHT = 1.0 / 20;
    /** The tree's table rate is renewed when the estimate moves by more than this fraction (or from or to 0). */
    static final double RATE_SLACK = 0.2;
    /** A cap on the table rate (flush lengths a probe per step), far above any rate where one SSTable is kept. */
    static final double MAX_TABLE_RATE = 1e12;
    /** Below this table rate (outside quiet stretches and surges) Tiered's rule replaces the tree and break-even. */
    static final double TIERED_BELOW = 0.01;
    /** Tiered's size ratio is the power of two nearest this constant over the square root of the table rate. */
    static final double TIERED_SCALE = 2;
    /** A flush of at least this many mean flush lengths becomes the tree's next node at once (merges in its step). */
    static final double LONG_FLUSH = 2;

    private final int maxK;
    private final int quietK;
    private final long readCost;

    AdaptivePolicy(PolicyParameters parameters) {
        super(NAME, parameters);
        this.maxK = parameters.getInt(AdaptivePolicyFactory.MAX_K.name());
        this.quietK = parameters.getInt(AdaptivePolicyFactory.QUIET_K.name());
        this.readCost = parameters.getLong(AdaptivePolicyFactory.READ_COST.name());
    }

    @Override
    public PolicyState initialState() {
        return ReadLedger.EMPTY;
    }

    @Override
    public PolicyState decodeState(byte[] encoded) {
        return ReadLedger.decode(NAME, encoded);
    }

    /** A flush with no read reported: the same as {@code onFlush(state, view, 0)}. */
    @Override
    public PolicyState onFlush(PolicyState state, TreeView view) {
        return onFlush(state, view, 0);
    }

    @Override
    public PolicyState onFlush(PolicyState state, TreeView view, long reads) {
        if (reads < 0) {
            throw new IllegalArgumentException("policy '" + NAME + "': the read count must be >= 0, was " + reads);
        }
        List<SortedRun> stack = StackPolicies.stack(NAME, view);
        if (stack.isEmpty()) {
            return ReadLedger.of(NAME, state).withReads(reads);
        }
        ReadLedger ledger = ReadLedger.of(NAME, state).withFlush(reads, stack.get(0).bytes(), RATE_WEIGHT,
                SLOW_WEIGHT, SIZE_WEIGHT);
        double estimate = ledger.flushBytes() > 0
                ? Math.min(MAX_TABLE_RATE, readCost * ledger.rate() / ledger.flushBytes()) : 0;
        double used = ledger.tableRate();
        if (used == 0 || estimate == 0 || Math.abs(estimate / used - 1) > RATE_SLACK) {
            ledger = ledger.withTableRate(estimate);
        }
        boolean quiet = ledger.maxRate() > 0 && ledger.rate() < QUIET * ledger.maxRate();
        // A stretch turns quiet when reads have stopped (a step without any), or are so few that the low-rate rule
        // would let tiers grow wider than quiet-k; reads that only fell stay with the low-rate rule or the tree.
        if (quiet && ledger.quietFrom() < 0 && reads > 0 && tieredRatio(ledger.tableRate()) <= quietK) {
            quiet = false;
        }
        if (quiet && ledger.quietFrom() < 0) {
            ledger = ledger.withQuietFrom(stack.get(0).first().minFlushIndex());
        } else if (!quiet && ledger.quietFrom() >= 0) {
            ledger = ledger.withQuietFrom(-1);
        }
        return reconciled(ledger, stack).withFreshFlush(stack.get(0).first().id());
    }

    /**
     * Reads between flushes (a read-only phase): they add to every SSTable's rent and count in the next flush's step
     * for the read rate; the SSTable of the last flush is no longer this step's (merging it now costs its bytes).
     */
    @Override
    public PolicyState onReads(PolicyState state, TreeView view, long reads) {
        if (reads < 1) {
            throw new IllegalArgumentException("policy '" + NAME + "': the read count must be >= 1, was " + reads);
        }
        List<SortedRun> stack = StackPolicies.stack(NAME, view);
        return reconciled(ReadLedger.of(NAME, state).withReads(reads), stack).withFreshFlush(-1);
    }

    /** The ledger of {@code stack}; a new flush takes the leftmost leaf of the right subtree of the SSTable below. */
    private ReadLedger reconciled(ReadLedger ledger, List<SortedRun> stack) {
        double c = ledger.tableRate();
        return ledger.reconcile(stack, below -> leaf(below, c));
    }

    /** The budget and gap of a flush whose SSTable below has {@code below}, at table rate {@code c}. */
    static double[] leaf(double below, double c) {
        double right = below - c;
        if (right < -BudgetTree.EPSILON) {
            return new double[] {0, 0}; // no right subtree: the tree merges the flush at once (or a gate delays it)
        }
        double gap = Math.max(0, Math.floor(right));
        return new double[] {Math.max(0, right - gap), gap};
    }

    @Override
    public Decision decide(TreeView view, PolicyState state) {
        List<SortedRun> stack = StackPolicies.stack(NAME, view);
        ReadLedger ledger = reconciled(ReadLedger.of(NAME, state), stack);
        int n = stack.size();
        if (n < 2 || view.anyCompacting()) {
            return Decision.none(ledger);
        }
        long[] size = StackPolicies.sizes(stack);
        double c = ledger.tableRate();
        boolean fresh = stack.get(0).first().id() == ledger.freshFlush();
        // 1. The tree: the flush of this step goes to the right subtree of the SSTable below it if that has one;
        // otherwise that subtree is complete, and the flush becomes the nearest node not yet created above it,
        // merging everything up to the SSTable below that node's gap (or everything: the tree grows a root).
        // The tree places each flush once, at the first decision after it (not again after other merges).
        boolean treeTurn = fresh && ledger.decidedFlush() != ledger.freshFlush();
        if (treeTurn) {
            ledger = ledger.withFlushDecided();
        }
        // 0. A low rate: SSTables of similar flush counts and bytes merge B at a time (Tiered), not the tree's runs.
        if (c > 0 && c < TIERED_BELOW && ledger.quietFrom() < 0 && ledger.rate() <= SURGE * ledger.slowRate()) {
            Decision tiered = tiered(stack, ledger, c);
            return tiered != null ? tiered : boundedByMaxK(stack, ledger, c, StackPolicies.sizes(stack));
        }
        // A long flush (LONG_FLUSH mean lengths or more) becomes that node at once, even where the tree would leave it
        // a leaf: left alone, it would be merged with the same SSTables later and its bytes written again, where in
        // its own step they cost nothing more.
        boolean longFlush = size[0] >= LONG_FLUSH * ledger.flushBytes();
        if (treeTurn && (longFlush || ledger.budget(1) - c < -BudgetTree.EPSILON)) {
            int from = n - 1;
            int gap = 0;
            for (int q = 1; q < n; q++) {
                if (ledger.gap(q) >= 1) {
                    from = q;
                    gap = ledger.gap(q) - 1;
                    break;
                }
            }
            double price = 0;
            double rent = 0;
            double all = size[0];
            for (int q = 1; q <= from; q++) {
                price += size[q];
                all += size[q];
                rent += (double) readCost * ledger.readsSince(q) + c * ledger.flushBytes();
            }
            if (rent >= TREE_GATE * price) {
                double budget = Math.max(ledger.budget(from) + 1, BudgetTree.budgetOfSize(
                        flushesOf(stack, 0, from, all, ledger.flushBytes()), c));
                long key = stack.get(from).first().id();
                return Decision.of(StackPolicies.merge(stack, 0, from, "tree: the subtree above is complete; rent "
                        + (long) rent + " bytes of probes >= " + TREE_GATE + " x price " + (long) price + " bytes"),
                        ledger.withPlan(key, budget, gap));
            }
        }
        // 2. Break-even: any run whose rent has reached its price.
        if (fresh) {
            size[0] = 0; // merging the flush of this step writes nothing the flush alone would not
        }
        double[] rentOf = new double[n];
        for (int i = 0; i < n; i++) {
            rentOf[i] = (double) readCost * ledger.readsSince(i);
        }
        double nextStep = (double) readCost * ledger.lastReads();
        double[] bytes = new double[n + 1];
        double[] rents = new double[n + 1];
        for (int i = 0; i < n; i++) {
            bytes[i + 1] = bytes[i] + size[i];
            rents[i + 1] = rents[i] + rentOf[i];
        }
        int bestA = -1;
        int bestB = -1;
        double bestSurplus = 0;
        // Without rent (nothing read yet, or a zero read cost) no run qualifies: skip the O(n^2) scan, which would
        // otherwise run at every flush of a read-free workload with up to max-k SSTables.
        // The break-even rule second-guesses the tree only while the tree's plan is not yet to be trusted (fewer than
        // PAYBACK_PERIODS payback periods, 1 / c flushes each, seen), after a surge of reads, and once the step's flush
        // is no longer alone (the tree merged it, or reads came between flushes). When the tree leaves the flush
        // alone in a steady phase, it has priced the stack at the current rate, and break-even waits.
        boolean secondGuess = !fresh || ledger.flushes() * c < PAYBACK_PERIODS
                || ledger.rate() > SURGE * ledger.slowRate();
        boolean anyRent = secondGuess && (nextStep > 0 || rents[n] > 0);
        for (int a = 0; anyRent && a < n - 1; a++) {
            for (int b = a + 1; b < n; b++) {
                double price = bytes[b + 1] - bytes[a];
                double paid = rents[b] - rents[a] + (b - a) * nextStep;
                if (paid > 0 && paid >= BREAK_EVEN * price) {
                    double surplus = paid - BREAK_EVEN * price;
                    if (b - a > bestB - bestA || (b - a == bestB - bestA && surplus > bestSurplus)) {
                        bestA = a;
                        bestB = b;
                        bestSurplus = surplus;
                    }
                }
            }
        }
        if (bestA >= 0) {
            double all = 0;
            for (int i = bestA; i <= bestB; i++) {
                all += stack.get(i).bytes();
            }
            double budget = Math.max(ledger.budget(bestB) + 1, BudgetTree.budgetOfSize(
                    flushesOf(stack, bestA, bestB, all, ledger.flushBytes()), c));
            return Decision.of(StackPolicies.merge(stack, bestA, bestB, "rent " + (long) (rents[bestB] - rents[bestA]
                    + (bestB - bestA) * nextStep) + " bytes of probes >= price " + (long) (bytes[bestB + 1]
                    - bytes[bestA]) + " bytes"), ledger.withPlan(stack.get(bestB).first().id(), budget,
                    ledger.gap(bestB)));
        }
        // 3. A quiet stretch: the SSTables of its flushes follow MinLatency's schedule with k = quiet-k.
        if (ledger.quietFrom() >= 0) {
            int quietTables = 0;
            while (quietTables < n && stack.get(quietTables).first().minFlushIndex() >= ledger.quietFrom()) {
                quietTables++;
            }
            long q = stack.get(0).first().maxFlushIndex() - ledger.quietFrom() + 1;
            int keep = q >= 1 ? MinLatencyPolicy.target(quietK, q) : quietTables;
            if (quietTables > keep) {
                return bounded(stack, ledger, c, quietTables - keep, "quiet stretch, flush " + q + ": MinLatency with "
                        + "k = quiet-k " + quietK + " keeps " + keep + " of its SSTables");
            }
        }
        // 4. max-k: the cheapest run that brings the stack back to it.
        return boundedByMaxK(stack, ledger, c, size);
    }

    /**
     * Tiered's rule at table rate {@code c}: with size ratio B, the power of two nearest {@value #TIERED_SCALE} /
     * sqrt(c) (at least 2), an SSTable of f flushes ({@link #tierSize}: its flushes, or its bytes in typical flush
     * lengths if more) is in tier floor(log_B f), and the oldest B SSTables of the first run of at least B adjacent
     * SSTables in one tier whose merge {@link #paysBack pays back} are merged; {@code null} when there is none.
     */
    private static Decision tiered(List<SortedRun> stack, ReadLedger ledger, double c) {
        int ratio = tieredRatio(c);
        int n = stack.size();
        double typical = typicalFlushBytes(stack);
        int[] tiers = new int[n];
        for (int i = 0; i < n; i++) {
            long span = tierSize(stack.get(i), typical);
            while (span >= ratio) {
                span /= ratio;
                tiers[i]++;
            }
        }
        for (int start = 0; start < n; ) {
            int end = start;
            while (end + 1 < n && tiers[end + 1] == tiers[start]) {
                end++;
            }
            if (end - start + 1 >= ratio && paysBack(stack, end - ratio + 1, end, ledger, c, typical)) {
                return bounded(stack, ledger, c, end - ratio + 1, end, "low read rate (" + c + " flush lengths a "
                        + "probe per step): Tiered with size ratio " + ratio + ", tier " + tiers[start] + " holds "
                        + (end - start + 1) + " SSTables");
            }
            start = end + 1;
        }
        return null;
    }

    /**
     * Whether the low-rate rule's merge of stack positions {@code from..to} pays back soon enough to buy: within
     * {@value #PAYBACK_PERIODS} payback periods of a {@code typical} flush (its price per SSTable removed at most that
     * many typical lengths, as for B flushes of similar length), or within as many steps as flushes have been seen
     * (the future taken to be as long as the past). A payback is the price over the probes saved a step, (SSTables
     * removed) x the read cost a step, which is {@code c} x the mean flush length. This stops the merges that a jump of
     * B alone would make: a long flush moves the mean length, {@code c} falls, B doubles for a few dozen flushes, and
     * the SSTables of B flushes built at the old B are tier 0 again (seed 3000 of the Pareto family at one read a
     * flush: 64 SSTables, 554.6 MB, which pay back over about 2,100 steps, at flush 405).
     */
    static boolean paysBack(List<SortedRun> stack, int from, int to, ReadLedger ledger, double c, double typical) {
        double price = 0;
        for (int i = from; i <= to; i++) {
            price += stack.get(i).bytes();
        }
        double perRemoved = price / Math.max(1, to - from);
        double readBytesPerStep = c * ledger.flushBytes();
        return perRemoved <= PAYBACK_PERIODS * typical
                || readBytesPerStep > 0 && perRemoved / readBytesPerStep <= ledger.flushes();
    }

    /**
     * The size of an SSTable for its tier under the low-rate rule: the flushes it holds, or its bytes in
     * {@code typical} flush lengths if more (flushes alone when {@code typical} is not positive). At a low rate a merge
     * pays back over (its bytes) / (SSTables it removes x c) steps, so Tiered's rule pays back soon only if its inputs
     * are alike in bytes: counted as one flush, a flush of 128 MB among flushes of 1 MB would be merged with B - 1 of
     * them (128 MB more written to remove one more SSTable, which one read a flush pays back over 31,000 steps).
     * Bytes in the typical length put it with SSTables of as many bytes, where the optimum leaves it alone. The
     * typical length is the median's (not the mean, which that very flush moves several times over).
     */
    static long tierSize(SortedRun run, double typical) {
        long flushes = run.first().flushSpan();
        return typical > 0 ? Math.max(flushes, (long) (run.bytes() / typical)) : flushes;
    }

    /**
     * The typical flush length in the stack: the median of the SSTables' bytes per flush, each SSTable weighted by the
     * flushes it holds (robust to the few very long flushes of heavy-tailed lengths, unlike the mean).
     */
    static double typicalFlushBytes(List<SortedRun> stack) {
        int n = stack.size();
        double[][] perFlush = new double[n][];
        long total = 0;
        for (int i = 0; i < n; i++) {
            long flushes = stack.get(i).first().flushSpan();
            perFlush[i] = new double[] {(double) stack.get(i).bytes() / flushes, flushes};
            total += flushes;
        }
        Arrays.sort(perFlush, Comparator.comparingDouble(p -> p[0]));
        long seen = 0;
        for (double[] p : perFlush) {
            seen += (long) p[1];
            if (2 * seen >= total) {
                return p[0];
            }
        }
        return 0;
    }

    /** Tiered's size ratio at table rate {@code c}: the power of two nearest TIERED_SCALE / sqrt(c), at least 2. */
    static int tieredRatio(double c) {
        long power = Math.round(Math.log(TIERED_SCALE / Math.sqrt(c)) / Math.log(2));
        return (int) Math.max(2, 1L << Math.min(30, Math.max(0, power)));
    }

    /** When the stack holds more than max-k SSTables, the cheapest run that brings it back to max-k. */
    private Decision boundedByMaxK(List<SortedRun> stack, ReadLedger ledger, double c, long[] size) {
        int n = stack.size();
        if (n <= maxK) {
            return Decision.none(ledger);
        }
        double[] bytes = new double[n + 1];
        for (int i = 0; i < n; i++) {
            bytes[i + 1] = bytes[i] + size[i];
        }
        int width = n - maxK + 1;
        int cheapest = 0;
        for (int a = 1; a + width <= n; a++) {
            if (bytes[a + width] - bytes[a] < bytes[cheapest + width] - bytes[cheapest]) {
                cheapest = a;
            }
        }
        return bounded(stack, ledger, c, cheapest, cheapest + width - 1, n + " SSTables > max-k " + maxK
                + ": the cheapest run that leaves " + maxK);
    }

    private static Decision bounded(List<SortedRun> stack, ReadLedger ledger, double c, int oldest, String reason) {
        return bounded(stack, ledger, c, 0, oldest, reason);
    }

    /** Merges positions {@code from..oldest}; the output's budget is its oldest input's plus one (or its size's). */
    private static Decision bounded(List<SortedRun> stack, ReadLedger ledger, double c, int from, int oldest,
            String reason) {
        double all = 0;
        for (int i = from; i <= oldest; i++) {
            all += stack.get(i).bytes();
        }
        double budget = Math.max(ledger.budget(oldest) + 1,
                BudgetTree.budgetOfSize(flushesOf(stack, from, oldest, all, ledger.flushBytes()), c));
        return Decision.of(StackPolicies.merge(stack, from, oldest, reason),
                ledger.withPlan(stack.get(oldest).first().id(), budget, ledger.gap(oldest)));
    }

    /**
     * The size, in flushes, of the merge of stack positions {@code from..to} ({@code bytes} in all), for the budget of
     * a complete tree of that size: the flushes it holds, or its bytes in mean flush lengths ({@code meanFlush}) if
     * fewer. The tree's nodes are flushes: a flush 50 times the mean length is one node, and counting it as a complete
     * tree of 50 would give every output that holds it the budget of a tree of dozens of flushes, whose right subtree
     * the tree then fills with dozens of SSTables above it before merging them, and it, again. An output that updates
     * and deletes shrank is taken at its real size.
     */
    static double flushesOf(List<SortedRun> stack, int from, int to, double bytes, double meanFlush) {
        long flushes = 0;
        for (int i = from; i <= to; i++) {
            flushes += stack.get(i).first().flushSpan();
        }
        return Math.min(flushes, bytes / meanFlush);
    }

    @Override
    public boolean isMergeLagging(TreeView view, PolicyState state) {
        return StackPolicies.stack(NAME, view).size() > maxK;
    }
}
