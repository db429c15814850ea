package io.lsmpolicies.merge.hyracks;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>Given an executor, it also asks the policy about the reads every {@value #READS_PER_QUESTION} searches
 * ({@link HyracksMergePolicy#readsBetweenFlushes}), on that executor and holding the index's operation-tracker lock
 * as Hyracks holds it when it reports a component, never in the search's own thread: a phase that only reads adds
 * no component, so otherwise the policy would hear of its reads only at the next flush.
 *
 * <p>AsterixDB creates its datasets' trackers itself ({@code PrimaryIndexOperationTracker}, from the dataset's
 * tracker factory), and neither its merge-policy factory interface nor its DDL lets a merge policy wrap them or see
 * the searches; so inside AsterixDB 0.9.8 a read-weighing policy is told 0 reads unless the platform wraps its
 * tracker with this class.
 */
public final class ReadCountingOperationTracker implements ILSMOperationTracker {
    /** Searches between two questions to the policy about reads between flushes. */
    public static final long READS_PER_QUESTION = 1024;

    private final ILSMOperationTracker delegate;
    private final HyracksMergePolicy policy;
    private final Executor questions;
    private final AtomicLong searches = new AtomicLong();
    private final AtomicBoolean queued = new AtomicBoolean();

    /**
     * Counts the searches of the index it is given to into {@code policy}, delegating to {@code delegate}.
     *
     * @param delegate the index's own operation tracker
     * @param policy   the index's merge policy
     */
    public ReadCountingOperationTracker(ILSMOperationTracker delegate, HyracksMergePolicy policy) {
        this(delegate, policy, null);
    }

    /**
     * As {@link #ReadCountingOperationTracker(ILSMOperationTracker, HyracksMergePolicy)}, and asks the policy about
     * the reads every {@value #READS_PER_QUESTION} searches on {@code questions} (none if null). A failure there
     * is thrown in the executor's thread, as an {@link IllegalStateException}.
     *
     * @param delegate  the index's own operation tracker
     * @param policy    the index's merge policy
     * @param questions the executor that asks the policy, or null for none
     */
    public ReadCountingOperationTracker(ILSMOperationTracker delegate, HyracksMergePolicy policy,
            Executor questions) {
        this.delegate = delegate;
        this.policy = policy;
        this.questions = questions;
    }

    @Override
    public void beforeOperation(ILSMIndex index, LSMOperationType type, ISearchOperationCallback search,
            IModificationOperationCallback modification) throws HyracksDataException {
        delegate.beforeOperation(index, type, search, modification);
        if (type == LSMOperationType.SEARCH) {
            policy.recordReads(1);
            if (questions != null && searches.incrementAndGet() % READS_PER_QUESTION == 0
                    && queued.compareAndSet(false, true)) {
                questions.execute(() -> ask(index));
            }
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

    private void ask(ILSMIndex index) {
        try {
            synchronized (index.getOperationTracker()) { // the lock Hyracks holds when it reports a component
                queued.set(false);
                policy.readsBetweenFlushes(index);
            }
        } catch (HyracksDataException e) {
            throw new IllegalStateException("asking the merge policy about reads between flushes failed: "
                    + e.getMessage(), e);
        }
    }
}
