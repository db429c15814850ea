package io.lsmpolicies.merge.hyracks;

import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMOperationTracker;
import org.apache.hyracks.storage.am.lsm.common.api.LSMOperationType;
import org.apache.hyracks.storage.common.IModificationOperationCallback;
import org.apache.hyracks.storage.common.ISearchOperationCallback;

/**
 * An LSM index's operation tracker that also counts the index's reads for a {@link HyracksMergePolicy}: Hyracks
 * 0.3.8's {@code LSMHarness} calls {@code beforeOperation} once for every search it runs (a point search or a
 * range scan, type {@link LSMOperationType#SEARCH}) when the search enters the components, and this counts one read
 * there; everything else goes to the wrapped tracker unchanged. Give it to the index in place of its tracker
 * ({@code LSMBTreeUtil.createLSMTree}'s {@code opTracker}). Hyracks then synchronises, waits and notifies on this
 * object (the index's "operation-tracker lock"), not on the wrapped one, so the wrapped tracker must not rely on its
 * own monitor; Hyracks' {@code ThreadCountingTracker} does not.
 *
 * <p>AsterixDB creates its datasets' trackers itself ({@code PrimaryIndexOperationTracker}, from the dataset's
 * tracker factory), and neither its merge-policy factory interface nor its DDL lets a merge policy wrap them or see
 * the searches; so inside AsterixDB 0.9.8 a read-weighing policy is told 0 reads unless the platform wraps its
 * tracker with this class.
 */
public final class ReadCountingOperationTracker implements ILSMOperationTracker {
    private final ILSMOperationTracker delegate;
    private final HyracksMergePolicy policy;

    /** Counts the searches of the index it is given to into {@code policy}, delegating to {@code delegate}. */
    public ReadCountingOperationTracker(ILSMOperationTracker delegate, HyracksMergePolicy policy) {
        this.delegate = delegate;
        this.policy = policy;
    }

    @Override
    public void beforeOperation(ILSMIndex index, LSMOperationType type, ISearchOperationCallback search,
            IModificationOperationCallback modification) throws HyracksDataException {
        delegate.beforeOperation(index, type, search, modification);
        if (type == LSMOperationType.SEARCH) {
            policy.recordReads(1);
        }
    }

    @Override
    public void afterOperation(ILSMIndex index, LSMOperationType type, ISearchOperationCallback search,
            IModificationOperationCallback modification) throws HyracksDataException {
        delegate.afterOperation(index, type, search, modification);
    }

    @Override
    public void completeOperation(ILSMIndex index, LSMOperationType type, ISearchOperationCallback search,
            IModificationOperationCallback modification) throws HyracksDataException {
        delegate.completeOperation(index, type, search, modification);
    }
}
