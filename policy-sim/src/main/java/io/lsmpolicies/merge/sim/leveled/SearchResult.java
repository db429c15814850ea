package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.MergeKind;
import java.util.List;

/**
 * The outcome of an {@link OptimalSearch}: the least-written schedule found and how much of the space was seen.
 *
 * @param workload       the workload's description
 * @param ingestedBytes  bytes the workload passed in (one entry per operation)
 * @param flushBytes     bytes the flushes wrote (the same for every schedule)
 * @param writtenBytes   flush plus compaction bytes of the best schedule, or -1 if none was completed
 * @param picks          the best schedule's compactions, in order (empty if none)
 * @param nodes          moves applied during the search
 * @param leaves         schedules played to the end of the workload
 * @param prunedByBound  branches abandoned by the best-total bound
 * @param prunedByState  branches abandoned because their tree had been reached before at no lower cost
 * @param complete       whether the whole space was covered (false: the node limit stopped the search, and the
 *                       result is only an upper bound on the optimum)
 */
public record SearchResult(String workload, long ingestedBytes, long flushBytes, long writtenBytes, List<Pick> picks,
        long nodes, long leaves, long prunedByBound, long prunedByState, boolean complete) {

    /**
     * Copies the picks.
     *
     * @param workload       the workload's description
     * @param ingestedBytes  bytes the workload passed in (one entry per operation)
     * @param flushBytes     bytes the flushes wrote (the same for every schedule)
     * @param writtenBytes   flush plus compaction bytes of the best schedule, or -1 if none was completed
     * @param picks          the best schedule's compactions, in order (empty if none)
     * @param nodes          moves applied during the search
     * @param leaves         schedules played to the end of the workload
     * @param prunedByBound  branches abandoned by the best-total bound
     * @param prunedByState  branches abandoned because their tree had been reached before at no lower cost
     * @param complete       whether the whole space was covered (false: the node limit stopped the search, and the
     *                       result is only an upper bound on the optimum)
     */
    public SearchResult {
        picks = List.copyOf(picks);
    }

    /** {@return whether some schedule was played to the end} */
    public boolean found() {
        return writtenBytes >= 0;
    }

    /** {@return minimum write amplification found: written bytes over ingested bytes (NaN if none was found)} */
    public double writeAmplification() {
        return found() ? (double) writtenBytes / ingestedBytes : Double.NaN;
    }

    /** {@return written bytes over flushed bytes (NaN if none was found)} */
    public double writeAmplificationOverFlushed() {
        return found() ? (double) writtenBytes / flushBytes : Double.NaN;
    }

    /** {@return real compactions of the best schedule} */
    public long compactions() {
        return picks.stream().filter(p -> p.kind() == MergeKind.REAL).count();
    }

    /** {@return trivial moves of the best schedule} */
    public long trivialMoves() {
        return picks.stream().filter(p -> p.kind() == MergeKind.TRIVIAL_MOVE).count();
    }

    /**
     * The picks where the search had a choice, e.g. {@code @7 L1 3/5 [120..480] real 40; ...}.
     *
     * @return the picks in words
     */
    public String choices() {
        StringBuilder b = new StringBuilder();
        for (Pick p : picks) {
            if (p.choice()) {
                b.append(b.length() == 0 ? "" : "; ").append(p);
            }
        }
        return b.toString();
    }
}
