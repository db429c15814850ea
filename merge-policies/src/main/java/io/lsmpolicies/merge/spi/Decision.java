package io.lsmpolicies.merge.spi;

import java.util.List;

/**
 * A policy's answer: the merge jobs to run now (possibly none) and the policy state to keep.
 *
 * @param jobs  jobs to schedule; their inputs are pairwise disjoint
 * @param state the policy's state after this decision (persist it when the jobs are installed)
 */
public record Decision(List<MergeJob> jobs, PolicyState state) {

    public Decision {
        jobs = List.copyOf(jobs);
        if (state == null) {
            throw new IllegalArgumentException("state is required");
        }
    }

    /** No job; the state unchanged. */
    public static Decision none(PolicyState state) {
        return new Decision(List.of(), state);
    }

    /** One job. */
    public static Decision of(MergeJob job, PolicyState state) {
        return new Decision(List.of(job), state);
    }
}
