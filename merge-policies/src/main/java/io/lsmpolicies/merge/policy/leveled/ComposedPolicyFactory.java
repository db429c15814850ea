package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.ParameterSpec;
import io.lsmpolicies.merge.spi.PolicyParameters;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates {@code composed}: a strategy assembled from the four primitives of Sarkar et al. (PVLDB 2021, Sect. 3)
 * given as the choices {@code trigger}, {@code layout}, {@code granularity} and {@code movement}, with the
 * numeric settings of the whole family (each used only by the primitives that need it). Invalid combinations
 * are rejected when the policy is created, naming the parameter and the reason ({@link CompactionStrategy}).
 * The defaults (saturation, leveling, file, min-overlapping-ratio) make it {@code leveled}'s default.
 */
public final class ComposedPolicyFactory extends StrategyPolicyFactory {
    /** The factory; {@link java.util.ServiceLoader} makes it (this module's {@code provides}). */
    public ComposedPolicyFactory() {
    }

    /** The name the policy is registered under, as a policy spec names it. */
    public static final String NAME = "composed";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "any strategy of the four primitives: trigger x layout x granularity x movement";
    }

    @Override
    public List<ParameterSpec> parameters() {
        List<ParameterSpec> out = new ArrayList<>(List.of(LeveledParameters.TRIGGER, LeveledParameters.LAYOUT,
                LeveledParameters.GRANULARITY, LeveledParameters.MOVEMENT));
        out.addAll(LeveledParameters.SHAPE);
        out.addAll(LeveledParameters.PICKER_THRESHOLDS);
        for (ParameterSpec p : LeveledParameters.UNIVERSAL) {
            if (!out.contains(p)) {
                out.add(p);
            }
        }
        return List.copyOf(out);
    }

    @Override
    CompactionStrategy strategy(PolicyParameters p) {
        return CompactionStrategy.of(name(), Trigger.of(p.getChoice("trigger")), DataLayout.of(p.getChoice("layout")),
                Granularity.of(p.getChoice("granularity")), Movement.of(p.getChoice("movement")));
    }
}
