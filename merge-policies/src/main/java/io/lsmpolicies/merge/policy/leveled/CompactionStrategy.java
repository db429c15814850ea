package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.PolicyConfigurationException;

/**
 * A compaction strategy as an ensemble of the four primitives of Sarkar et al. (PVLDB 14(11) 2021, Sect. 3):
 * trigger (when), data layout (how data is organised), granularity (how much moves at a time) and data-movement
 * policy (which file). Every named leveled policy is one of these, a preset; the {@code composed} policy takes
 * the four from configuration. Only combinations that mean something are accepted; the others are rejected
 * with the reason.
 *
 * <p>Accepted combinations:
 * <ul>
 *   <li>{@code tiering} x {@code sorted-runs} x {@code none} x {@code sorted-runs}: RocksDB's universal
 *       compaction (the paper's Tier).</li>
 *   <li>{@code leveling} x {@code level} x {@code none} x {@code saturation}: full leveling (the paper's Full).</li>
 *   <li>{@code leveling} or {@code one-leveling} x {@code file} x any file picker x {@code saturation},
 *       {@code tombstone-density} or {@code tombstone-age}: partial compaction (L0+1, L0+2, RR, Cold, Old, TSD,
 *       TSA, 1-Lvl and every mix of them).</li>
 * </ul>
 *
 * @param trigger     when to compact
 * @param layout      how data is organised into runs per level
 * @param granularity how much data one compaction moves
 * @param movement    which file a partial compaction takes ({@link Movement#NONE} unless {@code granularity} is
 *                    {@link Granularity#FILE})
 */
public record CompactionStrategy(Trigger trigger, DataLayout layout, Granularity granularity, Movement movement) {

    /** Full leveling: a saturated level is merged whole with the whole next level (Sarkar et al.'s Full). */
    public static final CompactionStrategy FULL_LEVELING = new CompactionStrategy(Trigger.SATURATION,
            DataLayout.LEVELING, Granularity.LEVEL, Movement.NONE);

    /**
     * 1-leveling: level 0 a tier merged whole into the base level, deeper levels leveled with partial
     * compaction by least overlap (Sarkar et al.'s 1-Lvl, RocksDB's default shape).
     */
    public static final CompactionStrategy ONE_LEVELING = new CompactionStrategy(Trigger.SATURATION,
            DataLayout.ONE_LEVELING, Granularity.FILE, Movement.MIN_OVERLAPPING_RATIO);

    /** RocksDB's universal compaction (Sarkar et al.'s Tier). */
    public static final CompactionStrategy UNIVERSAL = new CompactionStrategy(Trigger.SORTED_RUNS,
            DataLayout.TIERING, Granularity.SORTED_RUNS, Movement.NONE);

    /**
     * Checks that the combination is one of the accepted ones.
     *
     * @param trigger     when to compact
     * @param layout      how data is organised into runs per level
     * @param granularity how much data one compaction moves
     * @param movement    which file a partial compaction takes
     * @throws IllegalArgumentException saying why, if a primitive is missing or the combination means nothing
     */
    public CompactionStrategy {
        if (trigger == null || layout == null || granularity == null || movement == null) {
            throw new IllegalArgumentException("trigger, layout, granularity and movement are required");
        }
        Problem p = problem(trigger, layout, granularity, movement);
        if (p != null) {
            throw new IllegalArgumentException(p.message());
        }
    }

    /**
     * Leveled partial compaction with file picker {@code picker}: leveling x file x picker, triggered by level
     * saturation, and for the delete-driven pickers also by their own event, as in Sarkar et al.'s TSD and TSA
     * (Table 2).
     *
     * @param picker the file picker, not {@link Movement#NONE}
     * @return the strategy
     */
    public static CompactionStrategy leveled(Movement picker) {
        Trigger trigger = Trigger.SATURATION;
        if (picker == Movement.TOMBSTONE_DENSITY) {
            trigger = Trigger.TOMBSTONE_DENSITY;
        } else if (picker == Movement.TOMBSTONE_AGE) {
            trigger = Trigger.TOMBSTONE_AGE;
        }
        return new CompactionStrategy(trigger, DataLayout.LEVELING, Granularity.FILE, picker);
    }

