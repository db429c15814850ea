package io.lsmpolicies.merge.hyracks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hyracks.api.dataflow.value.IBinaryComparatorFactory;
import org.apache.hyracks.api.dataflow.value.ITypeTraits;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.FileReference;
import org.apache.hyracks.api.io.IODeviceHandle;
import org.apache.hyracks.control.nc.io.DefaultDeviceResolver;
import org.apache.hyracks.control.nc.io.IOManager;
import org.apache.hyracks.data.std.accessors.IntegerBinaryComparatorFactory;
import org.apache.hyracks.data.std.primitive.IntegerPointable;
import org.apache.hyracks.dataflow.common.comm.io.ArrayTupleReference;
import org.apache.hyracks.storage.am.common.freepage.AppendOnlyLinkedMetadataPageManagerFactory;
import org.apache.hyracks.storage.am.common.impls.NoOpIndexAccessParameters;
import org.apache.hyracks.storage.am.lsm.btree.impls.LSMBTree;
import org.apache.hyracks.storage.am.lsm.btree.utils.LSMBTreeUtil;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponent.ComponentState;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndexAccessor;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMOperationTracker;
import org.apache.hyracks.storage.am.btree.impls.RangePredicate;
import org.apache.hyracks.storage.common.IIndexCursor;
import org.apache.hyracks.storage.common.MultiComparator;
import org.apache.hyracks.storage.am.lsm.common.api.IVirtualBufferCache;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpIOOperationCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpPageWriteCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.SynchronousSchedulerProvider;
import org.apache.hyracks.storage.am.lsm.common.impls.ThreadCountingTracker;
import org.apache.hyracks.storage.am.lsm.common.impls.VirtualBufferCache;
import org.apache.hyracks.storage.common.buffercache.BufferCache;
import org.apache.hyracks.storage.common.buffercache.ClockPageReplacementStrategy;
import org.apache.hyracks.storage.common.buffercache.DelayPageCleanerPolicy;
import org.apache.hyracks.storage.common.buffercache.HeapBufferAllocator;
import org.apache.hyracks.storage.common.buffercache.IBufferCache;
import org.apache.hyracks.storage.common.compression.NoOpCompressorDecompressorFactory;
import org.apache.hyracks.storage.common.file.FileMapManager;
import org.apache.hyracks.util.trace.ITracer;

/**
 * A real Hyracks 0.3.8 LSM B-tree (with Bloom filters) on real files under a directory, in this JVM: the
 * node controller's IO manager, a buffer cache, two in-memory components, and by default a synchronous IO
 * scheduler, so that a flush and every merge the policy schedules have finished when {@link #flush} returns.
 * Records are (int key, int value) pairs with keys that only grow, so a merge never drops an entry.
 *
 * <p>{@link #close} shuts everything down as a node stop would; opening the same directory again with
 * {@link #open} recovers the disk components from the files, like a node restart.
 */
final class RealLsmBTree implements AutoCloseable {
    private static final int PAGE_SIZE = 256;
    private static final int DISK_PAGES = 4096;
    private static final int MEMORY_PAGES_PER_COMPONENT = 64;
    private static final int MAX_OPEN_FILES = 4096;
    private static final double BLOOM_FILTER_FALSE_POSITIVE_RATE = 0.01;

    private final IOManager ioManager;
    private final IBufferCache bufferCache;
    private final LSMBTree index;
    /** One record: two 4-byte big-endian ints (IntegerPointable's format), fields ending at bytes 4 and 8. */
    private final ByteBuffer record = ByteBuffer.allocate(8);
    private final int[] fieldEnds = {4, 8};
    private final ArrayTupleReference tuple = new ArrayTupleReference();
    private int nextKey;

    private RealLsmBTree(IOManager ioManager, IBufferCache bufferCache, LSMBTree index, int nextKey) {
        this.ioManager = ioManager;
        this.bufferCache = bufferCache;
        this.index = index;
        this.nextKey = nextKey;
    }

    /**
     * Opens the index under {@code dir} (creating it if {@code create}) with {@code policy} deciding merges.
     * {@code nextKey} is the first key the next flush writes.
     */
    static RealLsmBTree open(Path dir, ILSMMergePolicy policy, boolean create, int nextKey) throws Exception {
        return open(dir, policy, create, nextKey, SynchronousSchedulerProvider.INSTANCE.getIoScheduler(null));
    }

    /** As {@link #open(Path, ILSMMergePolicy, boolean, int)}, with flushes and merges run by {@code scheduler}. */
    static RealLsmBTree open(Path dir, ILSMMergePolicy policy, boolean create, int nextKey,
            ILSMIOOperationScheduler scheduler) throws Exception {
        return open(dir, policy, create, nextKey, scheduler, new ThreadCountingTracker());
    }

