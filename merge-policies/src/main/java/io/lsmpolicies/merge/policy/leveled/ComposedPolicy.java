package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.TreeView;

/**
 * A leveled-family policy: a {@link CompactionStrategy} (the four primitives) with its settings. Every named
 * policy of the family ({@code leveled}, {@code full-leveling}, {@code one-leveling}, {@code universal}) is an
 * instance with a preset strategy; {@code composed} takes the strategy from its parameters. The layout picks
 * the decision logic: {@link UniversalCompaction} for tiering, {@link LeveledCompaction} otherwise.
 *
 * <p>State: {@link CompactionState}, the round-robin cursors (empty for other pickers).
 * {@link #isMergeLagging}: level 0 holds at least {@code l0-stop-trigger} files (RocksDB's
 * {@code level0_stop_writes_trigger}, default 36), counting files being compacted. Since
 * {@code l0-stop-trigger >= l0-trigger}, once the running merges finish {@code decide} always has a level-0
 * compaction to offer, so a writer waiting on this never waits for ever.
 */
public final class ComposedPolicy implements MergePolicy {
    private final String name;
    private final PolicyParameters parameters;
    private final CompactionStrategy strategy;
    private final LeveledSettings settings;
    private final LeveledCompaction leveled;
    private final UniversalCompaction universal;

    ComposedPolicy(String name, PolicyParameters parameters, CompactionStrategy strategy, LeveledSettings settings) {
        this.name = name;
        this.parameters = parameters;
        this.strategy = strategy;
        this.settings = settings;
        this.leveled = new LeveledCompaction(strategy, settings);
        this.universal = new UniversalCompaction(settings);
    }

    /** {@return the four primitives this policy runs} */
    public CompactionStrategy strategy() {
        return strategy;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PolicyParameters parameters() {
        return parameters;
    }

    @Override
    public PolicyState initialState() {
        return CompactionState.EMPTY;
    }

    @Override
    public PolicyState decodeState(byte[] encoded) {
        return CompactionState.decode(name, encoded);
    }

    @Override
    public Decision decide(TreeView view, PolicyState state) {
        Tree tree = Tree.of(name, view, settings.numLevels());
        CompactionState cursors = CompactionState.of(name, state);
        return strategy.layout() == DataLayout.TIERING ? universal.decide(tree, cursors)
                : leveled.decide(tree, cursors);
    }

    /**
     * How this policy cuts the output of a job into {@code level} in {@code state}: at grandparent boundaries
     * ({@code target-file-bytes}, {@code max-compaction-bytes}), at the level's cursor under round robin, one file
     * under tiering. What {@link DelayedPolicy} uses to materialise a virtual SSTable in its level.
     */
    OutputCut outputCut(PolicyState state, int level) {
        return strategy.layout() == DataLayout.TIERING ? OutputCut.SINGLE_FILE
                : leveled.cut(CompactionState.of(name, state), level);
    }

    @Override
    public boolean isMergeLagging(TreeView view, PolicyState state) {
        return Tree.of(name, view, settings.numLevels()).files(0).size() >= settings.l0StopTrigger();
    }

    @Override
    public String toString() {
        return name + "(" + strategy + "; " + parameters + ")";
    }
}
