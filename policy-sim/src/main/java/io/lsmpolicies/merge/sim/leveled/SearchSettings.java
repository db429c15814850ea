package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.OutputCut;

/**
 * How the optimal file-pick search runs. Validated when built.
 *
 * @param scoring             which level needs compaction (the search never chooses the level, only the file)
 * @param cut                 how real compactions cut their output: {@code SingleFile}, {@code ByTargetSize} or
 *                            {@code AtGrandparentBoundaries} (a cursor cut belongs to one picker, not to the search)
 * @param trivialMoves        which files are tried when some can move down trivially ({@link TrivialMoves})
 * @param pruneByBound        abandon a branch once its written bytes plus the bytes still to be flushed reach the
 *                            best total found so far (the paper's pruning)
 * @param pruneRepeatedStates abandon a branch that reaches a tree already reached at the same point of the workload
 *                            with no more bytes written (by a 128-bit hash of the tree's content; see
 *                            {@link OptimalSearch})
 * @param nodeLimit           stop after this many applied moves; the result then says it is incomplete
 */
public record SearchSettings(LevelScoring scoring, OutputCut cut, TrivialMoves trivialMoves, boolean pruneByBound,
        boolean pruneRepeatedStates, long nodeLimit) {

    /** Default node limit: a few seconds on the default small workload. */
    public static final long DEFAULT_NODE_LIMIT = 2_000_000;

    /**
     * Checks the settings.
     *
     * @param scoring             which level needs compaction (the search never chooses the level, only the file)
     * @param cut                 how real compactions cut their output: {@code SingleFile}, {@code ByTargetSize}
     *                            or {@code AtGrandparentBoundaries} (a cursor cut belongs to one picker, not to the
     *                            search)
     * @param trivialMoves        which files are tried when some can move down trivially ({@link TrivialMoves})
     * @param pruneByBound        abandon a branch once its written bytes plus the bytes still to be flushed reach the
     *                            best total found so far (the paper's pruning)
     * @param pruneRepeatedStates abandon a branch that reaches a tree already reached at the same point of the workload
     *                            with no more bytes written (by a 128-bit hash of the tree's content; see
     *                            {@link OptimalSearch})
     * @param nodeLimit           stop after this many applied moves; the result then says it is incomplete
     */
    public SearchSettings {
        if (scoring == null || cut == null || trivialMoves == null) {
            throw new IllegalArgumentException("search: scoring, cut and trivial-move strategy are required");
        }
        if (cut instanceof OutputCut.AtCursor) {
            throw new IllegalArgumentException("search: a cursor cut belongs to the round-robin picker; use a target "
                    + "size or grandparent-boundary cut");
        }
        if (nodeLimit < 1) {
            throw new IllegalArgumentException("search: node limit must be >= 1, was " + nodeLimit);
        }
    }

    /**
     * {@return the skip strategy, both prunings, cut by {@code targetFileBytes}, the default node limit}
     *
     * @param scoring         which level needs compaction
     * @param targetFileBytes the size at which output files are cut
     */
    public static SearchSettings of(LevelScoring scoring, long targetFileBytes) {
        return new SearchSettings(scoring, new OutputCut.ByTargetSize(targetFileBytes), TrivialMoves.SKIP, true, true,
                DEFAULT_NODE_LIMIT);
    }

    /** {@return the same search with no pruning at all: every schedule is played to the end} */
    public SearchSettings exhaustive() {
        return new SearchSettings(scoring, cut, trivialMoves, false, false, nodeLimit);
    }

    /**
     * {@return these settings with {@code strategy} for trivial moves}
     *
     * @param strategy which files are tried when some can move down trivially
     */
    public SearchSettings withTrivialMoves(TrivialMoves strategy) {
        return new SearchSettings(scoring, cut, strategy, pruneByBound, pruneRepeatedStates, nodeLimit);
    }

    /**
     * {@return these settings with the prunings given}
     *
     * @param byBound        whether to abandon a branch by the best-total bound
     * @param repeatedStates whether to abandon a branch that reaches a tree already reached
     */
    public SearchSettings withPruning(boolean byBound, boolean repeatedStates) {
        return new SearchSettings(scoring, cut, trivialMoves, byBound, repeatedStates, nodeLimit);
    }

    /**
     * {@return these settings with node limit {@code limit}}
     *
     * @param limit the most applied moves
     */
    public SearchSettings withNodeLimit(long limit) {
        return new SearchSettings(scoring, cut, trivialMoves, pruneByBound, pruneRepeatedStates, limit);
    }
}
