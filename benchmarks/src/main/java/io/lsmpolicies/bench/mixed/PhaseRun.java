package io.lsmpolicies.bench.mixed;

/**
 * One policy's run of the three phases (load, workload C, second load) on one store.
 *
 * @param policy            the policy's specification
 * @param phaseNanos        wall time of each phase, merges settled at its end included
 * @param flushes           flushes installed
 * @param writtenBytes      SSTable bytes flushes and merges wrote (file layer)
 * @param readBytes         SSTable bytes merges and gets read (file layer)
 * @param gets              point reads (workload C)
 * @param modelProbes       the model's probes: for every get, the SSTables a read may probe then (sampled)
 * @param tablesProbed      SSTables whose pages a get actually read (key range and Bloom filter passed), summed
 * @param readCostBytes     the bytes one model probe costs
 */
public record PhaseRun(String policy, long[] phaseNanos, long flushes, long writtenBytes, long readBytes, long gets,
        long modelProbes, long tablesProbed, long readCostBytes) {

    /** File-layer bytes written and read: the run's total I/O. */
    public long ioBytes() {
        return writtenBytes + readBytes;
    }

    /** The cost model's total: bytes written plus every model probe at {@code readCostBytes}. */
    public long modelCost() {
        return writtenBytes + modelProbes * readCostBytes;
    }

    /** Total I/O bytes plus the probes the gets really made, each at {@code readCostBytes}. */
    public long measuredCost() {
        return ioBytes() + tablesProbed * readCostBytes;
    }

    /** Wall time of all three phases, seconds. */
    public double seconds() {
        long sum = 0;
        for (long n : phaseNanos) {
            sum += n;
        }
        return sum / 1e9;
    }
}
