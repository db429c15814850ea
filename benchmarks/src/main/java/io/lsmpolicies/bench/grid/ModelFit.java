package io.lsmpolicies.bench.grid;

import io.lsmpolicies.merge.MergePolicies;
import io.lsmpolicies.merge.sim.FlushSizeSources;
import io.lsmpolicies.merge.sim.FlushSizes;
import io.lsmpolicies.merge.sim.Simulator;

/**
 * The model's side of the paper's Fig. 11 (Mao et al., VLDB Journal 2021, Sect. 4.4): the simulator run on the
 * engine's own flush sizes, and how well a straight line through (simulated, observed) final write
 * amplifications fits, as R^2 of the least-squares line (the square of Pearson's correlation).
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
