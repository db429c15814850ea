package io.lsmpolicies.merge.policy.leveled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.LevelView;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A tiny engine model for the invariant tests: files with integer keys ({@code k00000}..{@code k09999}), flushes
 * of random key ranges (some with tombstones), and jobs applied as the engine's contract says: a real job removes
 * its inputs and writes their summed bytes over their union key range into the output level, cut into
 * non-overlapping files of about the target size (one file for {@code SingleFile}); a trivial move moves its file;
 * a virtual job (delayed compaction) writes one virtual file over the union key range of its inputs, holding their
 * bytes and tombstones, whose parents are its real inputs plus the parents of its virtual inputs. Tombstones are dropped when a merge writes where no deeper file overlaps. Every job is checked against the
 * contract when it starts, and every level below 0 after it finishes.
 */
final class TreeModel {
    static final int KEYS = 10_000;

    private final MergePolicy policy;
    private final String label;
    private final Random random;
    private final int numLevels;
    private final List<List<SSTableInfo>> levels = new ArrayList<>();
    private final List<MergeJob> running = new ArrayList<>();
    private final Set<Long> compacting = new HashSet<>();
    private PolicyState state;
    private long nextId = 1;
    private long sequence;
    private long clock;
    private long flushIndex;
    int realJobs;
    int trivialMoves;
    int virtualJobs;

    TreeModel(MergePolicy policy, String label, long seed, int numLevels) {
        this.policy = policy;
        this.label = label;
        this.random = new Random(seed);
        this.numLevels = numLevels;
        this.state = policy.initialState();
        for (int n = 0; n < numLevels; n++) {
            levels.add(new ArrayList<>());
        }
    }

    static Key key(int k) {
        return Key.of(String.format("k%05d", k));
    }

    static int keyOf(Key k) {
        return Integer.parseInt(k.toString().substring(1));
    }

    TreeView view() {
        List<LevelView> out = new ArrayList<>();
        for (int n = 0; n < numLevels; n++) {
            List<SSTableInfo> files = new ArrayList<>();
            for (SSTableInfo t : levels.get(n)) {
                files.add(t.withCompacting(compacting.contains(t.id())));
            }
            List<SortedRun> runs = new ArrayList<>();
            if (n == 0) {
                files.forEach(t -> runs.add(SortedRun.of(t)));
            } else if (!files.isEmpty()) {
                runs.add(new SortedRun(files));
            }
            out.add(new LevelView(n, runs));
        }
        return new TreeView(out);
    }

    /** The policy's state after the last flush or decision. */
    PolicyState state() {
        return state;
    }

    boolean lagging() {
        return policy.isMergeLagging(view(), state);
    }

    boolean idle() {
        return running.isEmpty();
    }

    int runningJobs() {
        return running.size();
    }

    /** A flush of 10..40 bytes over a random key range; a third of them narrow and ascending, some with deletes. */
    void flush() {
        clock += 10;
        flushIndex++;
        int lo;
        int width;
        if (random.nextInt(3) == 0) {
            lo = (int) ((flushIndex * 37) % (KEYS - 20));
            width = 5 + random.nextInt(10);
        } else {
            lo = random.nextInt(KEYS - 1000);
            width = 50 + random.nextInt(900);
        }
        long bytes = 10 + random.nextInt(31);
        long tombstones = random.nextInt(4) == 0 ? random.nextInt((int) bytes) : 0;
        SSTableInfo t = SSTableInfo.builder(nextId++).keys(key(lo), key(lo + width)).bytes(bytes).entries(bytes)
                .tombstones(tombstones).sequences(sequence + 1, sequence + bytes).flush(flushIndex)
                .createdMillis(clock).lastAccessMillis(clock - random.nextInt(500))
                .oldestTombstoneMillis(tombstones > 0 ? clock : SSTableInfo.NO_TOMBSTONE).build();
        sequence += bytes;
        levels.get(0).add(0, t);
        state = policy.onFlush(state, view());
    }

    /** Asks the policy until it wants nothing, starting each job it returns (checked against the contract). */
    List<MergeJob> schedule() {
        List<MergeJob> started = new ArrayList<>();
        for (int i = 0; ; i++) {
            if (i > 10_000) {
                fail("%s: more than 10,000 jobs in one consultation", label);
            }
            Decision d = policy.decide(view(), state);
            state = policy.decodeState(d.state().encode());
            if (d.jobs().isEmpty()) {
                return started;
            }
            for (MergeJob job : d.jobs()) {
                check(job);
                running.add(job);
                job.inputs().forEach(t -> compacting.add(t.id()));
                started.add(job);
            }
        }
    }

