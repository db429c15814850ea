package io.lsmpolicies.ycsb.hyracks;

import io.lsmpolicies.lsm.io.DirectoryLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hyracks.api.dataflow.value.IBinaryComparatorFactory;
import org.apache.hyracks.api.dataflow.value.ITypeTraits;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.FileReference;
import org.apache.hyracks.api.io.IODeviceHandle;
import org.apache.hyracks.data.std.accessors.ByteArrayBinaryComparatorFactory;
import org.apache.hyracks.data.std.primitive.VarLengthTypeTrait;
import org.apache.hyracks.storage.am.common.freepage.AppendOnlyLinkedMetadataPageManagerFactory;
import org.apache.hyracks.storage.am.common.impls.NoOpIndexAccessParameters;
import org.apache.hyracks.storage.am.lsm.btree.impls.LSMBTree;
import org.apache.hyracks.storage.am.lsm.btree.utils.LSMBTreeUtil;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponent.ComponentState;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMemoryComponent;
import org.apache.hyracks.storage.am.lsm.common.api.IVirtualBufferCache;
import org.apache.hyracks.storage.am.lsm.common.impls.GreedyScheduler;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpIoOperationFailedCallback;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpPageWriteCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.ThreadCountingTracker;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMOperationTracker;
import io.lsmpolicies.merge.hyracks.HyracksMergePolicy;
import io.lsmpolicies.merge.hyracks.ReadCountingOperationTracker;
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
 * One Hyracks 0.3.8 LSM B-tree, embedded: AsterixDB's primary-index set-up without a node controller. Records are
 * (key, value) pairs of byte arrays, both stored as Hyracks {@code ByteArrayPointable} fields (a variable-length
 * length, then the bytes) and the key compared as unsigned bytes ({@code ByteArrayBinaryComparatorFactory}), so the
 * index orders keys as our engine does. Pieces, with AsterixDB 0.9.8's values where it has one:
 * <ul>
 *   <li>the node controller's {@code IOManager} with one IO device, the directory ({@link ThrottledIOManager});</li>
 *   <li>a {@code BufferCache} for disk pages, clock replacement, {@code hyracks.cache.size};</li>
 *   <li>two memory components (AsterixDB's {@code storage.memorycomponent.numcomponents}), each an in-memory
 *       B-tree in its own {@code VirtualBufferCache} of {@code hyracks.memtable.size} bytes of pages; a component
 *       is full when its pages reach the budget, and the last writer to leave it schedules its flush
 *       ({@code ThreadCountingTracker}); writers wait while both are full or flushing;</li>
 *   <li>disk components with Bloom filters on the key, 1% false positives
 *       ({@code storage.lsm.bloomfilter.falsepositiverate}), no page compression (AsterixDB's default is
 *       snappy), durable (forced when complete);</li>
 *   <li>flushes and merges on background threads, AsterixDB's default {@code GreedyScheduler} with its defaults (2
 *       concurrent flushes, 8 scheduled and 2 running merges per partition; at most one merge runs per index);</li>
 *   <li>the merge policy wrapped in a {@link TracingMergePolicy}, and a {@link TracingIoCallbackFactory}, which feed
 *       the {@link FlushTrace}.</li>
 * </ul>
 * No transaction log, no component IDs, one partition. The directory is locked ({@value #LOCK_FILE}) against a
 * second process. Thread-safe: each client thread works through its own {@link TreeSession}.
 */
final class HyracksTree implements AutoCloseable {
    /** The index's own directory under {@code hyracks.dir}. */
    static final String INDEX_DIR = "index";
    static final String LOCK_FILE = "LOCK";
    static final double BLOOM_FILTER_FALSE_POSITIVE_RATE = 0.01;
    private static final int MAX_OPEN_FILES = 4096;
    private static final int MEMORY_COMPONENTS = 2;
    private static final int MAX_RUNNING_FLUSHES = 2;
    private static final int MAX_SCHEDULED_MERGES = 8;
    private static final int MAX_RUNNING_MERGES = 2;
    /** How often {@link #settle} says that it is still waiting (a failed flush would make it wait for ever). */
    private static final long REPORT_EVERY_NANOS = 60_000_000_000L;
    private static final ITypeTraits[] TYPE_TRAITS = {VarLengthTypeTrait.INSTANCE, VarLengthTypeTrait.INSTANCE};
    static final IBinaryComparatorFactory[] KEY_COMPARATORS = {ByteArrayBinaryComparatorFactory.INSTANCE};

    private final HyracksConfig config;
    private final DirectoryLock lock;
    private final ThrottledIOManager io;
    private final IBufferCache cache;
    private final GreedyScheduler scheduler;
    private final LSMBTree index;
    private final FlushTrace trace;
    /** Flushes and merges scheduled and not completed ({@link TracingIoCallbackFactory}). */
    private final AtomicInteger outstanding;
    /** Where the index's tracker asks our policy about reads between flushes (ReadCountingOperationTracker). */
    private final ExecutorService questions;

    private HyracksTree(HyracksConfig config, DirectoryLock lock, ThrottledIOManager io,
            IBufferCache cache, GreedyScheduler scheduler, LSMBTree index, FlushTrace trace,
            AtomicInteger outstanding, ExecutorService questions) {
        this.questions = questions;
        this.config = config;
        this.lock = lock;
        this.io = io;
        this.cache = cache;
        this.scheduler = scheduler;
        this.index = index;
        this.trace = trace;
        this.outstanding = outstanding;
    }

    /**
     * Opens the index in {@code config.dir()}, creating it if absent (the components of an existing one are
     * recovered from its files).
     *
     * @throws IOException if the directory cannot be created or locked, or Hyracks fails to open the index
     */
    static HyracksTree open(HyracksConfig config) throws IOException {
        Path dir = config.dir();
        Files.createDirectories(dir);
        DirectoryLock lock = DirectoryLock.acquire(dir.resolve(LOCK_FILE),
                "the index in " + dir + " is open in another process or DB (" + LOCK_FILE + " is locked)");
        ThrottledIOManager io = null;
        IBufferCache cache = null;
        GreedyScheduler scheduler = null;
        ExecutorService questions = Executors.newSingleThreadExecutor(daemons("hyracks-read-questions"));
        try {
            io = new ThrottledIOManager(List.of(new IODeviceHandle(dir.toFile(), ".")), config.device());
            int pageSize = config.pageSize();
            cache = new BufferCache(io, new ClockPageReplacementStrategy(new HeapBufferAllocator(), pageSize,
                    (int) (config.cacheBytes() / pageSize)), new DelayPageCleanerPolicy(1000), new FileMapManager(),
                    MAX_OPEN_FILES, 10, daemons("hyracks-buffer-cache"));
            List<IVirtualBufferCache> memory = new ArrayList<>();
            for (int i = 0; i < MEMORY_COMPONENTS; i++) {
                memory.add(new VirtualBufferCache(new HeapBufferAllocator(), pageSize, config.memtablePages()));
            }
            scheduler = new GreedyScheduler(daemons("hyracks-io"), NoOpIoOperationFailedCallback.INSTANCE,
                    MAX_RUNNING_FLUSHES, MAX_SCHEDULED_MERGES, MAX_RUNNING_MERGES);
            FlushTrace trace = new FlushTrace();
            AtomicInteger outstanding = new AtomicInteger();
            Path indexDir = dir.resolve(INDEX_DIR);
            boolean create = !Files.exists(indexDir);
            FileReference file = io.resolveAbsolutePath(indexDir.toString());
            ILSMMergePolicy policy = config.policy().create();
            // Our policies are told the index's reads (one per search) by its tracker; AsterixDB's prefix ignores them.
            ILSMOperationTracker tracker = policy instanceof HyracksMergePolicy ours
                    ? new ReadCountingOperationTracker(new ThreadCountingTracker(), ours, questions)
                    : new ThreadCountingTracker();
            LSMBTree tree = LSMBTreeUtil.createLSMTree(io, memory, file, cache, TYPE_TRAITS, KEY_COMPARATORS,
                    new int[] {0}, BLOOM_FILTER_FALSE_POSITIVE_RATE,
                    new TracingMergePolicy(policy, trace), tracker, scheduler,
                    new TracingIoCallbackFactory(trace, outstanding), NoOpPageWriteCallbackFactory.INSTANCE, true,
                    null, null, null, null, true, AppendOnlyLinkedMetadataPageManagerFactory.INSTANCE, false,
                    ITracer.NONE, NoOpCompressorDecompressorFactory.INSTANCE, true, null, null);
            if (create) {
                tree.create();
            }
            tree.activate();
            return new HyracksTree(config, lock, io, cache, scheduler, tree, trace, outstanding, questions);
        } catch (IOException | RuntimeException e) {
            questions.shutdownNow();
            closeQuietly(scheduler, cache, io, e);
            lock.close();
            throw e;
        }
    }

    /** A session for one client thread; close it when the thread is done. */
    TreeSession session() {
        return new TreeSession(index.createAccessor(NoOpIndexAccessParameters.INSTANCE));
    }

    HyracksConfig config() {
        return config;
    }

    FlushTrace trace() {
        return trace;
    }

    /** Nanoseconds IO has waited for the emulated device. */
    long throttledNanos() {
        return io.throttledNanos();
    }

    /** The disk components, newest first, copied under the operation-tracker lock. */
    List<ILSMDiskComponent> diskComponents() {
        synchronized (index.getOperationTracker()) {
            return List.copyOf(index.getDiskComponents());
        }
    }

    /**
     * Flushes what the memory components hold and waits until no flush or merge is scheduled or running: the merges
     * every flush triggered (and the merges those trigger) have been installed, after the policy has answered every
     * question about reads already asked. REQUIRES: no client thread is writing.
     *
     * @throws HyracksDataException if a flush failed
     */
    void settle() throws HyracksDataException, InterruptedException {
        try {
            questions.submit(() -> { }).get(); // one thread, in order: every question asked before has run
        } catch (RejectedExecutionException e) {
            // closing: no question runs any more
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        while (true) {
            awaitIdle();
            if (index.isCurrentMutableComponentEmpty()) {
                return;
            }
            ILSMIOOperation flush = index.createAccessor(NoOpIndexAccessParameters.INSTANCE).scheduleFlush();
            flush.sync();
            if (flush.getStatus() == LSMIOOperationStatus.FAILURE) {
                throw HyracksDataException.create(flush.getFailure());
            }
        }
    }

    /**
     * Waits until no flush or merge is scheduled or running: none outstanding (the IO callback's count, which drops
     * only once an operation is entirely over, its merged-away files deleted), no memory component flushing and no
     * disk component being merged. Looks under the operation-tracker lock, under which Hyracks installs an output
     * and schedules what follows.
     */
    private void awaitIdle() throws InterruptedException {
        Object tracker = index.getOperationTracker();
        long start = System.nanoTime();
        long nextReport = start + REPORT_EVERY_NANOS;
        synchronized (tracker) {
            while (busy()) {
                tracker.wait(20);
                if (System.nanoTime() > nextReport) {
                    nextReport += REPORT_EVERY_NANOS;
                    System.getLogger(HyracksTree.class.getName()).log(System.Logger.Level.WARNING, "still waiting "
                            + "for flushes and merges of " + config.dir() + " after "
                            + (System.nanoTime() - start) / 1_000_000_000L + " s: " + index);
                }
            }
        }
    }

    private boolean busy() {
        if (outstanding.get() > 0) {
            return true;
        }
        for (ILSMMemoryComponent c : index.getMemoryComponents()) {
            if (c.getState() == ComponentState.READABLE_UNWRITABLE_FLUSHING) {
                return true;
            }
        }
        for (ILSMDiskComponent c : index.getDiskComponents()) {
            if (c.getState() == ComponentState.READABLE_MERGING) {
                return true;
            }
        }
        return false;
    }

    /** Settles (a final flush, the merges after it), then closes the index, its caches and threads. */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        try {
            settle();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new IOException("interrupted while flushing " + config.dir(), e);
        } catch (HyracksDataException e) {
            failure = new IOException("the final flush of " + config.dir() + " failed: " + e.getMessage(), e);
        }
        questions.shutdownNow(); // a question asked now would only schedule a merge that deactivate waits for
        try {
            if (!questions.awaitTermination(30, TimeUnit.SECONDS)) {
                failure = add(failure, new IOException("a read question of " + config.dir() + " did not end"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            index.deactivate(false);
        } catch (HyracksDataException e) {
            failure = add(failure, e);
        }
        closeQuietly(scheduler, cache, io, null);
        lock.close();
        if (failure != null) {
            throw failure;
        }
    }

    private static IOException add(IOException failure, Exception e) {
        if (failure == null) {
            return new IOException(e.getMessage(), e);
        }
        failure.addSuppressed(e);
        return failure;
    }

    private static void closeQuietly(GreedyScheduler scheduler, IBufferCache cache, ThrottledIOManager io,
            Exception primary) {
        List<AutoCloseable> all = new ArrayList<>();
        if (scheduler != null) {
            all.add(scheduler);
        }
        if (cache != null) {
            all.add(cache::close);
        }
        if (io != null) {
            all.add(io);
        }
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                if (primary != null) {
                    primary.addSuppressed(e);
                } else {
                    System.getLogger(HyracksTree.class.getName()).log(System.Logger.Level.WARNING, "closing " + c, e);
                }
            }
        }
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