    /**
     * The strategy of these primitives for policy {@code policy}.
     *
     * @param policy      the name of the policy being configured, for the error message
     * @param trigger     when to compact
     * @param layout      how data is organised into runs per level
     * @param granularity how much data one compaction moves
     * @param movement    which file a partial compaction takes
     * @return the strategy
     * @throws PolicyConfigurationException naming the policy, the parameter at fault, its value and why the
     *                                      combination is rejected
     */
    public static CompactionStrategy of(String policy, Trigger trigger, DataLayout layout, Granularity granularity,
            Movement movement) {
        Problem p = problem(trigger, layout, granularity, movement);
        if (p != null) {
            throw new PolicyConfigurationException(policy, p.parameter(), p.value(), "policy '" + policy + "': "
                    + p.message());
        }
        return new CompactionStrategy(trigger, layout, granularity, movement);
    }

    /** What is wrong with a combination: the parameter to change, its value, and the explanation. */
    private record Problem(String parameter, String value, String message) {
    }

    private static Problem problem(Trigger t, DataLayout l, Granularity g, Movement m) {
        if (l == DataLayout.TIERING) {
            if (g != Granularity.SORTED_RUNS) {
                return new Problem("granularity", g.choice(), "granularity=" + g.choice() + " does not go with "
                        + "layout=tiering: a tiered layout merges whole sorted runs, so granularity must be sorted-runs");
            }
            if (m != Movement.NONE) {
                return new Problem("movement", m.choice(), "movement=" + m.choice() + " does not go with "
                        + "layout=tiering: whole sorted runs merge, there is no file to pick, so movement must be none");
            }
            if (t != Trigger.SORTED_RUNS) {
                return new Problem("trigger", t.choice(), "trigger=" + t.choice() + " does not go with "
                        + "layout=tiering: a tiered tree is compacted by its run count and space amplification, so "
                        + "trigger must be sorted-runs");
            }
            return null;
        }
        if (t == Trigger.SORTED_RUNS) {
            return new Problem("trigger", t.choice(), "trigger=sorted-runs needs layout=tiering; layout="
                    + l.choice() + " counts level-0 files with l0-trigger under trigger=saturation");
        }
        if (g == Granularity.SORTED_RUNS) {
            return new Problem("granularity", g.choice(), "granularity=sorted-runs needs layout=tiering: with layout="
                    + l.choice() + " every level below 0 is one sorted run (one-leveling already merges level 0's "
                    + "runs all at once)");
        }
        if (g == Granularity.LEVEL) {
            if (m != Movement.NONE) {
                return new Problem("movement", m.choice(), "movement=" + m.choice() + " does not go with "
                        + "granularity=level: a whole level moves, there is no file to pick, so movement must be none");
            }
            if (t != Trigger.SATURATION) {
                return new Problem("trigger", t.choice(), "trigger=" + t.choice() + " names a file to compact, "
                        + "which needs granularity=file; granularity=level goes with trigger=saturation");
            }
            if (l != DataLayout.LEVELING) {
                return new Problem("layout", l.choice(), "layout=one-leveling with granularity=level would merge "
                        + "level 0 whole into a whole base level, which is full leveling: use layout=leveling");
            }
            return null;
        }
        if (m == Movement.NONE) {
            return new Problem("movement", m.choice(), "granularity=file needs a file picker: movement=none "
                    + "picks no file (choose e.g. min-overlapping-ratio)");
        }
        return null;
    }

    /** The four primitives as configuration, e.g. {@code trigger=saturation,layout=leveling,...}. */
    @Override
    public String toString() {
        return "trigger=" + trigger.choice() + ",layout=" + layout.choice() + ",granularity=" + granularity.choice()
                + ",movement=" + movement.choice();
    }
}
