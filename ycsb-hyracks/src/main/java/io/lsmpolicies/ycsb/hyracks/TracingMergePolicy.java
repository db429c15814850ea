package io.lsmpolicies.ycsb.hyracks;

import java.util.Map;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;

/**
 * Passes every call on to the index's real merge policy (AsterixDB's prefix, or ours through the adapter)
 * unchanged, first telling the {@link FlushTrace} that Hyracks installed an output. Hyracks 0.3.8 calls
 * {@code diskComponentAdded} once after each flush and each merge it installs, holding the index's
 * operation-tracker lock, and before the policy can schedule anything: so the trace sees the components exactly as
 * the install left them.
 */
final class TracingMergePolicy implements ILSMMergePolicy {
    private final ILSMMergePolicy delegate;
    private final FlushTrace trace;

    TracingMergePolicy(ILSMMergePolicy delegate, FlushTrace trace) {
        this.delegate = delegate;
        this.trace = trace;
    }

    @Override
    public void diskComponentAdded(ILSMIndex index, boolean fullMergeIsRequested) throws HyracksDataException {
        trace.installed(index.getDiskComponents());
        delegate.diskComponentAdded(index, fullMergeIsRequested);
    }

    @Override
    public void configure(Map<String, String> properties) {
        delegate.configure(properties);
    }

    @Override
    public boolean isMergeLagging(ILSMIndex index) throws HyracksDataException {
        return delegate.isMergeLagging(index);
    }

    @Override
    public String toString() {
        return "TracingMergePolicy(" + delegate + ")";
    }
}
