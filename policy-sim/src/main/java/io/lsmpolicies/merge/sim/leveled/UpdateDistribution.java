package io.lsmpolicies.merge.sim.leveled;

/** Which existing key an update (or a delete) goes to. */
public enum UpdateDistribution {
    /** Every live key equally likely. */
    UNIFORM,
    /**
     * Zipfian over the keys in insertion order (the first inserted key is the most popular), drawn with
     * {@link ZipfianGenerator}. Inserted keys are random, so the popular keys are scattered over the key space,
     * as in the Zipfian workloads of Wei et al. (EDBT 2025, Sect. 3.1).
     */
    ZIPFIAN
}