    /** Finishes running job {@code i} (its outputs installed), then checks every level below 0. */
    void finish(int i) {
        MergeJob job = running.remove(i);
        job.inputs().forEach(t -> compacting.remove(t.id()));
        apply(job);
        assertSortedLevels();
    }

    void finishAny() {
        finish(random.nextInt(running.size()));
    }

    /** Runs the policy as a one-thread engine: every job finishes before the next decision. */
    void settleSequentially() {
        while (true) {
            List<MergeJob> started = schedule();
            if (started.isEmpty()) {
                return;
            }
            while (!running.isEmpty()) {
                finish(0);
            }
        }
    }

    private void check(MergeJob job) {
        int out = job.outputLevel();
        assertThat(out).as("%s: output level of %s", label, job).isLessThan(numLevels);
        KeyRange hull = KeyRange.of(job.inputs());
        for (SSTableInfo t : job.inputs()) {
            assertThat(compacting).as("%s: %s takes a busy file", label, job).doesNotContain(t.id());
            assertThat(levelOf(t.id())).as("%s: %s takes a file not in the tree", label, job).isNotNegative();
        }
        List<Long> inputIds = LeveledViews.ids(job);
        if (out > 0) {
            for (SSTableInfo t : levels.get(out)) {
                if (hull.overlaps(t)) {
                    assertThat(job.kind()).as("%s: %s moves onto overlapping file %d", label, job, t.id())
                            .isNotEqualTo(MergeKind.TRIVIAL_MOVE);
                    assertThat(inputIds).as("%s: %s leaves out overlapping L%d file %d", label, job, out, t.id())
                            .contains(t.id());
                }
            }
            for (MergeJob other : running) {
                assertThat(other.outputLevel() == out && overlaps(hull, KeyRange.of(other.inputs())))
                        .as("%s: %s overlaps running %s in L%d", label, job, other, out).isFalse();
            }
        }
        // Newest wins: no level-0 file older than one the job takes down may stay above it with common keys.
        long newestTaken = -1;
        List<SSTableInfo> fromL0 = new ArrayList<>();
        for (SSTableInfo t : job.inputs()) {
            if (levelOf(t.id()) == 0) {
                newestTaken = Math.max(newestTaken, t.maxSequence());
                fromL0.add(t);
            }
        }
        if (newestTaken >= 0 && out > 0) {
            KeyRange l0Range = KeyRange.of(fromL0);
            for (SSTableInfo t : levels.get(0)) {
                if (!inputIds.contains(t.id()) && t.maxSequence() < newestTaken && l0Range.overlaps(t)) {
                    fail("%s: %s takes level-0 data below older level-0 file %d", label, job, t.id());
                }
            }
        }
    }

    private static boolean overlaps(KeyRange a, KeyRange b) {
        return a.min().compareTo(b.max()) <= 0 && b.min().compareTo(a.max()) <= 0;
    }

    private int levelOf(long id) {
        for (int n = 0; n < numLevels; n++) {
            for (SSTableInfo t : levels.get(n)) {
                if (t.id() == id) {
                    return n;
                }
            }
        }
        return -1;
    }

    private void apply(MergeJob job) {
        int out = job.outputLevel();
        int l0Position = -1;
        for (SSTableInfo in : job.inputs()) {
            List<SSTableInfo> level = levels.get(levelOf(in.id()));
            if (level == levels.get(0) && l0Position < 0) {
                l0Position = level.indexOf(in);
            }
            level.removeIf(t -> t.id() == in.id());
        }
        clock += 1;
        List<SSTableInfo> outputs = new ArrayList<>();
        if (job.kind() == MergeKind.TRIVIAL_MOVE) {
            trivialMoves++;
            outputs.add(job.inputs().get(0).withCompacting(false));
        } else if (job.kind() == MergeKind.VIRTUAL) {
            virtualJobs++;
            outputs.add(virtual(job));
        } else {
            realJobs++;
            outputs.addAll(cut(job));
        }
        if (out == 0) {
            levels.get(0).addAll(Math.max(0, l0Position), outputs);
        } else {
            levels.get(out).addAll(outputs);
            levels.get(out).sort((a, b) -> a.minKey().compareTo(b.minKey()));
        }
    }

