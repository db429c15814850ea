package io.lsmpolicies.lsm.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * What a {@link FileLayer} tells a fault injector about each operation, and where the injector may fail one.
 * The layer calls {@link #before} ahead of every operation of a {@link FileOp} kind (an exception it throws is
 * what the engine sees), {@link #deleting} and {@link #renaming} just before those operations, and the other
 * methods after an operation succeeded. Implementations must be
 * thread-safe. {@link #NONE} does nothing: the layer's default.
 */
public interface FaultHook {
    /** The hook of a layer without fault injection. */
    FaultHook NONE = new FaultHook() {
    };

    /**
     * Before an operation of kind {@code op} on {@code path}; throws to fail it.
     *
     * @param op   the kind of file operation
     * @param path the file
     * @throws IOException if an I/O operation fails
     */
    default void before(FileOp op, Path path) throws IOException {
    }

    /**
     * After a read of {@code n} bytes into {@code dst} (its position is now {@code start + n}): the number of
     * bytes the caller is told were read, at most {@code n} (a short read). May change the bytes read.
     *
     * @param path  the file
     * @param dst   the buffer read into
     * @param start the buffer position the read started at
     * @param n     the bytes
     * @return the bytes the caller is told were read
     */
    default int afterRead(Path path, ByteBuffer dst, int start, int n) {
        return n;
    }

    /**
     * Called after {@link #before} lets a write of {@code n} bytes to {@code path} go ahead: how many of them the
     * write may store, at most {@code n}. Fewer is a short write, as {@code write(2)} returns when the device
     * fills up in the middle of it; the caller is told the shorter count.
     *
     * @param path the file
     * @param n    the bytes
     * @return the bytes the write may store
     * @throws IOException if an I/O operation fails
     */
    default int writable(Path path, int n) throws IOException {
        return n;
    }

    /**
     * A file was created (opened with CREATE or CREATE_NEW and did not exist).
     *
     * @param path the file
     */
    default void created(Path path) {
    }

    /**
     * {@code n} bytes were written to {@code path}; it is now {@code size} bytes long.
     *
     * @param path the file
     * @param size its size in bytes
     */
    default void written(Path path, long size) {
    }

    /**
     * {@code path}'s bytes were forced to the device; it is {@code size} bytes long.
     *
     * @param path the file
     * @param size its size in bytes
     */
    default void synced(Path path, long size) {
    }

    /**
     * {@code path} is about to be deleted (after {@link #before}): a hook may keep what a crash restores.
     *
     * @param path the file
     * @throws IOException if an I/O operation fails
     */
    default void deleting(Path path) throws IOException {
    }

    /**
     * {@code from} is about to be renamed over {@code to}: a hook may keep what a crash restores.
     *
     * @param from the start of the range (inclusive; null: open)
     * @param to   the end of the range (exclusive; null: open)
     * @throws IOException if an I/O operation fails
     */
    default void renaming(Path from, Path to) throws IOException {
    }

    /**
     * {@code dir}'s entries were forced to the device.
     *
     * @param dir the directory
     */
    default void directorySynced(Path dir) {
    }
}
