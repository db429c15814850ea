package io.lsmpolicies.merge.hyracks;

import java.util.List;
import java.util.Map;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;

/**
 * Passes every call on to a Hyracks merge policy unchanged, first noting the on-disk size Hyracks reports for
 * each disk component it shows, by flush range. Every component Hyracks ever installs is shown at the
 * {@code diskComponentAdded} call that follows it, so the log knows the size of every flush output and merge
 * output, including those merged away within the same flush; the reference run of our policy reads its sizes
 * here. A component whose size changes is reported at once.
 */
final class ComponentSizeLog implements ILSMMergePolicy {
    private final ILSMMergePolicy delegate;
    private final Map<ComponentSequence, Long> sizes;

    /** Logs into {@code sizes}, which may be shared with the log of an earlier run on the same files. */
    ComponentSizeLog(ILSMMergePolicy delegate, Map<ComponentSequence, Long> sizes) {
        this.delegate = delegate;
        this.sizes = sizes;
    }

    @Override
    public void diskComponentAdded(ILSMIndex index, boolean fullMergeIsRequested) throws HyracksDataException {
        note(index.getDiskComponents());
        delegate.diskComponentAdded(index, fullMergeIsRequested);
    }

    @Override
    public void configure(Map<String, String> properties) {
        delegate.configure(properties);
    }

    @Override
    public boolean isMergeLagging(ILSMIndex index) throws HyracksDataException {
        note(index.getDiskComponents());
        return delegate.isMergeLagging(index);
    }

    private void note(List<ILSMDiskComponent> components) {
        for (ILSMDiskComponent c : components) {
            ComponentSequence range = ComponentSequence.of(c);
            long size = c.getComponentSize();
            Long before = sizes.putIfAbsent(range, size);
            if (before != null && before != size) {
                throw new AssertionError("component " + range + " changed size from " + before + " to " + size);
            }
        }
    }
}
