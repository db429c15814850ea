package io.lsmpolicies.merge.hyracks;

import java.util.Map;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;

/**
 * Passes every call on to a Hyracks merge policy unchanged, counting the times {@code isMergeLagging} answered
 * true (a flush had to wait for a merge) and running a hook each time, e.g. to let held merges go.
 */
final class LaggingProbe implements ILSMMergePolicy {
    private final ILSMMergePolicy delegate;
    private final Runnable onLagging;
    private int lagging;

    LaggingProbe(ILSMMergePolicy delegate, Runnable onLagging) {
        this.delegate = delegate;
        this.onLagging = onLagging;
    }

    @Override
    public void diskComponentAdded(ILSMIndex index, boolean fullMergeIsRequested) throws HyracksDataException {
        delegate.diskComponentAdded(index, fullMergeIsRequested);
    }

    @Override
    public void configure(Map<String, String> properties) {
        delegate.configure(properties);
    }

    @Override
    public boolean isMergeLagging(ILSMIndex index) throws HyracksDataException {
        boolean answer = delegate.isMergeLagging(index);
        if (answer) {
            lagging++;
            onLagging.run();
        }
        return answer;
    }

    /** How many times a flush was told to wait. REQUIRES: no flush or merge is running. */
    int laggingAnswers() {
        return lagging;
    }
}
