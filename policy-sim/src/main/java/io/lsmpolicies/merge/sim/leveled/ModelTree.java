package io.lsmpolicies.merge.sim.leveled;

import io.lsmpolicies.merge.spi.LevelView;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.OutputCut;
import io.lsmpolicies.merge.spi.OutputCutter;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The files of a leveled LSM-tree at key level, and the execution of merge jobs on them, under the contract the
 * engine (lsm-core {@code LsmStore}) follows:
 * <ul>
 *   <li>Level 0 holds flushed files that may overlap, <b>newest first</b> (by largest sequence number); every
 *       level {@code >= 1} is one sorted run: files ascending by key, key ranges pairwise disjoint.</li>
 *   <li>A {@link MergeKind#REAL} job reads all its inputs (from any levels), keeps the newest version of each key,
 *       drops tombstones only when the job is bottommost (no file outside the inputs that is not newer than
 *       every input overlaps an input's key range: the engine's rule), and writes the rest to
 *       {@code outputLevel}, cut as the job's {@code OutputCut} says ({@link io.lsmpolicies.merge.spi.OutputCutter}, the engine's own).</li>
 *   <li>A {@link MergeKind#TRIVIAL_MOVE} moves its one input to {@code outputLevel} unchanged: nothing is read or
 *       written.</li>
 *   <li>A job that names a file that is not live, asks for a virtual merge, or would leave two files of a
 *       level {@code >= 1} overlapping is refused with an {@link IllegalStateException} naming the job's reason;
 *       the tree must then be discarded.</li>
 * </ul>
 * The logical clock is the number of operations ingested so far: a file's creation time. Mutable and not
 * thread-safe; {@link #copy()} is cheap (files are immutable and shared).
 */
public final class ModelTree {
    private static final Comparator<ModelFile> NEWEST_FIRST = Comparator
            .comparingLong((ModelFile f) -> f.info().maxSequence()).thenComparingLong(ModelFile::id).reversed();
    private static final Comparator<ModelFile> BY_KEY = Comparator.comparingInt(ModelFile::minKey);

    private final long entryBytes;
    private final List<List<ModelFile>> levels;
    private long nextId;
    private long clock;

    /**
     * An empty tree whose entries are {@code entryBytes} bytes each.
     *
     * @param entryBytes bytes per entry
     * @throws IllegalArgumentException if {@code entryBytes < 1}
     */
    public ModelTree(long entryBytes) {
        if (entryBytes < 1) {
            throw new IllegalArgumentException("entry bytes must be >= 1, was " + entryBytes);
        }
        this.entryBytes = entryBytes;
        this.levels = new ArrayList<>();
        this.levels.add(new ArrayList<>());
        this.nextId = 1;
    }

    private ModelTree(ModelTree other) {
        this.entryBytes = other.entryBytes;
        this.levels = new ArrayList<>(other.levels.size());
        for (List<ModelFile> level : other.levels) {
            this.levels.add(new ArrayList<>(level));
        }
        this.nextId = other.nextId;
        this.clock = other.clock;
    }

    /** {@return an independent copy (the files themselves are shared: they are immutable)} */
    public ModelTree copy() {
        return new ModelTree(this);
    }

    /** {@return the bytes per entry} */
    public long entryBytes() {
        return entryBytes;
    }

    /**
     * Operations ingested so far (the clock of the last flush).
     *
     * @return the operations
     */
    public long clock() {
        return clock;
    }

    /**
     * Installs {@code flush} as the newest file of level 0 and advances the clock to its time.
     *
     * @param flush the flush
     * @return the new file
     */
    public ModelFile flush(FlushSequence.Flush flush) {
        clock = flush.clock();
        ModelFile file = new ModelFile(nextId++, flush.keys(), flush.sequences(), flush.tombstones(), flush.index(),
                flush.index(), clock, entryBytes);
        levels.get(0).add(0, file);
        return file;
    }

    /**
     * Runs {@code job} on this tree (see the class comment for the rules).
     *
     * @param job the job
     * @return what it did
     * @throws IllegalStateException if the job is not one this tree can run; the tree is then unusable
     */
    public JobOutcome apply(MergeJob job) {
        if (job.kind() == MergeKind.VIRTUAL) {
            throw refused(job, "asks for a virtual merge; the model runs real merges and trivial moves only");
        }
        List<ModelFile> inputs = new ArrayList<>(job.inputs().size());
        for (SSTableInfo t : job.inputs()) {
            ModelFile f = find(t.id());
            if (f == null) {
                throw refused(job, "names SSTable " + t.id() + ", which is not live");
            }
            inputs.add(f);
        }
        if (job.kind() == MergeKind.TRIVIAL_MOVE) {
            remove(inputs);
            install(job, job.outputLevel(), inputs);
            return new JobOutcome(MergeKind.TRIVIAL_MOVE, job.outputLevel(), 0, 0, inputs);
        }
        List<ModelFile> grandparents = List.copyOf(level(job.outputLevel() + 1));
        boolean bottommost = isBottommost(inputs);
        long read = 0;
        for (ModelFile f : inputs) {
            read += f.info().bytes();
        }
        remove(inputs);
        List<ModelFile> outputs = merge(inputs, cutter(job.cut(), grandparents), bottommost);
        install(job, job.outputLevel(), outputs);
        long written = 0;
        for (ModelFile f : outputs) {
            written += f.info().bytes();
        }
        return new JobOutcome(MergeKind.REAL, job.outputLevel(), read, written, outputs);
    }

    /**
     * {@return level {@code n}'s files (empty past the deepest level): level 0 newest first, deeper levels by key}
     *
     * @param n a level
     */
    public List<ModelFile> level(int n) {
        return n < levels.size() ? Collections.unmodifiableList(levels.get(n)) : List.of();
    }

    /** {@return number of levels up to the deepest non-empty one (at least 1: level 0 always exists)} */
    public int levelCount() {
        int n = levels.size();
        while (n > 1 && levels.get(n - 1).isEmpty()) {
            n--;
        }
        return n;
    }

    /**
     * {@return total bytes of level {@code n}}
     *
     * @param n a level
     */
    public long levelBytes(int n) {
        long sum = 0;
        for (ModelFile f : level(n)) {
            sum += f.info().bytes();
        }
        return sum;
    }

    /**
     * The policies' view: one run per level-0 file (newest first), one sorted run per deeper level, no trailing
     * empty level, nothing marked compacting (the model runs every job before asking again).
     *
     * @return the view
     */
    public TreeView view() {
        int count = levelCount();
        List<LevelView> out = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            List<ModelFile> files = levels.get(n);
            List<SortedRun> runs = new ArrayList<>();
            if (n == 0) {
                for (ModelFile f : files) {
                    runs.add(SortedRun.of(f.info()));
                }
            } else if (!files.isEmpty()) {
                List<SSTableInfo> tables = new ArrayList<>(files.size());
                for (ModelFile f : files) {
                    tables.add(f.info());
                }
                runs.add(new SortedRun(tables));
            }
            out.add(new LevelView(n, runs));
        }
        return new TreeView(out);
    }

    /**
     * Checks the layout: ids unique, level 0 newest first, every deeper level ascending by key with disjoint
     * ranges.
     *
     * @throws IllegalStateException naming the level and files at fault
     */
    public void checkInvariants() {
        Set<Long> ids = new HashSet<>();
        for (int n = 0; n < levels.size(); n++) {
            List<ModelFile> files = levels.get(n);
            for (int i = 0; i < files.size(); i++) {
                ModelFile f = files.get(i);
                if (!ids.add(f.id())) {
                    throw new IllegalStateException("file " + f.id() + " appears twice in the tree");
                }
                if (i == 0) {
                    continue;
                }
                ModelFile prev = files.get(i - 1);
                if (n == 0 && prev.info().maxSequence() < f.info().maxSequence()) {
                    throw new IllegalStateException("level 0 is not newest first: " + prev + " before " + f);
                }
                if (n > 0 && prev.maxKey() >= f.minKey()) {
                    throw new IllegalStateException("level " + n + ": " + prev + " and " + f + " overlap or are "
                            + "out of order");
                }
            }
        }
    }

    /**
     * Checks that {@code files} (a job's outputs, say) sit where a reader finds versions newest first: a reader
     * looks at level 0 in list order, then level 1, 2, ...; of any two files holding the same key, the one it
     * looks at first must hold the newer version. A job that moves or writes data past older versions of the
     * same keys (below them, or above newer ones) breaks this.
     *
     * @param files the files to check
     * @throws IllegalStateException naming the key, the files and their levels
     */
    public void checkReadOrder(List<ModelFile> files) {
        for (ModelFile f : files) {
            int[] at = position(f);
            if (at == null) {
                continue;
            }
            for (int m = 0; m < levels.size(); m++) {
                List<ModelFile> level = levels.get(m);
                for (int i = 0; i < level.size(); i++) {
                    ModelFile g = level.get(i);
                    if (g == f || !g.overlaps(f)) {
                        continue;
                    }
                    boolean gFirst = m < at[0] || (m == at[0] && i < at[1]);
                    checkPair(gFirst ? g : f, gFirst ? f : g);
                }
            }
        }
    }

    /** Every key in both files must be newer in {@code first}, the one a reader looks at first. */
    private void checkPair(ModelFile first, ModelFile second) {
        int i = 0;
        int j = 0;
        while (i < first.size() && j < second.size()) {
            int c = Integer.compare(first.keyAt(i), second.keyAt(j));
            if (c == 0) {
                if (first.sequenceAt(i) <= second.sequenceAt(j)) {
                    throw new IllegalStateException("key " + first.keyAt(i) + ": a reader would find version "
                            + first.sequenceAt(i) + " in " + first + " (level " + position(first)[0]
                            + ") before the newer version " + second.sequenceAt(j) + " in " + second + " (level "
                            + position(second)[0] + ")");
                }
                i++;
                j++;
            } else if (c < 0) {
                i++;
            } else {
                j++;
            }
        }
    }

    /** {level, index} of {@code f} in this tree, or null. */
    private int[] position(ModelFile f) {
        for (int m = 0; m < levels.size(); m++) {
            int i = levels.get(m).indexOf(f);
            if (i >= 0) {
                return new int[] {m, i};
            }
        }
        return null;
    }

    /**
     * {@return what a reader sees: the newest version's sequence number of every key whose newest version is not
     * a delete}
     */
    public Map<Integer, Long> visibleVersions() {
        Map<Integer, Long> newest = new HashMap<>();
        Map<Integer, Boolean> deleted = new HashMap<>();
        for (List<ModelFile> level : levels) {
            for (ModelFile f : level) {
                for (int i = 0; i < f.size(); i++) {
                    Long seen = newest.get(f.keyAt(i));
                    if (seen == null || seen < f.sequenceAt(i)) {
                        newest.put(f.keyAt(i), f.sequenceAt(i));
                        deleted.put(f.keyAt(i), f.tombstoneAt(i));
                    }
                }
            }
        }
        newest.keySet().removeIf(deleted::get);
        return newest;
    }

    /**
     * A hash of the tree's content (each level's files by content, in order), not of file ids or the clock: two
     * trees holding the same data in the same files have the same hash. Different seeds give independent hashes.
     */
    long contentHash(long seed) {
        long h = seed;
        for (int n = 0; n < levels.size(); n++) {
            h = mix(h + 0x632BE59BD9B4E019L * (n + 1));
            for (ModelFile f : levels.get(n)) {
                h = mix(h ^ (f.fingerprint() + seed));
            }
        }
        return h;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }

    private ModelFile find(long id) {
        for (List<ModelFile> level : levels) {
            for (ModelFile f : level) {
                if (f.id() == id) {
                    return f;
                }
            }
        }
        return null;
    }

    private void remove(List<ModelFile> files) {
        Set<Long> ids = new HashSet<>();
        for (ModelFile f : files) {
            ids.add(f.id());
        }
        for (List<ModelFile> level : levels) {
            level.removeIf(f -> ids.contains(f.id()));
        }
    }

    private void install(MergeJob job, int n, List<ModelFile> files) {
        while (levels.size() <= n) {
            levels.add(new ArrayList<>());
        }
        List<ModelFile> level = levels.get(n);
        level.addAll(files);
        if (n == 0) {
            level.sort(NEWEST_FIRST);
            return;
        }
        level.sort(BY_KEY);
        for (int i = 1; i < level.size(); i++) {
            if (level.get(i - 1).maxKey() >= level.get(i).minKey()) {
                throw refused(job, "would leave " + level.get(i - 1) + " and " + level.get(i) + " overlapping in "
                        + "level " + n + "; a job into a level >= 1 must take every file of that level its key "
                        + "range overlaps");
            }
        }
    }

    /** The engine's rule: nothing outside the inputs that is not newer than all of them overlaps an input. */
    private boolean isBottommost(List<ModelFile> inputs) {
        Set<Long> ids = new HashSet<>();
        long maxSequence = Long.MIN_VALUE;
        for (ModelFile f : inputs) {
            ids.add(f.id());
            maxSequence = Math.max(maxSequence, f.info().maxSequence());
        }
        for (List<ModelFile> level : levels) {
            for (ModelFile other : level) {
                if (ids.contains(other.id()) || other.info().minSequence() > maxSequence) {
                    continue;
                }
                for (ModelFile in : inputs) {
                    if (in.overlaps(other)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * Merge by sorting: each entry packed into a long as key (high 32 bits), then sequence descending, then the
     * tombstone flag, so that after sorting the first entry of each key is its newest version. Faster than a
     * heap over the inputs for the model's small files (the search runs millions of merges).
     */
    /** The engine's cutter over the model's files; keys become their 4-byte big-endian form. */
    private static OutputCutter cutter(OutputCut cut, List<ModelFile> grandparents) {
        return OutputCutter.of(cut, grandparents.stream().map(f -> ModelFile.keyBytes(f.minKey())).toArray(byte[][]::new),
                grandparents.stream().map(f -> ModelFile.keyBytes(f.maxKey())).toArray(byte[][]::new),
                grandparents.stream().mapToLong(f -> f.info().bytes()).toArray());
    }

    private List<ModelFile> merge(List<ModelFile> inputs, OutputCutter cutter, boolean bottommost) {
        int total = 0;
        long minFlush = Long.MAX_VALUE;
        long maxFlush = Long.MIN_VALUE;
        for (ModelFile f : inputs) {
            total += f.size();
            minFlush = Math.min(minFlush, f.info().minFlushIndex());
            maxFlush = Math.max(maxFlush, f.info().maxFlushIndex());
        }
        long[] packed = new long[total];
        int p = 0;
        for (ModelFile f : inputs) {
            for (int i = 0; i < f.size(); i++) {
                packed[p++] = ((long) f.keyAt(i) << 32) | ((ModelFile.MAX_SEQUENCE - f.sequenceAt(i)) << 1)
                        | (f.tombstoneAt(i) ? 1 : 0);
            }
        }
        Arrays.sort(packed);
        int[] keys = new int[total];
        long[] seqs = new long[total];
        boolean[] tombs = new boolean[total];
        List<Integer> cuts = new ArrayList<>();
        int n = 0;
        int fileStart = 0;
        for (int i = 0; i < total; i++) {
            int key = (int) (packed[i] >>> 32);
            if (i > 0 && key == (int) (packed[i - 1] >>> 32)) {
                continue;
            }
            boolean tomb = (packed[i] & 1) != 0;
            if (tomb && bottommost) {
                continue;
            }
            if (cutter.cutBefore(ModelFile.keyBytes(key), (n - fileStart) * entryBytes)) {
                cuts.add(n);
                fileStart = n;
            }
            keys[n] = key;
            seqs[n] = ModelFile.MAX_SEQUENCE - ((packed[i] & 0xFFFFFFFFL) >>> 1);
            tombs[n] = tomb;
            n++;
        }
        cuts.add(n);
        List<ModelFile> out = new ArrayList<>(cuts.size());
        int from = 0;
        for (int to : cuts) {
            if (to > from) {
                out.add(new ModelFile(nextId++, Arrays.copyOfRange(keys, from, to),
                        Arrays.copyOfRange(seqs, from, to), Arrays.copyOfRange(tombs, from, to),
                        minFlush, maxFlush, clock, entryBytes));
            }
            from = to;
        }
        return out;
    }

    private static IllegalStateException refused(MergeJob job, String why) {
        return new IllegalStateException("merge job (" + job.reason() + ") " + why);
    }
}
