package io.lsmpolicies.lsm.advise;

import io.lsmpolicies.lsm.manifest.ComponentSet;
import io.lsmpolicies.lsm.manifest.Manifest;
import io.lsmpolicies.lsm.manifest.PolicyRecord;
import io.lsmpolicies.lsm.manifest.Recovered;
import io.lsmpolicies.lsm.manifest.TableRecord;
import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.policy.ReadLedger;
import io.lsmpolicies.merge.sim.AdvisorWorkload;
import io.lsmpolicies.merge.spi.PolicyState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The workload a store has seen, as far as it records it, read without changing the store: the manifest is
 * replayed ({@link Manifest#recover}, which reads the directory and never writes, deletes or locks), nothing is
 * opened for writing.
 *
 * <p>Flush lengths: every live SSTable records the interval of flushes it holds ({@code minFlushIndex ..
 * maxFlushIndex}) and its data bytes; a table's bytes are spread evenly over its flushes. That is exact for a
 * table that holds one flush; for a merged table it is an estimate, and smaller than what was flushed when the
 * merge dropped overwritten or deleted entries. Flushes no live table holds (all their entries dropped) have
 * length 0.
 *
 * <p>Read counts: the engine counts reads in memory only; the one place a store records them is the
 * {@code adaptive} policy's state (its read ledger: the reads reported with each flush, and for every SSTable
 * the count when it appeared). With that state, the reads from SSTable i's appearance to the next SSTable's (in
 * age order; for the oldest, from the start) are spread evenly over SSTable i's flushes: exact when each holds one
 * flush, since they are then the reads after that flush. When the ledger has no mark for some live SSTable (a
 * merge was installed after the policy's last decision), its total is spread evenly over the flushes. Without a
 * ledger the read counts are 0. The workload's notes say which case applies.
 */
public final class StoreWorkload {
    private StoreWorkload() {
    }

    /**
     * Reads the store in {@code dir}.
     *
     * @throws java.nio.file.NoSuchFileException if {@code dir} holds no store
     * @throws IOException                       if the manifest cannot be read or is damaged
     * @throws IllegalArgumentException          if the store holds no flush yet
     */
    public static AdvisorWorkload read(Path dir, long readCostBytes) throws IOException {
        Recovered recovered = Manifest.recover(dir);
        ComponentSet set = recovered.set();
        List<TableRecord> tables = new ArrayList<>();
        for (List<TableRecord> level : set.levels()) {
            tables.addAll(level);
        }
        long flushes = 0;
        for (TableRecord t : tables) {
            flushes = Math.max(flushes, t.maxFlushIndex());
        }
        if (flushes == 0) {
            throw new IllegalArgumentException("store " + dir + " holds no flushed SSTable yet: nothing to advise on");
        }
        if (flushes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("store " + dir + " has " + flushes + " flushes, too many to model");
        }
        int n = (int) flushes;
        double[] lengths = new double[n];
        int merged = 0;
        for (TableRecord t : tables) {
            spread(lengths, t, t.dataBytes());
            if (t.maxFlushIndex() > t.minFlushIndex()) {
                merged += (int) (t.maxFlushIndex() - t.minFlushIndex() + 1);
            }
        }
        StringBuilder notes = new StringBuilder();
        notes.append(tables.size()).append(" live SSTables");
        if (merged > 0) {
            notes.append("; flush lengths estimated: ").append(merged).append(" of ").append(n)
                    .append(" flushes are in merged SSTables, whose bytes are spread evenly over their flushes");
        }
        double[] reads = new double[n];
        Optional<PolicyRecord> policy = PolicyRecord.recordedIn(set);
        Optional<ReadLedger> ledger = policy.flatMap(StoreWorkload::ledger);
        String policyName = policy.map(PolicyRecord::name).orElse("unknown");
        if (ledger.isPresent() && readsFromLedger(ledger.get(), set.level(0), reads)) {
            notes.append("; read counts from the adaptive policy's read ledger (").append(ledger.get().reads())
                    .append(" reads reported so far; those since the last flush are counted in memory only)");
        } else if (ledger.isPresent()) {
            java.util.Arrays.fill(reads, (double) ledger.get().reads() / n);
            notes.append("; read counts estimated: the adaptive policy's read ledger reports ")
                    .append(ledger.get().reads()).append(" reads, spread evenly over the flushes (it has no mark"
                            + " for every live SSTable: a merge was installed after its last decision)");
        } else {
            notes.append("; the store's policy (").append(policyName).append(") records no read counts (only"
                    + " adaptive keeps them, in its state): reads taken as 0 unless --reads gives them");
        }
        return new AdvisorWorkload(round(lengths), round(reads), readCostBytes, "store " + dir, notes.toString());
    }

    private static Optional<ReadLedger> ledger(PolicyRecord record) {
        if (!record.name().equals("adaptive")) {
            return Optional.empty();
        }
        try {
            PolicyState s = MergePolicies.create("adaptive", Map.of()).decodeState(record.state());
            return s instanceof ReadLedger l ? Optional.of(l) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether every level-0 table has a mark in the ledger; if so, fills {@code reads}. */
    private static boolean readsFromLedger(ReadLedger ledger, List<TableRecord> level0, double[] reads) {
        long[] ids = ledger.ids();
        long[] marks = ledger.marks();
        Map<Long, Long> markOf = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            markOf.put(ids[i], marks[i]);
        }
        List<TableRecord> oldestFirst = new ArrayList<>(level0);
        oldestFirst.sort(Comparator.comparingLong(TableRecord::minFlushIndex));
        if (oldestFirst.isEmpty()) {
            return false;
        }
        for (TableRecord t : oldestFirst) {
            if (!markOf.containsKey(t.fileNumber())) {
                return false;
            }
        }
        for (int i = 0; i < oldestFirst.size(); i++) {
            TableRecord t = oldestFirst.get(i);
            long from = i == 0 ? 0 : markOf.get(t.fileNumber());
            long to = i + 1 < oldestFirst.size() ? markOf.get(oldestFirst.get(i + 1).fileNumber()) : ledger.reads();
            spread(reads, t, Math.max(0, to - from));
        }
        return true;
    }

    private static void spread(double[] values, TableRecord t, long amount) {
        long first = Math.max(1, t.minFlushIndex());
        long last = Math.min(values.length, t.maxFlushIndex());
        if (last < first) {
            return;
        }
        double each = (double) amount / (last - first + 1);
        for (long f = first; f <= last; f++) {
            values[(int) f - 1] += each;
        }
    }

    /** Rounds to integers keeping the running sum: the rounded values add up to the rounded total. */
    private static long[] round(double[] values) {
        long[] out = new long[values.length];
        double sum = 0;
        long emitted = 0;
        for (int i = 0; i < values.length; i++) {
            sum += values[i];
            long target = Math.round(sum);
            out[i] = Math.max(0, target - emitted);
            emitted += out[i];
        }
        return out;
    }
}
