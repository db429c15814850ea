package io.lsmpolicies.merge.sim.leveled;

import java.util.ArrayList;
import java.util.List;

/**
 * One workload of the picker benchmark.
 *
 * @param name  how tables and plots name it, e.g. {@code 50% updates, zipfian 0.99}
 * @param slug  how file names and CSV rows name it, e.g. {@code updates-50-zipfian}
 * @param spec  what is generated (with seed {@code settings.seed() + run})
 * @param shape the tree sizes it runs with
 */
public record BenchWorkload(String name, String slug, WorkloadSpec spec, TreeShape shape) {

    /**
     * The main workloads: inserts only, then (if the update fraction is above 0) uniform and Zipfian updates.
     * With no update the update distribution plays no part, so the "0% x uniform" and "0% x Zipfian" cells of
     * the grid are one workload, run once. Deletes (if any) pick a live key uniformly in every workload.
     *
     * @param s the benchmark's settings
     * @return the workloads
     */
    public static List<BenchWorkload> main(BenchmarkSettings s) {
        List<BenchWorkload> out = new ArrayList<>();
        double d = s.deleteFraction();
        String deletes = d > 0 ? ", " + percent(d) + "% deletes" : "";
        String slugDeletes = d > 0 ? "-deletes-" + percent(d) : "";
        out.add(new BenchWorkload("0% updates (any distribution)" + deletes, "updates-0" + slugDeletes,
                new WorkloadSpec(s.operations(), 0, d, UpdateDistribution.UNIFORM, s.zipfTheta()), s.shape()));
        if (s.updateFraction() > 0) {
            String pct = percent(s.updateFraction());
            out.add(new BenchWorkload(pct + "% updates, uniform" + deletes, "updates-" + pct + "-uniform" + slugDeletes,
                    new WorkloadSpec(s.operations(), s.updateFraction(), d, UpdateDistribution.UNIFORM, s.zipfTheta()),
                    s.shape()));
            out.add(new BenchWorkload(pct + "% updates, zipfian " + s.zipfTheta() + deletes,
                    "updates-" + pct + "-zipfian" + slugDeletes,
                    new WorkloadSpec(s.operations(), s.updateFraction(), d, UpdateDistribution.ZIPFIAN, s.zipfTheta()),
                    s.shape()));
        }
        return out;
    }

    /**
     * {@return the small workload of the optimal search}
     *
     * @param s the benchmark's settings
     */
    public static BenchWorkload small(BenchmarkSettings s) {
        WorkloadSpec spec = new WorkloadSpec(s.smallOperations(), s.smallUpdateFraction(), 0, s.smallDistribution(),
                s.zipfTheta());
        return new BenchWorkload("small: " + spec.describe() + ", " + s.smallOperations() + " ops", "small", spec,
                s.smallShape());
    }

    private static String percent(double fraction) {
        double p = fraction * 100;
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }
}
