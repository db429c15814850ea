package io.lsmpolicies.merge.sim.leveled;

import java.util.Locale;

/**
 * The characteristics of a generated workload, validated when built. Each operation is, independently, an update
 * with probability {@code updateFraction}, a delete with probability {@code deleteFraction}, and otherwise an
 * insert of a new key; while no key is live, every operation is an insert.
 *
 * @param operations     number of operations, {@code >= 1}
 * @param updateFraction probability of an update, in [0, 1]
 * @param deleteFraction probability of a delete, in [0, 1], with {@code updateFraction + deleteFraction <= 1}
 * @param distribution   which live key an update goes to (deletes always pick uniformly)
 * @param zipfTheta      skew of {@link UpdateDistribution#ZIPFIAN}, in (0, 1); ignored for uniform
 */
public record WorkloadSpec(int operations, double updateFraction, double deleteFraction,
        UpdateDistribution distribution, double zipfTheta) {

    /**
     * Checks the fractions.
     *
     * @param operations     number of operations, {@code >= 1}
     * @param updateFraction probability of an update, in [0, 1]
     * @param deleteFraction probability of a delete, in [0, 1], with {@code updateFraction + deleteFraction <= 1}
     * @param distribution   which live key an update goes to (deletes always pick uniformly)
     * @param zipfTheta      skew of {@link UpdateDistribution#ZIPFIAN}, in (0, 1); ignored for uniform
     * @throws IllegalArgumentException naming the value, if one is out of range
     */
    public WorkloadSpec {
        if (operations < 1) {
            throw new IllegalArgumentException("workload operations must be >= 1, was " + operations);
        }
        if (!(updateFraction >= 0 && updateFraction <= 1)) {
            throw new IllegalArgumentException("workload update fraction must be in [0, 1], was " + updateFraction);
        }
        if (!(deleteFraction >= 0 && deleteFraction <= 1) || updateFraction + deleteFraction > 1) {
            throw new IllegalArgumentException("workload delete fraction must be in [0, 1 - update fraction], was "
                    + deleteFraction);
        }
        if (distribution == null) {
            throw new IllegalArgumentException("workload update distribution is required");
        }
        if (distribution == UpdateDistribution.ZIPFIAN && !(zipfTheta > 0 && zipfTheta < 1)) {
            throw new IllegalArgumentException("workload Zipfian theta must be in (0, 1), was " + zipfTheta);
        }
    }

    /**
     * Inserts only.
     *
     * @param operations number of operations
     * @return the specification
     */
    public static WorkloadSpec insertOnly(int operations) {
        return new WorkloadSpec(operations, 0, 0, UpdateDistribution.UNIFORM, ZipfianGenerator.YCSB_THETA);
    }

    /**
     * Inserts and uniform updates.
     *
     * @param operations     number of operations
     * @param updateFraction probability of an update
     * @return the specification
     */
    public static WorkloadSpec uniformUpdates(int operations, double updateFraction) {
        return new WorkloadSpec(operations, updateFraction, 0, UpdateDistribution.UNIFORM, ZipfianGenerator.YCSB_THETA);
    }

    /**
     * Inserts and Zipfian updates with skew {@code theta}.
     *
     * @param operations     number of operations
     * @param updateFraction probability of an update
     * @param theta          the Zipfian skew, in (0, 1)
     * @return the specification
     */
    public static WorkloadSpec zipfianUpdates(int operations, double updateFraction, double theta) {
        return new WorkloadSpec(operations, updateFraction, 0, UpdateDistribution.ZIPFIAN, theta);
    }

    /** {@return a short description, e.g. {@code 50% updates zipfian(0.99)} or {@code inserts only}} */
    public String describe() {
        if (updateFraction == 0 && deleteFraction == 0) {
            return "inserts only";
        }
        StringBuilder b = new StringBuilder();
        if (updateFraction > 0) {
            b.append(percent(updateFraction)).append(" updates ")
                    .append(distribution == UpdateDistribution.ZIPFIAN
                            ? String.format(Locale.ROOT, "zipfian(%s)", trim(zipfTheta)) : "uniform");
        }
        if (deleteFraction > 0) {
            b.append(b.length() > 0 ? ", " : "").append(percent(deleteFraction)).append(" deletes");
        }
        return b.toString();
    }

    private static String percent(double fraction) {
        return trim(fraction * 100) + "%";
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
