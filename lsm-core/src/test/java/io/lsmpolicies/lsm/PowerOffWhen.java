package io.lsmpolicies.lsm;

import io.lsmpolicies.lsm.io.FaultHook;
import io.lsmpolicies.lsm.io.FaultInjector;
import io.lsmpolicies.lsm.io.FileOp;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.BiPredicate;

/**
 * A hook that powers a {@link FaultInjector} off just before the first operation {@code when} accepts (that
 * operation fails, as every later one), and otherwise passes every call on to the injector. {@code when} sees
 * every operation, in order, one at a time.
 */
final class PowerOffWhen implements FaultHook {
    /** Whether an operation is the one to lose the power at. */
    interface Condition {
        boolean test(FileOp op, Path path) throws IOException;
    }

    private final FaultInjector faults;
    private final Condition when;
    private boolean done;

    PowerOffWhen(FaultInjector faults, Condition when) {
        this.faults = faults;
        this.when = when;
    }

    /** Powers off at the k-th operation that changes files (reads do not count: a loss at a read is a loss at the
     * next change); k = 0 never. {@code counter[0]} counts those operations. */
    static PowerOffWhen atChange(FaultInjector faults, long k, long[] counter) {
        return new PowerOffWhen(faults, (op, path) -> op != FileOp.READ && ++counter[0] == k);
    }

    /** Whether the power went off. */
    synchronized boolean fired() {
        return done;
    }

    @Override
    public void before(FileOp op, Path path) throws IOException {
        synchronized (this) {
            if (!done && when.test(op, path)) {
                done = true;
                faults.powerOff();
            }
        }
        faults.before(op, path);
    }

    @Override
    public int afterRead(Path path, ByteBuffer dst, int start, int n) {
        return faults.afterRead(path, dst, start, n);
    }

    @Override
    public void created(Path path) {
        faults.created(path);
    }

    @Override
    public void written(Path path, long size) {
        faults.written(path, size);
    }

    @Override
    public void synced(Path path, long size) {
        faults.synced(path, size);
    }

    @Override
    public void deleting(Path path) throws IOException {
        faults.deleting(path);
    }

    @Override
    public void renaming(Path from, Path to) throws IOException {
        faults.renaming(from, to);
    }

    @Override
    public void directorySynced(Path dir) {
        faults.directorySynced(dir);
    }
}
