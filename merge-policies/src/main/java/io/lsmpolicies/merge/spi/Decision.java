package io.lsmpolicies.merge.spi;

import java.util.List;

/**
 * A policy's answer: the merge jobs to run now (possibly none) and the policy state to keep.
 *
 * @param jobs  jobs to schedule; their inputs are pairwise disjoint
 * @param state the policy's state after this decision (persist it when the jobs are installed)
 */
public record Decision(List<MergeJob> jobs, PolicyState state) {

    /**
     * Copies the jobs.
     *
     * @param jobs  jobs to schedule
     * @param state the policy's state after this decision
     * @throws IllegalArgumentException if {@code state} is null
     */
    public Decision {
        jobs = List.copyOf(jobs);
        if (state == null) {
            throw new IllegalArgumentException("state is required");
        }
    }

    /**
     * {@return no job; the state unchanged}
     *
     * @param state the policy's state
     */
    public static Decision none(PolicyState state) {
        return new Decision(List.of(), state);
    }

    /**
     * {@return one job}
     *
     * @param job   the job
     * @param state the policy's state after scheduling it
     */
    public static Decision of(MergeJob job, PolicyState state) {
        return new Decision(List.of(job), state);
    }
}