    /** As {@link #open(Path, ILSMMergePolicy, boolean, int, ILSMIOOperationScheduler)}, with {@code tracker}. */
    static RealLsmBTree open(Path dir, ILSMMergePolicy policy, boolean create, int nextKey,
            ILSMIOOperationScheduler scheduler, ILSMOperationTracker tracker) throws Exception {
        IOManager io = new IOManager(List.of(new IODeviceHandle(dir.toFile(), ".")), new DefaultDeviceResolver(), 2,
                10);
        IBufferCache cache = new BufferCache(io,
                new ClockPageReplacementStrategy(new HeapBufferAllocator(), PAGE_SIZE, DISK_PAGES),
                new DelayPageCleanerPolicy(1000), new FileMapManager(), MAX_OPEN_FILES, 10, Thread::new);
        List<IVirtualBufferCache> memory = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            memory.add(new VirtualBufferCache(new HeapBufferAllocator(), PAGE_SIZE, MEMORY_PAGES_PER_COMPONENT));
        }
        FileReference file = io.resolveAbsolutePath(dir.resolve("index").toString());
        ITypeTraits[] traits = {IntegerPointable.TYPE_TRAITS, IntegerPointable.TYPE_TRAITS};
        IBinaryComparatorFactory[] comparators = {IntegerBinaryComparatorFactory.INSTANCE};
        LSMBTree tree = LSMBTreeUtil.createLSMTree(io, memory, file, cache, traits, comparators, new int[] {0},
                BLOOM_FILTER_FALSE_POSITIVE_RATE, policy, tracker,
                scheduler, NoOpIOOperationCallbackFactory.INSTANCE,
                NoOpPageWriteCallbackFactory.INSTANCE, true, null, null, null, null, false,
                AppendOnlyLinkedMetadataPageManagerFactory.INSTANCE, false, ITracer.NONE,
                NoOpCompressorDecompressorFactory.INSTANCE, true, null, null);
        if (create) {
            tree.create();
        }
        tree.activate();
        return new RealLsmBTree(io, cache, tree, nextKey);
    }

    /**
     * Inserts {@code entries} new records and flushes them; returns when the flush is installed (and, with the
     * synchronous scheduler, every merge the policy scheduled after it).
     */
    void flush(int entries) throws Exception {
        ILSMIndexAccessor accessor = index.createAccessor(NoOpIndexAccessParameters.INSTANCE);
        for (int i = 0; i < entries; i++) {
            record.putInt(0, nextKey).putInt(4, nextKey * 31);
            tuple.reset(fieldEnds, record.array());
            accessor.insert(tuple);
            nextKey++;
        }
        ILSMIOOperation flush = accessor.scheduleFlush();
        flush.sync();
        if (flush.getStatus() == LSMIOOperationStatus.FAILURE) {
            throw HyracksDataException.create(flush.getFailure());
        }
    }

    /** Whether {@code key} is in the index: one point search (a read, as Hyracks counts operations). */
    boolean contains(int key) throws Exception {
        ILSMIndexAccessor accessor = index.createAccessor(NoOpIndexAccessParameters.INSTANCE);
        IIndexCursor cursor = accessor.createSearchCursor(false);
        record.putInt(0, key);
        ArrayTupleReference k = new ArrayTupleReference();
        k.reset(new int[] {4}, Arrays.copyOf(record.array(), 4));
        MultiComparator cmp = MultiComparator.create(new IBinaryComparatorFactory[] {
            IntegerBinaryComparatorFactory.INSTANCE});
        accessor.search(cursor, new RangePredicate(k, k, true, true, cmp, cmp));
        try {
            return cursor.hasNext();
        } finally {
            cursor.close();
            cursor.destroy();
        }
    }

    /**
     * Merges every disk component, as AsterixDB's {@code COMPACT} does (Hyracks' {@code scheduleFullMerge}, not
     * the merge policy's choice); returns when the merge and whatever the policy schedules after it are done.
     */
    void mergeAll() throws Exception {
        ILSMIOOperation merge = index.createAccessor(NoOpIndexAccessParameters.INSTANCE).scheduleFullMerge();
        merge.sync();
        if (merge.getStatus() == LSMIOOperationStatus.FAILURE) {
            throw HyracksDataException.create(merge.getFailure());
        }
    }

    /**
     * Waits until no component is being merged, calling {@code release} (which lets held merges run) before
     * each look; checked under the index's operation-tracker lock, under which Hyracks installs a merge and
     * schedules the next, so nothing is in between.
     */
    void awaitMerges(Runnable release) throws InterruptedException {
        Object tracker = index.getOperationTracker();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            release.run();
            synchronized (tracker) {
                boolean merging = false;
                for (ILSMDiskComponent c : index.getDiskComponents()) {
                    merging |= c.getState() == ComponentState.READABLE_MERGING;
                }
                if (!merging) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("merges still running after 30 s: " + index.getDiskComponents());
                }
                tracker.wait(20);
            }
        }
    }

    /** The Hyracks index itself. */
    ILSMIndex index() {
        return index;
    }

    /** The first key the next flush writes. */
    int nextKey() {
        return nextKey;
    }

    /** The disk components' flush sequence ranges, oldest first (merge inputs still listed while merging). */
    List<ComponentSequence> sequencesOldestFirst() {
        List<ComponentSequence> out = new ArrayList<>();
        for (ILSMDiskComponent c : diskComponents()) {
            out.add(0, ComponentSequence.of(c));
        }
        return out;
    }

    /**
     * The disk components themselves, newest first, as Hyracks keeps them; copied under the operation-tracker
     * lock, under which Hyracks changes the list.
     */
    List<ILSMDiskComponent> diskComponents() {
        synchronized (index.getOperationTracker()) {
            return List.copyOf(index.getDiskComponents());
        }
    }

    @Override
    public void close() throws HyracksDataException, IOException {
        try {
            index.deactivate(true);
        } finally {
            try {
                bufferCache.close();
            } finally {
                ioManager.close();
            }
        }
    }
}
