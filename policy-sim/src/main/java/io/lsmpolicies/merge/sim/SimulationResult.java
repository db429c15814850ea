package io.lsmpolicies.merge.sim;

import java.util.Map;

/**
 * The outcome of one simulation run. Field names are stable: {@code bin/lsm-sim --format json} prints them.
 *
 * @param policy                      policy name
 * @param parameters                  the policy's parameters, defaults included
 * @param flushSize                   the flush-size source, e.g. {@code constant:1}
 * @param seed                        the seed of random flush-size sources
 * @param flushes                     number of flushes simulated
 * @param flushedBytes                sum of the flush sizes
 * @param mergeOutputBytes            bytes written by merges
 * @param writeAmplification          (flushed bytes + merge outputs) / flushed bytes: the engine convention,
 *                                    where a flush is written and then merged (never merging gives 1)
 * @param modelWriteAmplification     Mathieu et al.'s cost: the SSTables new after each step, so a flushed
 *                                    MemTable merged in the same step is not charged its own flush write (nor
 *                                    is the intermediate output of a cascade within one step)
 * @param averageComponentCount       mean over flushes of the SSTable count after the flush and its merges
 * @param maxComponentCount           the largest such count
 * @param merges                      number of merges run
 * @param transientSpaceAmplification the largest (bytes of all SSTables, merge inputs and output together
 *                                    during a merge) / (bytes flushed so far)
 * @param reads                       the read-count source, e.g. {@code constant:0} (reads after each flush)
 * @param readCostBytes               the bytes one read's probe of one SSTable costs
 * @param mergeCost                   the model's merge cost in bytes: the SSTables new after each step (a merge
 *                                    output costs the sum of its inputs, a flush left alone costs its length,
 *                                    a flush merged in its own step is charged once, inside the output); it is
 *                                    {@code modelWriteAmplification x flushedBytes}
 * @param readCost                    the sum over steps t of r_t x (SSTables after step t) x {@code readCostBytes}
 * @param totalCost                   {@code mergeCost + readCost}
 */
public record SimulationResult(
        String policy,
        Map<String, Object> parameters,
        String flushSize,
        long seed,
        long flushes,
        long flushedBytes,
        long mergeOutputBytes,
        double writeAmplification,
        double modelWriteAmplification,
        double averageComponentCount,
        int maxComponentCount,
        long merges,
        double transientSpaceAmplification,
        String reads,
        long readCostBytes,
        long mergeCost,
        long readCost,
        long totalCost) {
}
