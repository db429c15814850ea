package io.lsmpolicies.lsm.io;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Unmaps a {@link MappedByteBuffer} at once rather than when the garbage collector finds it unreachable, so that the
 * mapping's pages stop counting in the process's resident memory as soon as the writer is done with them. Uses
 * {@code sun.misc.Unsafe.invokeCleaner} (module {@code jdk.unsupported}), as Lucene and Kafka do; where that is
 * not available the buffer is left to the collector. The caller must never touch the buffer, or a view of it,
 * again: an access after the unmapping crashes the JVM.
 */
final class Unmapper {
    private static final MethodHandle INVOKE_CLEANER = find();

    private Unmapper() {
    }

    private static MethodHandle find() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field f = unsafeClass.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            Object unsafe = f.get(null);
            return MethodHandles.lookup().findVirtual(unsafeClass, "invokeCleaner",
                    MethodType.methodType(void.class, ByteBuffer.class)).bindTo(unsafe);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Unmaps {@code buffer} (a buffer {@code FileChannel.map} returned, not a view of one). */
    static void unmap(MappedByteBuffer buffer) {
        if (INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invokeExact((ByteBuffer) buffer);
        } catch (RuntimeException e) {
            // not unmapped now (not a mapping's own buffer): the collector will
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("unmapping failed", e);
        }
    }
}
