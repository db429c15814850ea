package io.lsmpolicies.bench.grid;

/**
 * What one cell of the grid measured.
 *
 * @param cell       the cell
 * @param status     {@code ok}, or why it has no results ({@code timeout after N s}, {@code failed: ...})
 * @param seconds    wall-clock seconds of the load (YCSB's own run time, cleanup included)
 * @param load       YCSB's report of the load (null if it did not finish)
 * @param reads      YCSB's report of the read phase (null if there was none or it did not finish)
 * @param trace      the load's per-flush metrics (null if it did not finish)
 * @param modelWriteAmplification the simulator's final write amplification on the same flush sizes (NaN when the
 *                   policy is not one the simulator runs)
 * @param optimality how far the policy is from the offline optimum on the same flush sizes
 *                   ({@link ModelFit.Optimality#NONE} when it is not simulated)
 */
public record CellResult(Cell cell, String status, double seconds, YcsbReport load, YcsbReport reads,
        TraceSummary trace, double modelWriteAmplification, ModelFit.Optimality optimality) {

    /** A result without the comparison with the optimum. */
    public CellResult(Cell cell, String status, double seconds, YcsbReport load, YcsbReport reads,
            TraceSummary trace, double modelWriteAmplification) {
        this(cell, status, seconds, load, reads, trace, modelWriteAmplification, ModelFit.Optimality.NONE);
    }

    /** Whether the load finished and its trace was read. */
    public boolean ok() {
        return status.equals("ok");
    }
}
