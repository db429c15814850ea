package io.lsmpolicies.merge.policy;

import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The state of {@link AdaptivePolicy}: the reads reported so far, the estimated read rate and flush length, and for
 * every SSTable of the stack the read count when it appeared (so the reads each SSTable has met since are known),
 * its budget and its gap in the schedule tree ({@link BudgetTree}). It holds one entry per SSTable present (never
 * more than the stack), whatever the number of flushes.
 *
 * <p>Entries are kept in stack order (newest first), so that an unchanged stack is recognised, and a changed one
 * (a flush pushed, a run replaced by its merge output) brought up to date, in one pass. A merge output takes the
 * budget and gap the policy planned for it when it asked for the merge ({@code planKey}: the id of the merge's
 * oldest input), or, for a merge it did not plan, the oldest input's budget plus one and its gap.
 *
 * <p>Encoding (version 3): the byte {@code 3}; {@code reads}, {@code lastReads}, {@code stepReads}, {@code freshFlush},
 * {@code decidedFlush}, {@code quietFrom} and {@code flushes} as big-endian 64-bit integers; {@code rate},
 * {@code maxRate}, {@code slowRate}, {@code flushBytes} and {@code tableRate} as 64-bit floats;
 * {@code planKey} (64-bit), {@code planBudget} (float), {@code planGap} (32-bit); the entry count (32-bit); then each
 * entry's SSTable id and read mark (64-bit), budget (float) and gap (32-bit), newest first. Version 1 (reads,
 * lastReads, freshFlush, count, then id and mark per entry) is still read: its entries get budget and gap 0, its
 * rate is its {@code lastReads}. Version 2 (version 3 without {@code slowRate}) is still read: its slow rate is its
 * {@code rate}.
 *
 * @param reads      reads reported since the store's first flush, {@code >= 0}
 * @param lastReads  the reads of the latest report (a flush's, or a report between flushes), {@code >= 0}
 * @param stepReads  reads reported between flushes since the latest flush, {@code >= 0}
 * @param freshFlush the id of the SSTable the latest flush installed, or {@code -1}
 * @param decidedFlush the id of the flush SSTable whose place in the tree the policy has decided, or {@code -1}
 * @param quietFrom  the flush index of the first flush of the current quiet stretch (reads below a set fraction of
 *                   {@code maxRate}), or {@code -1} outside one
 * @param flushes    flushes seen, {@code >= 0}
 * @param rate       estimated reads per flush (a decayed average), {@code >= 0}
 * @param maxRate    the highest {@code rate} so far, {@code >= rate}
 * @param slowRate   estimated reads per flush, a slower decayed average than {@code rate} (a surge is {@code rate}
 *                   well above it), {@code >= 0}
 * @param flushBytes estimated bytes per flush (a decayed average), {@code >= 0}
 * @param tableRate  the read cost of one more SSTable per flush, in flush lengths, that the tree follows: the
 *                   estimate {@code read-cost x rate / flushBytes}, renewed only when it moves by more than a set
 *                   fraction, {@code >= 0}
 * @param planKey    the id of the oldest input of the merge the policy last asked for, or {@code -1}
 * @param planBudget the budget planned for that merge's output
 * @param planGap    the gap planned for that merge's output, {@code >= 0}
 * @param ids        SSTable ids in stack order, newest first, pairwise distinct
 * @param marks      {@code marks[i]}: the value of {@code reads} when SSTable {@code ids[i]} appeared, in
 *                   [0, {@code reads}]
 * @param budgets    {@code budgets[i]}: the budget of SSTable {@code ids[i]}, finite and {@code >= 0}
 * @param gaps       {@code gaps[i]}: the nodes of the tree not yet created between SSTable {@code ids[i]} and the
 *                   next older one (pending merges that will take it), {@code >= 0}
 */
public record ReadLedger(long reads, long lastReads, long stepReads, long freshFlush, long decidedFlush, long quietFrom, long flushes,
        double rate,
        double maxRate, double slowRate, double flushBytes, double tableRate, long planKey, double planBudget, int planGap, long[] ids, long[] marks, double[] budgets,
        int[] gaps) implements PolicyState {
    static final byte VERSION = 3;
    private static final int HEADER_V1 = 1 + 8 + 8 + 8 + 4;
    private static final int HEADER_V2 = 1 + 7 * 8 + 4 * 8 + 8 + 8 + 4 + 4;
    private static final int HEADER = HEADER_V2 + 8;
    private static final int ENTRY = 8 + 8 + 8 + 4;

    /** No flush and no read yet. */
    static final ReadLedger EMPTY = new ReadLedger(0, 0, 0, -1, -1, -1, 0, 0, 0, 0, 0, 0, -1, 0, 0, new long[0], new long[0],
            new double[0], new int[0]);

    /**
     * Copies the arrays and checks them against the counts.
     *
     * @param reads        reads reported since the store's first flush
     * @param lastReads    the reads of the latest report
     * @param stepReads    reads reported between flushes since the latest flush
     * @param freshFlush   the id of the SSTable the latest flush installed, or {@code -1}
     * @param decidedFlush the id of the flush SSTable whose place in the tree is decided, or {@code -1}
     * @param quietFrom    the first flush index of the quiet stretch, or {@code -1}
     * @param flushes      flushes seen
     * @param rate         estimated reads per flush
     * @param maxRate      the highest {@code rate} so far
     * @param slowRate     estimated reads per flush, the slow average
     * @param flushBytes   estimated bytes per flush
     * @param tableRate    the table rate the tree follows
     * @param planKey      the id of the oldest input of the planned merge, or {@code -1}
     * @param planBudget   the budget planned for that merge's output
     * @param planGap      the gap planned for that merge's output
     * @param ids          SSTable ids in stack order, newest first
     * @param marks        the value of {@code reads} when each SSTable appeared
     * @param budgets      each SSTable's budget
     * @param gaps         each SSTable's gap
     * @throws IllegalArgumentException naming the value at fault, if a count, estimate, mark, budget or gap is out of
     *                                  range or the arrays' lengths differ
     */
    public ReadLedger {
        ids = ids.clone();
        marks = marks.clone();
        budgets = budgets.clone();
        gaps = gaps.clone();
        if (reads < 0 || lastReads < 0 || lastReads > reads || stepReads < 0 || stepReads > reads) {
            throw new IllegalArgumentException("need 0 <= lastReads, stepReads <= reads, was lastReads=" + lastReads
                    + ", stepReads=" + stepReads + ", reads=" + reads);
        }
        if (quietFrom < -1 || flushes < 0 || !(rate >= 0) || Double.isInfinite(maxRate) || !(maxRate >= rate) || !(flushBytes >= 0)
                || Double.isInfinite(flushBytes) || !(tableRate >= 0) || Double.isInfinite(tableRate)) {
            throw new IllegalArgumentException("need flushes >= 0, finite maxRate >= rate >= 0, finite flushBytes, "
                    + "tableRate >= 0, was flushes=" + flushes + ", rate=" + rate + ", maxRate=" + maxRate + ", flushBytes=" + flushBytes + ", tableRate="
                    + tableRate);
        }
        if (!(slowRate >= 0) || Double.isInfinite(slowRate)) {
            throw new IllegalArgumentException("need a finite slowRate >= 0, was " + slowRate);
        }
        if (!(planBudget >= 0) || Double.isInfinite(planBudget) || planGap < 0) {
            throw new IllegalArgumentException("need a finite planned budget >= 0 and a planned gap >= 0, was "
                    + planBudget + " and " + planGap);
        }
        if (ids.length != marks.length || ids.length != budgets.length || ids.length != gaps.length) {
            throw new IllegalArgumentException(ids.length + " SSTable ids but " + marks.length + " read marks, "
                    + budgets.length + " budgets and " + gaps.length + " gaps");
        }
        for (int i = 0; i < ids.length; i++) {
            if (marks[i] < 0 || marks[i] > reads) {
                throw new IllegalArgumentException("SSTable " + ids[i] + ": read mark " + marks[i] + " outside [0, "
                        + reads + "]");
            }
            if (!(budgets[i] >= 0) || Double.isInfinite(budgets[i]) || gaps[i] < 0) {
                throw new IllegalArgumentException("SSTable " + ids[i] + ": budget " + budgets[i] + " and gap "
                        + gaps[i] + " must be finite and >= 0");
            }
        }
    }

    /**
     * A ledger of version 2's fields: the slow rate is taken as {@code rate}.
     *
     * @param reads        reads reported since the store's first flush
     * @param lastReads    the reads of the latest report
     * @param stepReads    reads reported between flushes since the latest flush
     * @param freshFlush   the id of the SSTable the latest flush installed, or {@code -1}
     * @param decidedFlush the id of the flush SSTable whose place in the tree is decided, or {@code -1}
     * @param quietFrom    the first flush index of the quiet stretch, or {@code -1}
     * @param flushes      flushes seen
     * @param rate         estimated reads per flush (also taken as the slow average)
     * @param maxRate      the highest {@code rate} so far
     * @param flushBytes   estimated bytes per flush
     * @param tableRate    the table rate the tree follows
     * @param planKey      the id of the oldest input of the planned merge, or {@code -1}
     * @param planBudget   the budget planned for that merge's output
     * @param planGap      the gap planned for that merge's output
     * @param ids          SSTable ids in stack order, newest first
     * @param marks        the value of {@code reads} when each SSTable appeared
     * @param budgets      each SSTable's budget
     * @param gaps         each SSTable's gap
     * @throws IllegalArgumentException as the canonical constructor
     */
    public ReadLedger(long reads, long lastReads, long stepReads, long freshFlush, long decidedFlush, long quietFrom,
            long flushes, double rate, double maxRate, double flushBytes, double tableRate, long planKey,
            double planBudget, int planGap, long[] ids, long[] marks, double[] budgets, int[] gaps) {
        this(reads, lastReads, stepReads, freshFlush, decidedFlush, quietFrom, flushes, rate, maxRate, rate,
                flushBytes, tableRate, planKey, planBudget, planGap, ids, marks, budgets, gaps);
    }

    /**
     * A version-1 ledger: reads and marks only; budgets and gaps 0, the rate taken as {@code lastReads}.
     *
     * @param reads      reads reported since the store's first flush
     * @param lastReads  the reads reported with the latest flush
     * @param freshFlush the id of the SSTable the latest flush installed, or {@code -1}
     * @param ids        SSTable ids in stack order, newest first
     * @param marks      the value of {@code reads} when each SSTable appeared
     * @throws IllegalArgumentException as the canonical constructor
     */
    public ReadLedger(long reads, long lastReads, long freshFlush, long[] ids, long[] marks) {
        this(reads, lastReads, 0, freshFlush, -1, -1, ids.length > 0 ? 1 : 0, lastReads, lastReads, lastReads, 0, 0, -1, 0, 0, ids, marks,
                new double[ids.length], new int[ids.length]);
    }

    /** {@return a copy of the SSTable ids, in stack order, newest first} */
    @Override
    public long[] ids() {
        return ids.clone();
    }

    /** {@return a copy of the read marks, one per SSTable id} */
    @Override
    public long[] marks() {
        return marks.clone();
    }

    /** {@return a copy of the budgets, one per SSTable id} */
    @Override
    public double[] budgets() {
        return budgets.clone();
    }

    /** {@return a copy of the gaps, one per SSTable id} */
    @Override
    public int[] gaps() {
        return gaps.clone();
    }

    /**
     * This ledger with its entries renamed, for a caller that keys SSTables by something else than the ids it shows
     * the policy (the Hyracks adapter, whose ids are positions). The plan and the decided flush follow their entries
     * (an SSTable no entry names is taken as undecided: {@code -1}); everything else is kept.
     *
     * @param newIds the new id of each entry, in this ledger's order
     * @param fresh  the new id of the latest flush's SSTable, or {@code -1}
     * @return the renamed ledger
     * @throws IllegalArgumentException if {@code newIds} has another length than the entries
     */
    public ReadLedger withIds(long[] newIds, long fresh) {
        long key = -1;
        long decided = -1;
        for (int i = 0; i < ids.length && i < newIds.length; i++) {
            if (ids[i] == planKey) {
                key = newIds[i];
            }
            if (ids[i] == decidedFlush) {
                decided = newIds[i];
            }
        }
        return new ReadLedger(reads, lastReads, stepReads, fresh, decided, quietFrom, flushes, rate, maxRate, slowRate, flushBytes, tableRate, key, key == -1 ? 0
                : planBudget, key == -1 ? 0 : planGap, newIds, marks, budgets, gaps);
    }

    /**
     * Reads the SSTable at stack position {@code position} (newest first) has met since it appeared. REQUIRES: this
     * ledger is {@link #reconcile reconciled} with the stack.
     */
    long readsSince(int position) {
        return reads - marks[position];
    }

    double budget(int position) {
        return budgets[position];
    }

    int gap(int position) {
        return gaps[position];
    }

    /** This ledger after {@code more} reads reported between flushes. */
    ReadLedger withReads(long more) {
        return new ReadLedger(Math.addExact(reads, more), more, Math.addExact(stepReads, more), freshFlush, decidedFlush, quietFrom, flushes,
                rate, maxRate, slowRate, flushBytes, tableRate, planKey, planBudget, planGap, ids, marks, budgets, gaps);
    }

    /**
     * This ledger after a flush of {@code bytes} with {@code more} reads reported with it: the reads of the step
     * (these and those reported between flushes since the previous flush) update the rate, {@code bytes} the flush
     * length, both as decayed averages (weights {@code rateWeight} and {@code sizeWeight}; the first step's reads are
     * taken as they are, and the length is the plain mean while that gives the latest flush more weight); the slow
     * rate is another decayed average of the reads, with weight {@code slowWeight}.
     */
    ReadLedger withFlush(long more, long bytes, double rateWeight, double slowWeight, double sizeWeight) {
        long all = Math.addExact(reads, more);
        long step = stepReads + more;
        double newRate = flushes == 0 ? 0 : flushes == 1 ? step : rate + rateWeight * (step - rate);
        double newSlow = flushes == 0 ? 0 : flushes == 1 ? step : slowRate + slowWeight * (step - slowRate);
        double newBytes = flushBytes + Math.max(sizeWeight, 1.0 / (flushes + 1)) * (bytes - flushBytes);
        return new ReadLedger(all, more, 0, freshFlush, decidedFlush, quietFrom, flushes + 1, newRate, Math.max(maxRate, newRate), newSlow, newBytes, tableRate, planKey, planBudget,
                planGap, ids, marks, budgets, gaps);
    }

    /** This ledger with {@code id} as the latest flush's SSTable. */
    ReadLedger withFreshFlush(long id) {
        return new ReadLedger(reads, lastReads, stepReads, id, decidedFlush, quietFrom, flushes, rate, maxRate, slowRate, flushBytes, tableRate, planKey,
                planBudget, planGap, ids, marks, budgets, gaps);
    }

    /** This ledger with the place of the latest flush in the tree decided. */
    ReadLedger withFlushDecided() {
        return new ReadLedger(reads, lastReads, stepReads, freshFlush, freshFlush, quietFrom, flushes, rate, maxRate, slowRate, flushBytes, tableRate,
                planKey, planBudget, planGap, ids, marks, budgets, gaps);
    }

    /** This ledger with {@code from} as the first flush index of the quiet stretch ({@code -1}: none). */
    ReadLedger withQuietFrom(long from) {
        return new ReadLedger(reads, lastReads, stepReads, freshFlush, decidedFlush, from, flushes, rate, maxRate, slowRate,
                flushBytes, tableRate, planKey, planBudget, planGap, ids, marks, budgets, gaps);
    }

    /** This ledger with {@code c} as the table rate the tree follows. */
    ReadLedger withTableRate(double c) {
        return new ReadLedger(reads, lastReads, stepReads, freshFlush, decidedFlush, quietFrom, flushes, rate, maxRate, slowRate, flushBytes, c, planKey,
                planBudget, planGap, ids, marks, budgets, gaps);
    }

    /** This ledger with the output of a merge whose oldest input is SSTable {@code key} planned as given. */
    ReadLedger withPlan(long key, double budget, int gap) {
        return new ReadLedger(reads, lastReads, stepReads, freshFlush, decidedFlush, quietFrom, flushes, rate, maxRate, slowRate, flushBytes, tableRate, key,
                budget, gap, ids, marks, budgets, gaps);
    }

    /**
     * The ledger of exactly the SSTables of {@code stack}, in its order: entries of SSTables gone are dropped, SSTables
     * not yet in it appear now, with the current read count as their mark. A merge output (a new SSTable where
     * entries were dropped) takes the plan if its oldest dropped entry is the plan's key, else that entry's budget
     * plus one and its gap; a new SSTable with no entry dropped below it (a flush) takes {@code leaf}'s answer for the
     * entry below it. Returns {@code this} if nothing changed. O(s) for s SSTables when, as in a stack, the SSTables
     * that stay keep their order and few are new.
     */
    ReadLedger reconcile(List<SortedRun> stack, LeafRule leaf) {
        int n = stack.size();
        if (n == ids.length) {
            int i = 0;
            for (SortedRun run : stack) {
                if (run.first().id() != ids[i]) {
                    break;
                }
                i++;
            }
            if (i == n) {
                return this;
            }
        }
        long[] newIds = new long[n];
        long[] newMarks = new long[n];
        double[] newBudgets = new double[n];
        int[] newGaps = new int[n];
        int[] pendingNew = new int[n]; // positions of new SSTables, and the oldest entry each replaced (or -1)
        int[] replaced = new int[n];
        int newCount = 0;
        int j = 0; // the next entry not yet matched; entries before it are matched or gone
        int i = 0;
        for (SortedRun run : stack) {
            for (SSTableInfo t : run.tables()) {
                if (i == newIds.length) {
                    newIds = Arrays.copyOf(newIds, i * 2 + 1);
                    newMarks = Arrays.copyOf(newMarks, i * 2 + 1);
                    newBudgets = Arrays.copyOf(newBudgets, i * 2 + 1);
                    newGaps = Arrays.copyOf(newGaps, i * 2 + 1);
                    pendingNew = Arrays.copyOf(pendingNew, i * 2 + 1);
                    replaced = Arrays.copyOf(replaced, i * 2 + 1);
                }
                int k = j;
                while (k < ids.length && ids[k] != t.id()) {
                    k++;
                }
                newIds[i] = t.id();
                if (k < ids.length) {
                    newMarks[i] = marks[k];
                    newBudgets[i] = budgets[k];
                    newGaps[i] = gaps[k];
                    if (newCount > 0 && replaced[newCount - 1] == -2) {
                        replaced[newCount - 1] = k > j ? k - 1 : -1; // the previous new one replaced entries j..k-1
                    }
                    j = k + 1;
                } else {
                    newMarks[i] = reads;
                    pendingNew[newCount] = i;
                    replaced[newCount++] = -2; // decided at the next matched entry (or the end)
                }
                i++;
            }
        }
        if (newCount > 0 && replaced[newCount - 1] == -2) {
            replaced[newCount - 1] = j < ids.length ? ids.length - 1 : -1;
        }
        for (int x = newCount - 1; x >= 0; x--) { // oldest first: a flush's leaf depends on the entry below it
            int at = pendingNew[x];
            int old = replaced[x];
            if (old >= 0 && ids[old] == planKey) {
                newBudgets[at] = planBudget;
                newGaps[at] = planGap;
            } else if (old >= 0) {
                newBudgets[at] = budgets[old] + 1;
                newGaps[at] = gaps[old];
            } else if (at + 1 < i) {
                double[] bg = leaf.below(newBudgets[at + 1]);
                newBudgets[at] = bg[0];
                newGaps[at] = (int) bg[1];
            }
        }
        return new ReadLedger(reads, lastReads, stepReads, freshFlush, decidedFlush, quietFrom, flushes, rate, maxRate, slowRate, flushBytes, tableRate, planKey,
                planBudget, planGap, Arrays.copyOf(newIds, i), Arrays.copyOf(newMarks, i), Arrays.copyOf(newBudgets, i),
                Arrays.copyOf(newGaps, i));
    }

    /** Where a new flush goes in the tree, given the budget of the SSTable below it: {budget, gap}. */
    @FunctionalInterface
    interface LeafRule {
        double[] below(double budgetBelow);
    }

    @Override
    public byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(HEADER + ENTRY * ids.length).put(VERSION).putLong(reads)
                .putLong(lastReads).putLong(stepReads).putLong(freshFlush).putLong(decidedFlush).putLong(quietFrom).putLong(flushes).putDouble(rate)
                .putDouble(maxRate).putDouble(slowRate).putDouble(flushBytes).putDouble(tableRate).putLong(planKey).putDouble(planBudget).putInt(planGap).putInt(ids.length);
        for (int i = 0; i < ids.length; i++) {
            out.putLong(ids[i]).putLong(marks[i]).putDouble(budgets[i]).putInt(gaps[i]);
        }
        return out.array();
    }

    /** Reads {@link #encode()}'s output (or a version-1 state) back; errors name {@code policy} and what is wrong. */
    static ReadLedger decode(String policy, byte[] encoded) {
        if (encoded.length < 1) {
            throw new IllegalArgumentException("policy '" + policy + "': read-ledger state is empty");
        }
        byte version = encoded[0];
        if (version != 1 && version != 2 && version != VERSION) {
            throw new IllegalArgumentException("policy '" + policy + "': unknown read-ledger state version " + version);
        }
        int header = version == 1 ? HEADER_V1 : version == 2 ? HEADER_V2 : HEADER;
        int entry = version == 1 ? 16 : ENTRY;
        if (encoded.length < header) {
            throw new IllegalArgumentException("policy '" + policy + "': read-ledger state version " + version
                    + " needs at least " + header + " bytes, was " + encoded.length);
        }
        ByteBuffer in = ByteBuffer.wrap(encoded, 1, encoded.length - 1);
        long reads = in.getLong();
        long last = in.getLong();
        long step = version == 1 ? 0 : in.getLong();
        long fresh = in.getLong();
        long decided = version == 1 ? -1 : in.getLong();
        long quiet = version == 1 ? -1 : in.getLong();
        long flushes = version == 1 ? 0 : in.getLong();
        double rate = version == 1 ? last : in.getDouble();
        double maxRate = version == 1 ? last : in.getDouble();
        double slowRate = version == VERSION ? in.getDouble() : rate;
        double flushBytes = version == 1 ? 0 : in.getDouble();
        double tableRate = version == 1 ? 0 : in.getDouble();
        long planKey = version == 1 ? -1 : in.getLong();
        double planBudget = version == 1 ? 0 : in.getDouble();
        int planGap = version == 1 ? 0 : in.getInt();
        int count = in.getInt();
        if (count < 0 || encoded.length != header + (long) entry * count) {
            throw new IllegalArgumentException("policy '" + policy + "': read-ledger state of " + encoded.length
                    + " bytes cannot hold " + count + " entries (" + (header + (long) entry * count) + " bytes)");
        }
        long[] ids = new long[count];
        long[] marks = new long[count];
        double[] budgets = new double[count];
        int[] gaps = new int[count];
        for (int i = 0; i < count; i++) {
            ids[i] = in.getLong();
            marks[i] = in.getLong();
            if (version != 1) {
                budgets[i] = in.getDouble();
                gaps[i] = in.getInt();
            }
        }
        if (java.util.stream.LongStream.of(ids).distinct().count() != count) {
            throw new IllegalArgumentException("policy '" + policy + "': read-ledger state names an SSTable twice: "
                    + Arrays.toString(ids));
        }
        if (version == 1) {
            flushes = count > 0 ? 1 : 0;
        }
        try {
            return new ReadLedger(reads, last, step, fresh, decided, quiet, flushes, rate, maxRate, slowRate, flushBytes, tableRate, planKey, planBudget,
                    planGap, ids, marks, budgets, gaps);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("policy '" + policy + "': " + e.getMessage(), e);
        }
    }

    /** Casts a state handed back by the engine, naming {@code policy} if it is of another policy. */
    static ReadLedger of(String policy, PolicyState state) {
        if (state instanceof ReadLedger l) {
            return l;
        }
        throw new IllegalArgumentException("policy '" + policy + "' expects a read-ledger state, was " + state);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReadLedger l && reads == l.reads && lastReads == l.lastReads && stepReads == l.stepReads
                && freshFlush == l.freshFlush && decidedFlush == l.decidedFlush && quietFrom == l.quietFrom && flushes == l.flushes && Double.compare(rate, l.rate) == 0 && Double.compare(maxRate, l.maxRate) == 0
                && Double.compare(slowRate, l.slowRate) == 0
                && Double.compare(flushBytes, l.flushBytes) == 0 && Double.compare(tableRate, l.tableRate) == 0
                && planKey == l.planKey
                && Double.compare(planBudget, l.planBudget) == 0 && planGap == l.planGap && Arrays.equals(ids, l.ids)
                && Arrays.equals(marks, l.marks) && Arrays.equals(budgets, l.budgets) && Arrays.equals(gaps, l.gaps);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(reads) + Long.hashCode(flushes) + 7 * Long.hashCode(freshFlush))
                + 31 * Arrays.hashCode(ids) + Arrays.hashCode(marks);
    }

    @Override
    public String toString() {
        return "ReadLedger[reads=" + reads + ", lastReads=" + lastReads + ", stepReads=" + stepReads + ", freshFlush="
                + freshFlush + ", decidedFlush=" + decidedFlush + ", quietFrom=" + quietFrom + ", flushes=" + flushes + ", rate=" + rate + ", maxRate=" + maxRate + ", slowRate=" + slowRate + ", flushBytes=" + flushBytes + ", tableRate=" + tableRate + ", plan="
                + planKey + "->" + planBudget + "/" + planGap + ", ids=" + Arrays.toString(ids) + ", marks="
                + Arrays.toString(marks) + ", budgets=" + Arrays.toString(budgets) + ", gaps=" + Arrays.toString(gaps)
                + "]";
    }
}
