package io.lsmpolicies.ycsb.hyracks;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationCallback;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMemoryComponent;
import org.apache.hyracks.storage.am.lsm.common.impls.EmptyComponent;
import org.apache.hyracks.storage.common.IResource;

/**
 * The index's IO-operation callback: tells the {@link FlushTrace} about every flush or merge output once Hyracks has
 * finalised it ({@code afterFinalize}: written and forced, not yet installed), and counts the flushes and merges
 * scheduled but not completed in {@code outstanding}. Hyracks 0.3.8 calls {@code scheduled} when it creates the
 * operation and {@code completed} once the operation is over, after its install and after the files of the
 * components it merged away are deleted, also when it failed; so a count of 0 means no flush or merge is left
 * anywhere. Everything else is a no-op, as in Hyracks' {@code NoOpIOOperationCallbackFactory}. Never persisted:
 * the index is built in this process and its resource is not stored, so the trace and count are transient fields.
 */
final class TracingIoCallbackFactory implements ILSMIOOperationCallbackFactory {
    private static final long serialVersionUID = 1L;
    private final transient FlushTrace trace;
    private final transient AtomicInteger outstanding;

    TracingIoCallbackFactory(FlushTrace trace, AtomicInteger outstanding) {
        this.trace = trace;
        this.outstanding = outstanding;
    }

    @Override
    public void initialize(INCServiceContext ncCtx, IResource resource) {
        // nothing to initialise
    }

    @Override
    public ILSMIOOperationCallback createIoOpCallback(ILSMIndex index) {
        return new Callback(index, trace, outstanding);
    }

    @Override
    public int getCurrentMemoryComponentIndex() {
        return 0;
    }

    @Override
    public JsonNode toJson(IPersistedResourceRegistry registry) throws HyracksDataException {
        return registry.getClassIdentifier(getClass(), serialVersionUID);
    }

    private static final class Callback implements ILSMIOOperationCallback {
        private final ILSMIndex index;
        private final FlushTrace trace;
        private final AtomicInteger outstanding;

        Callback(ILSMIndex index, FlushTrace trace, AtomicInteger outstanding) {
            this.index = index;
            this.trace = trace;
            this.outstanding = outstanding;
        }

        private static boolean counted(ILSMIOOperation operation) {
            LSMIOOperationType type = operation.getIOOpertionType();
            return type == LSMIOOperationType.FLUSH || type == LSMIOOperationType.MERGE;
        }

        @Override
        public void afterFinalize(ILSMIOOperation operation) {
            ILSMDiskComponent output = operation.getNewComponent();
            LSMIOOperationType type = operation.getIOOpertionType();
            if (operation.getStatus() == LSMIOOperationStatus.FAILURE || output == null
                    || output == EmptyComponent.INSTANCE
                    || (type != LSMIOOperationType.FLUSH && type != LSMIOOperationType.MERGE)) {
                return;
            }
            synchronized (index.getOperationTracker()) {
                trace.written(type, output, index.getDiskComponents());
            }
        }

        @Override
        public void scheduled(ILSMIOOperation operation) {
            if (counted(operation)) {
                outstanding.incrementAndGet();
            }
        }

        @Override
        public void beforeOperation(ILSMIOOperation operation) {
            // not traced
        }

        @Override
        public void afterOperation(ILSMIOOperation operation) {
            // not traced
        }

        @Override
        public void completed(ILSMIOOperation operation) {
            if (counted(operation)) {
                outstanding.decrementAndGet();
            }
        }

        @Override
        public void recycled(ILSMMemoryComponent component) {
            // not traced
        }

        @Override
        public void allocated(ILSMMemoryComponent component) {
            // not traced
        }
    }
}
