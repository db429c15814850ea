package io.lsmpolicies.merge.sim;

import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.List;

/**
 * What happened at one flush of a simulation: the flush, the merges it caused (in execution order) and
 * the stack afterwards, with the running metrics.
 *
 * @param flush                     flush index t, from 1
 * @param flushBytes                l_t
 * @param jobs                      the merges run after this flush, in order
 * @param view                      the stack after the flush and its merges (newest first)
 * @param writeAmplification        running engine-convention write amplification
 * @param modelWriteAmplification   running model (Mathieu et al.) write amplification
 * @param transientSpaceAmplification running maximum of the transient space amplification
 * @param state                     the policy's state after the flush and its merges
 * @param reads                     r_t, the reads after this flush and its merges
 * @param mergeCost                 the model's merge cost so far (the numerator of the running model write
 *                                  amplification)
 * @param readCost                  the read cost so far: the sum over steps of r_t x SSTables x read-cost bytes
 */
public record SimulationStep(
        long flush,
        long flushBytes,
        List<MergeJob> jobs,
        TreeView view,
        double writeAmplification,
        double modelWriteAmplification,
        double transientSpaceAmplification,
        PolicyState state,
        long reads,
        long mergeCost,
        long readCost) {

    /** {@return {@code mergeCost + readCost} so far} */
    public long totalCost() {
        return mergeCost + readCost;
    }

    /** {@return number of SSTables after the flush and its merges} */
    public int componentCount() {
        return view.level0Runs().size();
    }

    /**
     * Bytes written by this flush's merges.
     *
     * @return the bytes
     */
    public long mergeBytes() {
        long sum = 0;
        for (MergeJob job : jobs) {
            sum += job.inputBytes();
        }
        return sum;
    }
}