    /** The one virtual file a virtual job writes: the inputs' union key range, bytes and tombstones. */
    private SSTableInfo virtual(MergeJob job) {
        KeyRange hull = KeyRange.of(job.inputs());
        long bytes = 0;
        long tombstones = 0;
        long oldestTombstone = SSTableInfo.NO_TOMBSTONE;
        int parents = 0;
        for (SSTableInfo t : job.inputs()) {
            bytes += t.bytes();
            tombstones += t.tombstones();
            oldestTombstone = Math.min(oldestTombstone, t.oldestTombstoneMillis());
            parents += t.realTables();
        }
        return SSTableInfo.builder(nextId++).keys(hull.min(), hull.max()).bytes(bytes).entries(bytes)
                .tombstones(tombstones).oldestTombstoneMillis(oldestTombstone)
                .sequences(job.inputs().stream().mapToLong(SSTableInfo::minSequence).min().orElseThrow(),
                        job.inputs().stream().mapToLong(SSTableInfo::maxSequence).max().orElseThrow())
                .flushes(job.inputs().stream().mapToLong(SSTableInfo::minFlushIndex).min().orElseThrow(),
                        job.inputs().stream().mapToLong(SSTableInfo::maxFlushIndex).max().orElseThrow())
                .createdMillis(clock).parents(parents).build();
    }

    /** Starts {@code job} outside a consultation (a read's materialisation), checked against the contract. */
    void start(MergeJob job) {
        check(job);
        running.add(job);
        job.inputs().forEach(t -> compacting.add(t.id()));
    }

    private List<SSTableInfo> cut(MergeJob job) {
        KeyRange hull = KeyRange.of(job.inputs());
        int lo = keyOf(hull.min());
        int hi = keyOf(hull.max());
        long bytes = 0;
        long tombstones = 0;
        long oldestTombstone = SSTableInfo.NO_TOMBSTONE;
        long minSeq = Long.MAX_VALUE;
        long maxSeq = Long.MIN_VALUE;
        long minFlush = Long.MAX_VALUE;
        long maxFlush = Long.MIN_VALUE;
        for (SSTableInfo t : job.inputs()) {
            bytes += t.bytes();
            tombstones += t.tombstones();
            oldestTombstone = Math.min(oldestTombstone, t.oldestTombstoneMillis());
            minSeq = Math.min(minSeq, t.minSequence());
            maxSeq = Math.max(maxSeq, t.maxSequence());
            minFlush = Math.min(minFlush, t.minFlushIndex());
            maxFlush = Math.max(maxFlush, t.maxFlushIndex());
        }
        boolean bottommost = true;
        for (int n = job.outputLevel() + 1; n < numLevels; n++) {
            for (SSTableInfo t : levels.get(n)) {
                bottommost &= !hull.overlaps(t);
            }
        }
        if (bottommost) {
            tombstones = 0;
            oldestTombstone = SSTableInfo.NO_TOMBSTONE;
        }
        long target = targetBytes(job.cut());
        int pieces = (int) Math.max(1, Math.min((bytes + target - 1) / target, hi - lo + 1));
        List<SSTableInfo> out = new ArrayList<>();
        for (int p = 0; p < pieces; p++) {
            int from = lo + (int) ((long) (hi - lo + 1) * p / pieces);
            int to = lo + (int) ((long) (hi - lo + 1) * (p + 1) / pieces) - 1;
            long b = bytes / pieces + (p < bytes % pieces ? 1 : 0);
            long ts = Math.min(b, tombstones / pieces + (p < tombstones % pieces ? 1 : 0));
            out.add(SSTableInfo.builder(nextId++).keys(key(from), key(to)).bytes(b).entries(b).tombstones(ts)
                    .sequences(minSeq, maxSeq).flushes(minFlush, maxFlush).createdMillis(clock)
                    .oldestTombstoneMillis(ts > 0 ? oldestTombstone : SSTableInfo.NO_TOMBSTONE).build());
        }
        return out;
    }

    private static long targetBytes(OutputCut cut) {
        if (cut instanceof OutputCut.ByTargetSize c) {
            return c.targetBytes();
        } else if (cut instanceof OutputCut.AtGrandparentBoundaries c) {
            return c.targetBytes();
        } else if (cut instanceof OutputCut.AtCursor c) {
            return c.targetBytes();
        }
        return Long.MAX_VALUE;
    }

    /** Every level below 0 is one sorted run: ascending, pairwise disjoint. */
    void assertSortedLevels() {
        for (int n = 1; n < numLevels; n++) {
            List<SSTableInfo> files = levels.get(n);
            for (int i = 1; i < files.size(); i++) {
                assertThat(files.get(i - 1).maxKey()).as("%s: L%d files %d and %d overlap", label, n,
                        files.get(i - 1).id(), files.get(i).id()).isLessThan(files.get(i).minKey());
            }
        }
    }

    /** Bytes of every file in the tree: conserved by the model, so a lost or doubled file shows. */
    long totalBytes() {
        long sum = 0;
        for (List<SSTableInfo> level : levels) {
            sum += Tree.total(level);
        }
        return sum;
    }

    List<SSTableInfo> level(int n) {
        return levels.get(n);
    }
}
