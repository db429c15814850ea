package io.lsmpolicies.lsm;

import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.SSTableInfo;
import java.util.Arrays;

/**
 * The key range a merge job writes into its output level (the union of its inputs' ranges): two running merges
 * whose ranges overlap in one level >= 1 would break that level's sorted run.
 */
record OutputRange(int level, byte[] minKey, byte[] maxKey, MergeJob job) {
    /** Whether both write into the same level >= 1 with overlapping key ranges. */
    boolean conflictsWith(OutputRange o) {
        return level > 0 && level == o.level && Arrays.compareUnsigned(minKey, o.maxKey) <= 0
                && Arrays.compareUnsigned(o.minKey, maxKey) <= 0;
    }

    static OutputRange of(MergeJob job) {
        byte[] min = null;
        byte[] max = null;
        for (SSTableInfo t : job.inputs()) {
            byte[] lo = t.minKey().toByteArray();
            byte[] hi = t.maxKey().toByteArray();
            min = min == null || Arrays.compareUnsigned(lo, min) < 0 ? lo : min;
            max = max == null || Arrays.compareUnsigned(hi, max) > 0 ? hi : max;
        }
        return new OutputRange(job.outputLevel(), min, max, job);
    }
}
