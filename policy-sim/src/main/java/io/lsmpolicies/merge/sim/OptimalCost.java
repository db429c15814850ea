package io.lsmpolicies.merge.sim;

/**
 * The offline optimum of one flush (and read) sequence, or a lower bound on it.
 *
 * @param cost         the minimum cost in bytes when {@code exact}, else a lower bound on it
 * @param exact        whether {@code cost} is the optimum itself
 * @param blocks       how many consecutive blocks of flushes were solved exactly (1 when {@code exact})
 * @param blockFlushes the most flushes in one block (the whole sequence when {@code exact})
 */
public record OptimalCost(long cost, boolean exact, int blocks, int blockFlushes) {

    /** {@return {@code "exact"}, or {@code "lower bound (B blocks of <= N flushes)"}: how to read {@link #cost}} */
    public String describe() {
        return exact ? "exact" : "lower bound (" + blocks + " blocks of <= " + blockFlushes + " flushes)";
    }

    /**
     * {@code policyCost / cost}: the competitive ratio when exact, else an upper bound on it; 1 when both are 0,
     * infinite when only the optimum is 0.
     *
     * @param policyCost a policy's cost on the same workload
     * @return the ratio
     */
    public double ratio(long policyCost) {
        if (cost == 0) {
            return policyCost == 0 ? 1.0 : Double.POSITIVE_INFINITY;
        }
        return (double) policyCost / cost;
    }
}
