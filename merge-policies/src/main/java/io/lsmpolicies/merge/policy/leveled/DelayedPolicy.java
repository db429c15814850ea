package io.lsmpolicies.merge.policy.leveled;

import io.lsmpolicies.merge.spi.Decision;
import io.lsmpolicies.merge.spi.LevelView;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.MergeKind;
import io.lsmpolicies.merge.spi.MergePolicy;
import io.lsmpolicies.merge.spi.PolicyParameters;
import io.lsmpolicies.merge.spi.PolicyState;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.SortedRun;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code delayed}: delayed compaction (dCompaction; Pan, Yue, Xiong, "dCompaction: Speeding up Compaction of the
 * LSM-Tree via Delayed Compaction", JCST 32(1):41-54, 2017,
 * doi:10.1007/s11390-017-1704-4) around a leveled-family policy, which still decides every merge.
 * Contract:
 * <ul>
 *   <li>{@link #decide}: the wrapped policy's decision, with each {@link MergeKind#REAL} job whose inputs hold
 *       fewer than {@code vct} real SSTables, into a level {@code >= 1}, turned into a {@link MergeKind#VIRTUAL}
 *       job with the same inputs, output level and cut (the paper's Algorithm 1, section 3.3); the state, and every other job (trivial
 *       moves, real jobs of at least {@code vct} real SSTables), unchanged. {@code vct = 0}: exactly the wrapped
 *       policy's decisions.</li>
 *   <li>{@link #onVirtualRead}: a {@link MergeKind#REAL} job materialising the virtual SSTable a read met, if it
 *       is derived from at least {@code vsmt} real SSTables and is not being compacted (Algorithm 2, section
 *       3.4): its one input is that SSTable, its output level the SSTable's own, cut as the wrapped policy cuts
 *       that level's output (grandparent boundaries, the round-robin cursor, or one file under tiering).</li>
 *   <li>State, {@link #onFlush} and {@link #isMergeLagging}: the wrapped policy's.</li>
 * </ul>
 *
 * <p><b>What VCT counts.</b> Algorithm 1 compares VCT with the count of real SSTables in the compaction. We read
 * that as the real SSTables the merge would read: {@link SSTableInfo#realTables()} summed over the inputs, i.e. a
 * real input counts 1 and a virtual input counts its parents. So once a chain of virtual compactions has gathered
 * {@code vct} real SSTables the next merge is real, and no virtual SSTable this policy writes points at more
 * than {@code vct - 1} real ones; counting a virtual input as 1 would let parents pile up without bound.
 *
 * <p><b>What the engine does.</b> A virtual job writes one virtual SSTable at its output level covering the
 * union of the inputs' key ranges, whose parents are the real inputs plus the parents of the virtual inputs
 * (flattened); a real job with virtual inputs reads their parents. The paper writes several size-cut virtual
 * siblings sharing the same parents instead; reads and materialisation touch the same parents either way, and
 * cutting by size would need the data read. The VSMT job therefore has no sibling to take along (section 3.4
 * merges a virtual SSTable's adjacent siblings with it).
 *
 * <p><b>Defaults.</b> {@code vct} 12 and {@code vsmt} 5, the values of the paper's experiments (section 4),
 * inside the ranges it recommends (8..16 and 3..6). Algorithm 2 materialises at {@code parents >= vsmt}, where
 * section 3.4's prose asks for more than VSMT; we follow the algorithm.
 */
public final class DelayedPolicy implements MergePolicy {
    private final PolicyParameters parameters;
    private final ComposedPolicy wrapped;
    private final int vct;
    private final int vsmt;

    DelayedPolicy(PolicyParameters parameters, ComposedPolicy wrapped, int vct, int vsmt) {
        this.parameters = parameters;
        this.wrapped = wrapped;
        this.vct = vct;
        this.vsmt = vsmt;
    }

    /** {@return the wrapped policy, which decides what to merge} */
    public MergePolicy wrapped() {
        return wrapped;
    }

    /** {@return the virtual compaction threshold: real merges of fewer real SSTables become virtual; 0 never} */
    public int vct() {
        return vct;
    }

    /**
     * {@return the virtual SSTable merge threshold: virtual SSTables of at least this many real parents are
     * materialised}
     */
    public int vsmt() {
        return vsmt;
    }

    @Override
    public String name() {
        return DelayedPolicyFactory.NAME;
    }

    @Override
    public PolicyParameters parameters() {
        return parameters;
    }

    @Override
    public PolicyState initialState() {
        return wrapped.initialState();
    }

    @Override
    public PolicyState decodeState(byte[] encoded) {
        return wrapped.decodeState(encoded);
    }

    @Override
    public PolicyState onFlush(PolicyState state, TreeView view) {
        return wrapped.onFlush(state, view);
    }

    @Override
    public Decision decide(TreeView view, PolicyState state) {
        Decision d = wrapped.decide(view, state);
        if (vct == 0) {
            return d;
        }
        List<MergeJob> jobs = new ArrayList<>(d.jobs().size());
        for (MergeJob job : d.jobs()) {
            jobs.add(delayed(job));
        }
        return new Decision(jobs, d.state());
    }

    /**
     * {@code job} made virtual if it is a real merge of fewer than {@code vct} real SSTables into a level
     * {@code >= 1}, else {@code job}. A merge into level 0 (tiering's sorted runs) stays real: the engine keeps
     * level 0 in creation order, which a virtual table spanning several runs would not have.
     */
    private MergeJob delayed(MergeJob job) {
        if (job.kind() != MergeKind.REAL || job.outputLevel() == 0) {
            return job;
        }
        long real = 0;
        for (SSTableInfo t : job.inputs()) {
            real += t.realTables();
        }
        if (real >= vct) {
            return job;
        }
        return new MergeJob(job.inputs(), job.outputLevel(), job.cut(), MergeKind.VIRTUAL, job.reason()
                + "; virtual: it reads " + real + " real SSTables, fewer than vct " + vct);
    }

    @Override
    public Optional<MergeJob> onVirtualRead(TreeView view, PolicyState state, SSTableInfo table) {
        for (LevelView level : view.levels()) {
            for (SortedRun run : level.runs()) {
                for (SSTableInfo t : run.tables()) {
                    if (t.id() == table.id()) {
                        return table.compacting() ? Optional.empty() : materialise(t, level.number(), state);
                    }
                }
            }
        }
        return Optional.empty(); // no longer in the tree: a merge has taken it already
    }

    /** The VSMT job for virtual SSTable {@code t} of level {@code level}, if it is due and free. */
    private Optional<MergeJob> materialise(SSTableInfo t, int level, PolicyState state) {
        if (!t.virtual() || t.compacting() || t.parents() < vsmt) {
            return Optional.empty();
        }
        return Optional.of(new MergeJob(List.of(t), level, wrapped.outputCut(state, level), MergeKind.REAL,
                "VSMT: a read met virtual SSTable " + t.id() + " in L" + level + ", derived from " + t.parents()
                        + " real SSTables (vsmt " + vsmt + "): materialised in L" + level));
    }

    @Override
    public boolean isMergeLagging(TreeView view, PolicyState state) {
        return wrapped.isMergeLagging(view, state);
    }

    @Override
    public String toString() {
        return DelayedPolicyFactory.NAME + "(vct=" + vct + ", vsmt=" + vsmt + "; " + wrapped + ")";
    }
}
