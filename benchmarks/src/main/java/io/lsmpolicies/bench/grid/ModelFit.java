package io.lsmpolicies.bench.grid;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.FlushSizes;
import io.lsmpolicies.merge.sim.OfflineOptimum;
import io.lsmpolicies.merge.sim.OptimalCost;
import io.lsmpolicies.merge.sim.ReadCountSources;
import io.lsmpolicies.merge.sim.SimulationResult;
import io.lsmpolicies.merge.sim.Simulator;
import io.lsmpolicies.merge.spi.MergePolicy;

/**
 * The model's side of the paper's Fig. 11 (Mao et al., VLDB Journal 2021, Sect. 4.4): the simulator run on the
 * engine's own flush sizes, and how well a straight line through (simulated, observed) final write
 * amplifications fits, as R^2 of the least-squares line (the square of Pearson's correlation); and how far the
 * policy is from the offline optimum on those flush sizes ({@link #optimality}).
 */
public final class ModelFit {
    private ModelFit() {
    }

    /**
     * The simulated final write amplification of {@code policy} on exactly {@code flushSizes}: the simulator's
     * {@code writeAmplification} (flush writes plus merge outputs over flushed bytes), the trace's definition.
     */
    public static double simulate(String policy, long[] flushSizes) {
        FlushSizes sizes = FlushSizeSources.of(flushSizes, "trace of " + flushSizes.length + " flushes");
        return new Simulator(MergePolicies.parse(policy), sizes, 0).run(flushSizes.length).writeAmplification();
    }

    /**
     * How far a policy is from the best possible on one cell's flush sizes, in the cost model with reads
     * ({@code docs/policies.md}, section 6).
     *
     * @param competitiveRatio the policy's total cost / the least total cost of any schedule, where the cell's read
     *                         phase happens after its last flush (no reads during the load) at
     *                         {@link Simulator#DEFAULT_READ_COST_BYTES} bytes per probe
     * @param depthRatio       for a policy with a depth bound {@code k}: its merge cost / the least merge cost of a
     *                         schedule with at most k SSTables after every flush; NaN for other policies
     * @param exact            whether both optima are exact (else they are lower bounds and the ratios upper bounds)
     */
    public record Optimality(double competitiveRatio, double depthRatio, boolean exact) {
        /** Neither ratio (the cell is not simulated). */
        public static final Optimality NONE = new Optimality(Double.NaN, Double.NaN, true);
    }

    /**
     * The simulator and the offline optimum ({@link OfflineOptimum}, exact up to its default limit of flushes, a
     * lower bound beyond) on exactly {@code flushSizes}, with {@code readsAfterLoad} reads after the last flush.
     */
    public static Optimality optimality(String policy, long[] flushSizes, long readsAfterLoad) {
        MergePolicy p = MergePolicies.parse(policy);
        int n = flushSizes.length;
        if (n == 0) {
            return Optimality.NONE;
        }
        long[] reads = new long[n];
        reads[n - 1] = readsAfterLoad;
        long probe = Simulator.DEFAULT_READ_COST_BYTES;
        SimulationResult r = new Simulator(p, FlushSizeSources.of(flushSizes, "trace of " + n + " flushes"),
                ReadCountSources.of(reads, "reads after the load"), probe, 0).run(n);
        OptimalCost best = OfflineOptimum.minTotalCost(flushSizes, reads, probe, OfflineOptimum.DEFAULT_EXACT_LIMIT);
        Object k = p.parameters().values().get("k");
        if (!(k instanceof Number depth)) {
            return new Optimality(best.ratio(r.totalCost()), Double.NaN, best.exact());
        }
        OptimalCost bounded = OfflineOptimum.minMergeCostWithDepth(flushSizes, depth.intValue(),
                OfflineOptimum.DEFAULT_EXACT_LIMIT);
        return new Optimality(best.ratio(r.totalCost()), bounded.ratio(r.mergeCost()), best.exact()
                && bounded.exact());
    }

    /**
     * R^2 of the least-squares line through the points {@code (x[i], y[i])}; NaN with fewer than three points or
     * when either coordinate does not vary.
     */
    public static double rSquared(double[] x, double[] y) {
        int n = x.length;
        if (n < 3 || y.length != n) {
            return Double.NaN;
        }
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= n;
        my /= n;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        if (sxx == 0 || syy == 0) {
            return Double.NaN;
        }
        return sxy * sxy / (sxx * syy);
    }
}
