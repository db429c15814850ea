package io.lsmpolicies.lsm.sstable;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Bulk-loads an SSTable (see {@link SSTableFormat}) from entries given in internal order: leaves are
 * written as they fill, then the internal levels bottom-up from the first key of each page below, then the
 * Bloom filter and metadata blocks, then the trailer, and the file is forced to the device. Finished pages
 * are written {@value #WRITE_BUFFER_BYTES} bytes at a time, by a background thread while the caller fills the
 * next group (two buffers in turn), so a merge's or flush's writes overlap its reading and merging; a failed
 * write is thrown by the next call that hands over a group, or by {@link #finish}. Memory: the two buffers, one
 * page, and one separator per page of the level being built. Not thread-safe (one caller at a time).
 */
public final class SSTableWriter implements Closeable {
    private final Path path;
    private final FileLayer files;
    private final FileChannel channel;
    private final int pageSize;
    private final long minFlushIndex;
    private final long maxFlushIndex;
    private final long createdMillis;
    private final BloomFilter.Builder bloom;
    /** Finished pages are written in groups of this many bytes: one system call per group, not per page. */
    static final int WRITE_BUFFER_BYTES = 256 * 1024;

    /** Writes groups of finished pages in the background; daemon threads, kept while they are in use. */
    private static final ExecutorService WRITERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lsm-table-write");
        t.setDaemon(true);
        return t;
    });

    private final ByteBuffer page;
    /** The group being filled. */
    private ByteBuffer pending;
    /** The other group: being written while {@link #inFlight} runs, free after. */
    private ByteBuffer spare;
    private Future<?> inFlight;
    private int pageCount;
    private long nextPage;
    private final List<Separator> separators = new ArrayList<>();
    private Entry previous;
    private byte[] firstKey;
    private long entries;
    private long tombstones;
    private long dataBytes;
    private long minSequence = Long.MAX_VALUE;
    private long maxSequence = Long.MIN_VALUE;
    private boolean finished;

    private record Separator(byte[] key, long sequence, long page) {
    }

    private SSTableWriter(FileLayer files, Path path, FileChannel channel, SSTableOptions options,
            long minFlushIndex, long maxFlushIndex, long createdMillis) {
        this.files = files;
        this.path = path;
        this.channel = channel;
        this.pageSize = options.pageSize();
        this.minFlushIndex = minFlushIndex;
        this.maxFlushIndex = maxFlushIndex;
        this.createdMillis = createdMillis;
        this.bloom = BloomFilter.builder(options.bloomBitsPerKey());
        this.page = ByteBuffer.allocate(pageSize);
        this.pending = ByteBuffer.allocate(Math.max(pageSize, WRITE_BUFFER_BYTES / pageSize * pageSize));
        this.spare = ByteBuffer.allocate(pending.capacity());
        startPage(SSTableFormat.LEAF);
    }

    /** Creates {@code path}, which must not exist, for an SSTable holding flushes {@code minFlush..maxFlush}. */
    public static SSTableWriter create(Path path, SSTableOptions options, long minFlushIndex, long maxFlushIndex,
            long createdMillis) throws IOException {
        return create(FileLayer.plain(), IoCause.FLUSH, path, options, minFlushIndex, maxFlushIndex, createdMillis);
    }

    /** As above, with I/O through {@code files} charged to {@code cause} (a flush or a merge). */
    public static SSTableWriter create(FileLayer files, IoCause cause, Path path, SSTableOptions options,
            long minFlushIndex, long maxFlushIndex, long createdMillis) throws IOException {
        FileChannel channel = files.open(path, cause, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new SSTableWriter(files, path, channel, options, minFlushIndex, maxFlushIndex, createdMillis);
    }

    /**
     * Appends an entry. REQUIRES: strictly after the previous one in {@link Entry#ORDER}.
     *
     * @throws IllegalArgumentException if out of order, or too large for a page (naming the limit)
     */
    public void add(Entry e) throws IOException {
        if (finished) {
            throw new IllegalStateException("SSTable " + path + " is already finished");
        }
        int size = SSTableFormat.leafEntrySize(e);
        if (size > SSTableFormat.maxEntryBytes(pageSize) || internalEntrySize(e.key(), e.sequence(), Long.MAX_VALUE)
                > SSTableFormat.maxEntryBytes(pageSize) / 2) {
            throw new IllegalArgumentException("entry of key " + e.key().length + " bytes and value " + e.value().length
                    + " bytes does not fit a " + pageSize + "-byte page (at most " + maxEntryBytes(pageSize)
                    + " bytes of key and value, keys at most about a third of that)");
        }
        if (previous != null && Entry.ORDER.compare(previous, e) >= 0) {
            throw new IllegalArgumentException("entries out of order: " + e + " after " + previous);
        }
        if (page.remaining() - SSTableFormat.PAGE_CRC_BYTES < size) {
            endPage();
            startPage(SSTableFormat.LEAF);
        }
        if (pageCount == 0) {
            separators.add(new Separator(e.key(), e.sequence(), nextPage));
        }
        page.put((byte) (e.tombstone() ? 1 : 0));
        SSTableFormat.putVarLong(page, e.key().length);
        SSTableFormat.putVarLong(page, e.value().length);
        SSTableFormat.putVarLong(page, e.sequence());
        page.put(e.key()).put(e.value());
        pageCount++;
        if (previous == null || !Arrays.equals(previous.key(), e.key())) {
            bloom.add(e.key());
        }
        if (firstKey == null) {
            firstKey = e.key();
        }
        previous = e;
        entries++;
        dataBytes += e.key().length + e.value().length;
        tombstones += e.tombstone() ? 1 : 0;
        minSequence = Math.min(minSequence, e.sequence());
        maxSequence = Math.max(maxSequence, e.sequence());
    }

    /** Bytes written so far, counting the page being filled: where a merge decides to cut its output. */
    public long bytesWritten() {
        return nextPage * pageSize + page.position();
    }

    /**
     * The size of the file {@code entries} (in internal order) would make, without writing it: leaf pages by
     * the same packing the writer uses, plus an estimate of the internal pages (one separator per leaf), the
     * Bloom filter, the metadata page and the trailer. Exact for the leaves, which dominate.
     */
    public static long estimateFileBytes(Iterator<Entry> entries, SSTableOptions options) {
        int pageSize = options.pageSize();
        int capacity = SSTableFormat.maxEntryBytes(pageSize);
        long leaves = 0;
        long count = 0;
        long separatorBytes = 0;
        int used = capacity;
        while (entries.hasNext()) {
            Entry e = entries.next();
            int size = SSTableFormat.leafEntrySize(e);
            if (capacity - used < size) {
                leaves++;
                used = 0;
                separatorBytes += internalEntrySize(e.key(), e.sequence(), leaves);
            }
            used += size;
            count++;
        }
        if (count == 0) {
            return 0;
        }
        long internal = leaves > 1 ? (separatorBytes + capacity - 1) / capacity + 1 : 0;
        long bloomBytes = count * options.bloomBitsPerKey() / 8 + 16;
        long blob = (bloomBytes + capacity - 1) / capacity + 1;
        return (leaves + internal + blob) * pageSize + SSTableFormat.TRAILER_BYTES;
    }

    /** The most key plus value bytes one entry may hold with {@code pageSize} pages. */
    public static int maxEntryBytes(int pageSize) {
        return SSTableFormat.maxEntryBytes(pageSize) - 1 - 3 * 10;
    }

    private static int internalEntrySize(byte[] key, long sequence, long child) {
        return SSTableFormat.varLongSize(key.length) + SSTableFormat.varLongSize(sequence)
                + SSTableFormat.varLongSize(child) + key.length;
    }

    /**
     * Writes the internal levels, Bloom filter, metadata and trailer, and forces the file to the device.
     *
     * @param oldestTombstoneMillis write time of the oldest tombstone ({@code Long.MAX_VALUE} if none)
     * @throws IllegalStateException if no entry was added
     */
    public SSTableMetadata finish(long oldestTombstoneMillis) throws IOException {
        if (entries == 0) {
            throw new IllegalStateException("an SSTable needs at least one entry: " + path);
        }
        endPage();
        long leafPages = nextPage;
        List<Separator> level = new ArrayList<>(separators);
        int height = 1;
        while (level.size() > 1) {
            level = writeInternalLevel(level);
            height++;
        }
        long root = level.get(0).page();
        byte[] bloomBytes = bloom.build().encode();
        long bloomStart = writeBlob(bloomBytes);
        SSTableMetadata meta = new SSTableMetadata(entries, tombstones, firstKey, previous.key(), minSequence,
                maxSequence, minFlushIndex, maxFlushIndex, createdMillis,
                tombstones == 0 ? Long.MAX_VALUE : oldestTombstoneMillis, dataBytes);
        byte[] metaBytes = meta.encode();
        long metaStart = writeBlob(metaBytes);
        ByteBuffer trailer = ByteBuffer.allocate(SSTableFormat.TRAILER_BYTES);
        trailer.putLong(SSTableFormat.MAGIC).putInt(SSTableFormat.VERSION).putInt(pageSize).putLong(root)
                .putInt(height).putLong(leafPages).putLong(bloomStart).putInt(bloomBytes.length).putLong(metaStart)
                .putInt(metaBytes.length);
        trailer.putInt(SSTableFormat.crc(trailer.array(), 0, SSTableFormat.TRAILER_BYTES - 4)).flip();
        writePending();
        awaitWrite();
        write(trailer, nextPage * pageSize);
        channel.force(true);
        finished = true;
        return meta;
    }

    private List<Separator> writeInternalLevel(List<Separator> children) throws IOException {
        List<Separator> parents = new ArrayList<>();
        startPage(SSTableFormat.INTERNAL);
        for (Separator child : children) {
            int size = internalEntrySize(child.key(), child.sequence(), child.page());
            if (page.remaining() - SSTableFormat.PAGE_CRC_BYTES < size) {
                endPage();
                startPage(SSTableFormat.INTERNAL);
            }
            if (pageCount == 0) {
                parents.add(new Separator(child.key(), child.sequence(), nextPage));
            }
            SSTableFormat.putVarLong(page, child.key().length);
            SSTableFormat.putVarLong(page, child.sequence());
            SSTableFormat.putVarLong(page, child.page());
            page.put(child.key());
            pageCount++;
        }
        endPage();
        return parents;
    }

    private long writeBlob(byte[] bytes) throws IOException {
        long start = nextPage;
        int capacity = SSTableFormat.maxEntryBytes(pageSize);
        int at = 0;
        do {
            int n = Math.min(capacity, bytes.length - at);
            startPage(SSTableFormat.BLOB);
            page.put(bytes, at, n);
            pageCount = n;
            endPage();
            at += n;
        } while (at < bytes.length);
        return start;
    }

    private void startPage(byte type) {
        page.clear();
        page.put(type).putInt(0);
        pageCount = 0;
    }

    private void endPage() throws IOException {
        page.putInt(1, pageCount);
        byte[] bytes = page.array();
        Arrays.fill(bytes, page.position(), pageSize, (byte) 0);
        ByteBuffer.wrap(bytes).putInt(pageSize - SSTableFormat.PAGE_CRC_BYTES, SSTableFormat.pageCrc(nextPage, bytes));
        if (!pending.hasRemaining()) {
            writePending();
        }
        pending.put(bytes);
        nextPage++;
    }

    /**
     * Hands the buffered pages, which end just before page {@code nextPage}, to a background write (after the
     * previous one has finished, so at most one runs), and goes on filling the other buffer.
     */
    private void writePending() throws IOException {
        pending.flip();
        long at = nextPage * pageSize - pending.remaining();
        awaitWrite();
        ByteBuffer group = pending;
        inFlight = WRITERS.submit(() -> {
            write(group, at);
            return null;
        });
        pending = spare.clear();
        spare = group;
    }

    /** Waits for the background write, if one runs, and throws its failure. */
    private void awaitWrite() throws IOException {
        if (inFlight == null) {
            return;
        }
        try {
            inFlight.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException("writing " + path + " failed", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            inFlight.cancel(false);
            throw new InterruptedIOException("interrupted while writing " + path);
        } finally {
            inFlight = null;
        }
    }

    private void write(ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            at += channel.write(b, at);
        }
    }

    /** Closes the file; an unfinished SSTable is deleted, since it is not a valid file. */
    @Override
    public void close() throws IOException {
        if (inFlight != null) { // not finished: let the write end before the file is closed (and deleted)
            try {
                awaitWrite();
            } catch (IOException | RuntimeException e) {
                // the file is unfinished and goes; its failure was or will be reported by the caller's error
            }
        }
        channel.close();
        if (!finished) {
            files.deleteIfExists(path);
        }
    }
}
