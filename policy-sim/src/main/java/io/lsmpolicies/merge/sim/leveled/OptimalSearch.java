package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The offline optimal file-pick search of Wei et al. (EDBT 2025, Sect. 3.2), on the key-level model: replay a
 * recorded workload (its flushes are fixed, {@link FlushSequence}) and, at every compaction of a level
 * {@code >= 1}, try every file of that level, depth first; report the schedule that writes the fewest bytes.
 *
 * <p>What is and is not chosen. The level to compact is never a choice: {@link LevelScoring} names it after
 * every flush and every compaction, as in a leveled policy. Level-0 compactions take all of level 0
 * ({@link LeveledMoves#level0}). Only which file of a level {@code >= 1} goes down is searched; outputs are cut
 * by {@link SearchSettings#cut()}. A policy that picks several files at once, cuts at a cursor or scores levels
 * differently moves outside this space and may write less than the "optimum".
 *
 * <p>Search order and pruning. Trivial moves come first: by default ({@link TrivialMoves#SKIP}, the paper's
 * "skip" strategy) a level where some files can move down trivially tries only those moves;
 * {@link TrivialMoves#SKIP_FIRST} moves the first of them without branching; {@link TrivialMoves#NON_SKIP} (the
 * paper's "non-skip") tries every file. Siblings are tried cheapest first (least written now, so trivial moves
 * first). The first schedule played to the end gives a bound; a branch is abandoned once its written bytes plus
 * what every schedule still writes (the flushes to come, and a floor on the level-0 compactions to come: see
 * {@link #floors}) reach the best total so far: the paper's incremental pruning, with a tighter bound. On top of
 * that, {@link SearchSettings#pruneRepeatedStates()} abandons a branch whose tree, at the same flush, was
 * reached before with no more bytes written: the future of a tree depends only on its content and the flushes
 * still to come, so the earlier visit covers it. Trees are compared by two independent 64-bit hashes of their
 * content; a collision (odds around n^2 / 2^128 for n states) could wrongly prune, which we accept. Neither
 * pruning changes the optimum found when the search completes (a test compares with the unpruned search).
 *
 * <p>The search stops after {@link SearchSettings#nodeLimit()} applied moves and says so
 * ({@link SearchResult#complete()}); the best schedule so far is then an upper bound. Deterministic. Recursion
 * depth is the number of choice points of one schedule: run with a large thread stack ({@code -Xss8m}) for long
 * workloads.
 */
public final class OptimalSearch {
    /** Most trees remembered for {@link SearchSettings#pruneRepeatedStates()}; later ones are not remembered. */
    static final int MAX_REMEMBERED_STATES = 1_000_000;

    private record StateKey(int flush, long hash1, long hash2) {
    }

    private record Child(ModelTree tree, MergeJob job, JobOutcome outcome, int fileIndex) {
    }

    private final FlushSequence flushes;
    private final long entryBytes;
    private final SearchSettings settings;
    /** floor[n]: bytes that every schedule still writes once n flushes are in (see {@link #floors}). */
    private final long[] floor;
    private final List<Pick> path = new ArrayList<>();
    private final Map<StateKey, Long> seen = new HashMap<>();
    private long best = Long.MAX_VALUE;
    private List<Pick> bestPicks = List.of();
    private long nodes;
    private long leaves;
    private long prunedByBound;
    private long prunedByState;
    private boolean limitHit;

    private OptimalSearch(FlushSequence flushes, long entryBytes, SearchSettings settings) {
        this.flushes = flushes;
        this.entryBytes = entryBytes;
        this.settings = settings;
        this.floor = floors(flushes, entryBytes, settings.scoring().l0Trigger());
    }

    /**
     * The lower bound used for pruning: once {@code n} flushes are in, every schedule still writes the flushes to
     * come, and every level-0 compaction to come writes at least the live keys of the level-0 files it merges.
     * Those compactions are the same in every schedule: level 0 is compacted, whole, exactly when its file
     * count reaches the trigger (before the next flush, as compactions take no time), so after flushes t, 2t,
     * ... of a trigger t, and the files it merges are those flushes. With a trigger of 1, a lone level-0 file
     * may move trivially, so only the flushes count.
     */
    private static long[] floors(FlushSequence flushes, long entryBytes, int trigger) {
        int size = flushes.size();
        long[] floor = new long[size + 1];
        long[] compactionAfter = new long[size + 1];
        if (trigger >= 2) {
            for (int end = trigger; end <= size; end += trigger) {
                Map<Integer, Boolean> newest = new HashMap<>();
                for (int i = end - trigger; i < end; i++) {
                    FlushSequence.Flush f = flushes.get(i);
                    for (int j = 0; j < f.entries(); j++) {
                        newest.put(f.keys()[j], f.tombstones()[j]);
                    }
                }
                compactionAfter[end] = newest.values().stream().filter(t -> !t).count() * entryBytes;
            }
        }
        long later = 0;
        for (int n = size; n >= 0; n--) {
            floor[n] = flushes.entriesFrom(n) * entryBytes + later;
            later += compactionAfter[n];
        }
        return floor;
    }

    /**
     * Searches the schedules of {@code flushes}, with entries of {@code entryBytes} bytes.
     *
     * @param flushes    the flushes
     * @param entryBytes bytes per entry
     * @param settings   the search's settings
     * @return the result
     */
    public static SearchResult run(FlushSequence flushes, long entryBytes, SearchSettings settings) {
        OptimalSearch s = new OptimalSearch(flushes, entryBytes, settings);
        s.explore(new ModelTree(entryBytes), 0, 0);
        return new SearchResult(flushes.workload().description(), flushes.operations() * entryBytes,
                flushes.flushedEntries() * entryBytes, s.best == Long.MAX_VALUE ? -1 : s.best, s.bestPicks, s.nodes,
                s.leaves, s.prunedByBound, s.prunedByState, !s.limitHit);
    }

    /** Plays {@code tree} forward from flush {@code next} (0-based) with {@code written} bytes written so far. */
    private void explore(ModelTree tree, int next, long written) {
        int mark = path.size();
        try {
            while (!limitHit) {
                int level = settings.scoring().levelToCompact(tree);
                if (level < 0) {
                    if (next == flushes.size()) {
                        leaf(written);
                        return;
                    }
                    written += tree.flush(flushes.get(next)).info().bytes();
                    next++;
                    continue;
                }
                TreeView view = tree.view();
                List<MergeJob> jobs = LeveledMoves.candidates(view, level, settings.cut());
                List<Integer> tried = tried(jobs);
                if (tried.size() == 1) {
                    int forced = tried.get(0);
                    JobOutcome o = apply(tree, jobs.get(forced));
                    written += o.bytesWritten();
                    path.add(pick(next, level, forced, 1, jobs.get(forced), o));
                    if (pruned(written, next)) {
                        return;
                    }
                    continue;
                }
                branch(tree, next, written, level, jobs, tried);
                return;
            }
        } finally {
            path.subList(mark, path.size()).clear();
        }
    }

    /** Indexes of the jobs to try, by the trivial-move strategy; one index: no branching. */
    private List<Integer> tried(List<MergeJob> jobs) {
        List<Integer> all = new ArrayList<>(jobs.size());
        List<Integer> trivial = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            all.add(i);
            if (jobs.get(i).kind() == MergeKind.TRIVIAL_MOVE) {
                trivial.add(i);
            }
        }
        if (trivial.isEmpty() || settings.trivialMoves() == TrivialMoves.NON_SKIP) {
            return all;
        }
        return settings.trivialMoves() == TrivialMoves.SKIP_FIRST ? trivial.subList(0, 1) : trivial;
    }

    private void branch(ModelTree tree, int next, long written, int level, List<MergeJob> jobs, List<Integer> tried) {
        if (settings.pruneRepeatedStates()) {
            StateKey key = new StateKey(next, tree.contentHash(0x2545F4914F6CDD1DL),
                    tree.contentHash(0x9E3779B97F4A7C15L));
            Long before = seen.get(key);
            if (before != null && before <= written) {
                prunedByState++;
                return;
            }
            if (before != null || seen.size() < MAX_REMEMBERED_STATES) {
                seen.put(key, written);
            }
        }
        List<Child> children = new ArrayList<>(tried.size());
        for (int i : tried) {
            if (limitHit) {
                break;
            }
            ModelTree child = tree.copy();
            children.add(new Child(child, jobs.get(i), apply(child, jobs.get(i)), i));
        }
        children.sort(Comparator.comparingLong((Child c) -> c.outcome().bytesWritten()));
        for (Child c : children) {
            if (limitHit) {
                return;
            }
            long w = written + c.outcome().bytesWritten();
            if (pruned(w, next)) {
                continue;
            }
            path.add(pick(next, level, c.fileIndex(), jobs.size(), c.job(), c.outcome()));
            explore(c.tree(), next, w);
            path.remove(path.size() - 1);
        }
    }

    private JobOutcome apply(ModelTree tree, MergeJob job) {
        if (++nodes >= settings.nodeLimit()) {
            limitHit = true;
        }
        return tree.apply(job);
    }

    /** Whether a branch at flush {@code next} with {@code written} bytes can no longer beat the best. */
    private boolean pruned(long written, int next) {
        if (settings.pruneByBound() && written + floor[next] >= best) {
            prunedByBound++;
            return true;
        }
        return false;
    }

    private void leaf(long written) {
        leaves++;
        if (written < best) {
            best = written;
            bestPicks = List.copyOf(path);
        }
    }

    private static Pick pick(int next, int level, int fileIndex, int candidates, MergeJob job, JobOutcome o) {
        List<SSTableInfo> picked = level == 0 ? job.inputs() : List.of(job.inputs().get(0));
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (SSTableInfo t : picked) {
            min = Math.min(min, ModelFile.intOf(t.minKey()));
            max = Math.max(max, ModelFile.intOf(t.maxKey()));
        }
        return new Pick(next, level, fileIndex, candidates, min, max, o.kind(), o.bytesWritten());
    }
}
