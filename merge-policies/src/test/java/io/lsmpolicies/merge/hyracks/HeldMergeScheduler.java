package io.lsmpolicies.merge.hyracks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.impls.AsynchronousScheduler;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpIoOperationFailedCallback;

/**
 * AsterixDB's default IO scheduler ({@link AsynchronousScheduler}: flushes and merges on background threads),
 * except that a merge is held back until {@link #release} is called. Holding it makes "a merge is running
 * when the next flush arrives" certain instead of a matter of timing: the merge's inputs are marked merging
 * as soon as it is scheduled, and the flush must wait for it through {@code isMergeLagging}.
 */
final class HeldMergeScheduler implements ILSMIOOperationScheduler, AutoCloseable {
    private final AsynchronousScheduler delegate =
            new AsynchronousScheduler(Thread::new, NoOpIoOperationFailedCallback.INSTANCE, 1, 1);
    private final List<ILSMIOOperation> held = new ArrayList<>();

    @Override
    public synchronized void scheduleOperation(ILSMIOOperation operation) throws HyracksDataException {
        if (operation.getIOOpertionType() == LSMIOOperationType.MERGE) {
            held.add(operation);
        } else {
            delegate.scheduleOperation(operation);
        }
    }

    @Override
    public void completeOperation(ILSMIOOperation operation) throws HyracksDataException {
        delegate.completeOperation(operation);
    }

    /** Lets every held merge run, in the order they were scheduled. */
    synchronized void release() {
        for (ILSMIOOperation op : held) {
            delegate.scheduleOperation(op);
        }
        held.clear();
    }

    @Override
    public void close() throws IOException {
        release();
        delegate.close();
    }
}
