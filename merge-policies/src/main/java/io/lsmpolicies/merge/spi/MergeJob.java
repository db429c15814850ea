package io.lsmpolicies.merge.spi;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A policy's description of one merge: what to merge, where the output goes, how it is cut, what kind
 * of merge it is, and why. The engine (or simulator) executes it; the policy never does.
 *
 * @param inputs      the exact input SSTables; for a stack-based policy newest first, contiguous in the stack
 * @param outputLevel the level that receives the output
 * @param cut         how the output is cut into SSTables
 * @param kind        real merge, trivial move or virtual merge
 * @param reason      a short human-readable reason, for logs and traces
 */
public record MergeJob(List<SSTableInfo> inputs, int outputLevel, OutputCut cut, MergeKind kind, String reason) {

    /**
     * Copies the inputs and checks the job.
     *
     * @param inputs      the exact input SSTables
     * @param outputLevel the level that receives the output
     * @param cut         how the output is cut into SSTables
     * @param kind        real merge, trivial move or virtual merge
     * @param reason      a short human-readable reason
     * @throws IllegalArgumentException saying what is wrong, if the job is malformed
     */
    public MergeJob {
        inputs = List.copyOf(inputs);
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("a merge job needs at least one input");
        }
        Set<Long> ids = new HashSet<>();
        for (SSTableInfo t : inputs) {
            if (!ids.add(t.id())) {
                throw new IllegalArgumentException("SSTable " + t.id() + " appears twice in a merge job's inputs");
            }
        }
        if (outputLevel < 0) {
            throw new IllegalArgumentException("outputLevel must be >= 0, was " + outputLevel);
        }
        if (cut == null || kind == null || reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("cut, kind and a non-blank reason are required");
        }
        if (kind == MergeKind.TRIVIAL_MOVE && inputs.size() != 1) {
            throw new IllegalArgumentException("a trivial move has exactly one input, had " + inputs.size());
        }
    }

    /**
     * {@return a real merge of {@code inputs} into one SSTable of level 0: the stack-based policies' only job}
     *
     * @param inputs the SSTables to merge, newest first, contiguous in the stack
     * @param reason a short human-readable reason
     */
    public static MergeJob stackMerge(List<SSTableInfo> inputs, String reason) {
        return new MergeJob(inputs, 0, OutputCut.SINGLE_FILE, MergeKind.REAL, reason);
    }

    /** {@return sum of the inputs' sizes} */
    public long inputBytes() {
        long sum = 0;
        for (SSTableInfo t : inputs) {
            sum += t.bytes();
        }
        return sum;
    }
}
