package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;
import java.util.stream.IntStream;

/**
 * A tiny leveled policy for the tests: {@link LevelScoring} names the level, {@link LeveledMoves} builds the job,
 * and a picker chooses the file of a level >= 1 (the lowest key of the picker's measure wins, ties to the first
 * file by key). With {@code preferTrivial}, a file that moves trivially is taken first, as RocksDB does.
 * Its moves are exactly the moves the optimal search chooses among.
 */
final class ReferenceLeveledPolicy implements MergePolicy {

    /** The state of a policy that keeps none. */
    enum Stateless implements PolicyState {
        INSTANCE;

        @Override
        public byte[] encode() {
            return new byte[0];
        }
    }

    /** Scores a file of a level (lower is picked first), given the view and the file. */
    interface Picker extends ToDoubleBiFunction<TreeView, SSTableInfo> {
    }

    static final Picker FIRST = (view, t) -> 0;
    static final Picker LAST = (view, t) -> -ModelFile.intOf(t.minKey());
    static final Picker OLDEST_SMALLEST_SEQ = (view, t) -> t.minSequence();
    static final Picker OLDEST_LARGEST_SEQ = (view, t) -> t.maxSequence();

    /** MinOverlappingRatio: bytes of the next level overlapping the file, over the file's bytes. */
    static Picker minOverlappingRatio(int level) {
        return (view, t) -> LeveledMoves.overlapping(view, level + 1, t.minKey(), t.maxKey()).stream()
                .mapToLong(SSTableInfo::bytes).sum() / (double) t.bytes();
    }

    private final String name;
    private final LevelScoring scoring;
    private final OutputCut cut;
    private final Map<Integer, Picker> pickers;
    private final Picker fallback;
    private final boolean preferTrivial;

    ReferenceLeveledPolicy(String name, LevelScoring scoring, OutputCut cut, Picker picker, boolean preferTrivial) {
        this(name, scoring, cut, Map.of(), picker, preferTrivial);
    }

    ReferenceLeveledPolicy(String name, LevelScoring scoring, OutputCut cut, Map<Integer, Picker> byLevel,
            Picker fallback, boolean preferTrivial) {
        this.name = name;
        this.scoring = scoring;
        this.cut = cut;
        this.pickers = byLevel;
        this.fallback = fallback;
        this.preferTrivial = preferTrivial;
    }

    /** The MOR policy: the picker needs the level, so it is built per level up to {@code scoring.levels()}. */
    static ReferenceLeveledPolicy mor(LevelScoring scoring, OutputCut cut, boolean preferTrivial) {
        Map<Integer, Picker> byLevel = new HashMap<>();
        for (int l = 1; l < scoring.levels(); l++) {
            byLevel.put(l, minOverlappingRatio(l));
        }
        return new ReferenceLeveledPolicy("mor", scoring, cut, byLevel, FIRST, preferTrivial);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PolicyParameters parameters() {
        return new PolicyParameters(name, Map.of());
    }

    @Override
    public PolicyState initialState() {
        return Stateless.INSTANCE;
    }

    @Override
    public PolicyState decodeState(byte[] encoded) {
        return Stateless.INSTANCE;
    }

    @Override
    public Decision decide(TreeView view, PolicyState state) {
        int level = scoring.levelToCompact(view);
        if (level < 0) {
            return Decision.none(state);
        }
        List<MergeJob> jobs = LeveledMoves.candidates(view, level, cut);
        Picker picker = pickers.getOrDefault(level, fallback);
        Comparator<Integer> order = Comparator.comparingInt(i -> 0);
        if (preferTrivial) {
            order = Comparator.comparingInt(i -> jobs.get(i).kind() == MergeKind.TRIVIAL_MOVE ? 0 : 1);
        }
        order = order.thenComparingDouble(i -> picker.applyAsDouble(view, jobs.get(i).inputs().get(0)))
                .thenComparingInt(i -> i);
        int chosen = IntStream.range(0, jobs.size()).boxed().min(order).orElseThrow();
        return Decision.of(jobs.get(chosen), state);
    }
}
