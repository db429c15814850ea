package io.lsmpolicies.merge.hyracks;

import io.lsmpolicies.merge.spi.Key;
import io.lsmpolicies.merge.spi.MergeJob;
import io.lsmpolicies.merge.spi.SSTableInfo;
import io.lsmpolicies.merge.spi.TreeView;
import java.util.ArrayList;
import java.util.List;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponent.ComponentState;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;

/**
 * An immutable snapshot of a Hyracks index's disk components as the stack view our policies decide on, with
 * the way back from a policy's {@link MergeJob} to the Hyracks components to merge.
 *
 * <p>Order: Hyracks keeps {@code ILSMIndex.getDiskComponents()} newest first (a flush is added at index 0, a
 * merge output takes the place of its inputs); the view keeps that order, which is the order of
 * {@link TreeView#stack}. For each component the view holds:
 * <ul>
 *   <li>{@code bytes}: {@link ILSMDiskComponent#getComponentSize()}, the size of its files on disk;</li>
 *   <li>flush indexes {@code minFlushIndex..maxFlushIndex}: its {@link ComponentSequence} plus one, so the
 *       first flush of an index is flush 1 as in the simulator; also used as the sequence numbers;</li>
 *   <li>{@code compacting}: true unless the component is {@code READABLE_UNWRITABLE}, so a component being
 *       merged (or in any transitional state) is never chosen and stack policies wait, as Hyracks' own policies
 *       do;</li>
 *   <li>{@code id}: its position in the snapshot (0 = newest), used only to map jobs back.</li>
 * </ul>
 * Entries, keys and times are not known to Hyracks' component API without reading the component, and no
 * stack policy uses them: they are left neutral (0, empty, 0).
 */
public final class DiskComponentView {
    private final List<ILSMDiskComponent> components;
    private final TreeView view;
    private final long flushes;
    private final boolean anyMerging;

    private DiskComponentView(List<ILSMDiskComponent> components, TreeView view, long flushes, boolean anyMerging) {
        this.components = components;
        this.view = view;
        this.flushes = flushes;
        this.anyMerging = anyMerging;
    }

    /**
     * Snapshots {@code newestFirst}, as {@code ILSMIndex.getDiskComponents()} returns them. REQUIRES: the
     * caller holds the index's operation-tracker lock or otherwise keeps the list from changing while it is
     * copied (Hyracks calls the merge policy with that lock held).
     *
     * @param newestFirst the index's disk components, newest first
     * @return the snapshot
     * @throws IllegalStateException if the components' flush sequences do not strictly decrease newest first
     */
    public static DiskComponentView of(List<? extends ILSMDiskComponent> newestFirst) {
        List<ILSMDiskComponent> components = List.copyOf(newestFirst);
        List<SSTableInfo> tables = new ArrayList<>(components.size());
        ComponentSequence newer = null;
        long flushes = 0;
        boolean merging = false;
        for (int i = 0; i < components.size(); i++) {
            ILSMDiskComponent c = components.get(i);
            ComponentSequence seq = ComponentSequence.of(c);
            if (newer != null && seq.end() >= newer.start()) {
                throw new IllegalStateException("disk components are not newest first with disjoint flush sequences: "
                        + "position " + (i - 1) + " holds " + newer + ", position " + i + " holds " + seq);
            }
            ComponentState state = c.getState();
            merging |= state == ComponentState.READABLE_MERGING;
            tables.add(SSTableInfo.builder(i).bytes(c.getComponentSize()).keys(Key.EMPTY, Key.EMPTY)
                    .sequences(seq.firstFlush(), seq.lastFlush()).flushes(seq.firstFlush(), seq.lastFlush())
                    .compacting(state != ComponentState.READABLE_UNWRITABLE).build());
            if (i == 0) {
                flushes = seq.lastFlush();
            }
            newer = seq;
        }
        return new DiskComponentView(components, TreeView.stackOf(tables), flushes, merging);
    }

    /** {@return the stack view: one level 0, one run per component, newest first} */
    public TreeView treeView() {
        return view;
    }

    /**
     * The number of flushes (and bulk loads) the index has installed, as far as its components show: the last
     * flush index of the newest component, 0 with no component. It survives restarts and merges done by
     * anyone, because it is read from the components' file names; flushes that wrote nothing after the newest
     * component are not visible until the next component appears.
     *
     * @return the flushes, {@code >= 0}
     */
    public long flushes() {
        return flushes;
    }

    /** {@return whether any component is being merged ({@code READABLE_MERGING})} */
    public boolean anyMerging() {
        return anyMerging;
    }

    /** {@return number of components} */
    public int size() {
        return components.size();
    }

    /**
     * The Hyracks components {@code job} merges, newest first as {@code ILSMIndexAccessor.scheduleMerge}
     * expects.
     *
     * @param job    a job a policy decided on this snapshot
     * @param policy the policy's name, for the error message
     * @return the components, newest first
     * @throws IllegalStateException naming {@code policy} if the inputs are not a contiguous newest-first run of
     *                               this snapshot (a stack policy must be stable)
     */
    public List<ILSMDiskComponent> inputsOf(MergeJob job, String policy) {
        List<SSTableInfo> inputs = job.inputs();
        int first = positionOf(inputs.get(0), policy);
        List<ILSMDiskComponent> out = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            int position = positionOf(inputs.get(i), policy);
            if (position != first + i) {
                throw new IllegalStateException("policy '" + policy + "' asked to merge components at positions "
                        + positions(inputs) + " (0 = newest), which are not contiguous newest first");
            }
            out.add(components.get(position));
        }
        return out;
    }

    private int positionOf(SSTableInfo input, String policy) {
        long id = input.id();
        if (id < 0 || id >= components.size()) {
            throw new IllegalStateException("policy '" + policy + "' chose component " + id
                    + ", which is not in this view of " + components.size() + " components");
        }
        return (int) id;
    }

    private static List<Long> positions(List<SSTableInfo> inputs) {
        List<Long> ids = new ArrayList<>(inputs.size());
        for (SSTableInfo t : inputs) {
            ids.add(t.id());
        }
        return ids;
    }
}
