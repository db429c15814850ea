package io.lsmpolicies.merge.sim.leveled;

import java.util.List;

/**
 * Everything one picker benchmark produced, in a deterministic order (workload, seed, contender), whatever the
 * number of threads.
 *
 * @param settings   what was run
 * @param workloads  the main workloads
 * @param small      the small workload (null if the search was off)
 * @param contenders contender labels, in order
 * @param runs       one record per contender, workload and seed that finished
 * @param searches   one record per seed of the small workload
 * @param failures   runs that threw (a policy asked for a job the model refuses, say)
 * @param seconds    wall-clock time of the whole benchmark
 */
public record BenchmarkResults(BenchmarkSettings settings, List<BenchWorkload> workloads, BenchWorkload small,
        List<String> contenders, List<Run> runs, List<Search> searches, List<Failure> failures, double seconds) {

    /** One contender on one workload and seed. */
    public record Run(BenchWorkload workload, String contender, long seed, ModelResult result, double seconds) {
    }

    /** The optimal search on one seed of the small workload. */
    public record Search(BenchWorkload workload, long seed, SearchResult result, double seconds) {
    }

    /** A run that threw. */
    public record Failure(String workload, String contender, long seed, String message) {
    }

    /**
     * Copies the lists.
     *
     * @param settings   what was run
     * @param workloads  the main workloads
     * @param small      the small workload (null if the search was off)
     * @param contenders contender labels, in order
     * @param runs       one record per contender, workload and seed that finished
     * @param searches   one record per seed of the small workload
     * @param failures   runs that threw (a policy asked for a job the model refuses, say)
     * @param seconds    wall-clock time of the whole benchmark
     */
    public BenchmarkResults {
        workloads = List.copyOf(workloads);
        contenders = List.copyOf(contenders);
        runs = List.copyOf(runs);
        searches = List.copyOf(searches);
        failures = List.copyOf(failures);
    }

    /**
     * {@return write amplifications of {@code contender} on {@code workload}, by seed}
     *
     * @param workload  a workload
     * @param contender a contender's label
     */
    public double[] writeAmplifications(BenchWorkload workload, String contender) {
        return runs.stream().filter(r -> r.workload().slug().equals(workload.slug())
                && r.contender().equals(contender)).mapToDouble(r -> r.result().writeAmplification()).toArray();
    }

    /**
     * {@return the summary of {@code contender} on {@code workload}, or null if no run finished}
     *
     * @param workload  a workload
     * @param contender a contender's label
     */
    public Summary summary(BenchWorkload workload, String contender) {
        double[] wa = writeAmplifications(workload, contender);
        return wa.length == 0 ? null : Summary.of(wa);
    }

    /** {@return minimum write amplifications found by the search, by seed (only searches that found a schedule)} */
    public double[] optimalWriteAmplifications() {
        return searches.stream().filter(s -> s.result().found()).mapToDouble(s -> s.result().writeAmplification())
                .toArray();
    }
}
