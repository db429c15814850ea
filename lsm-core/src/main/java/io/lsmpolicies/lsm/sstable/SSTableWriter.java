package io.lsmpolicies.lsm.sstable;

import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32C;

/**
 * Bulk-loads an SSTable (see {@link SSTableFormat}; version 4: packed pages, a blocked Bloom filter, short separators)
 * from entries given in internal order: leaves are written as they fill, then the internal levels bottom-up from the
 * separator of each page below ({@link Separators}), then the Bloom filter and metadata blocks, then the page offsets
 * and the trailer, and the file is forced to the device. Each page is written with only the bytes it uses (header,
 * entries, checksum), right after the one before it. Pages are encoded in place, one after another, in a group of
 * {@value #WRITE_BUFFER_BYTES} bytes; a full group's checksums are computed and the group written by a background
 * thread while the caller fills the next group (two buffers in turn), so a merge's or flush's checksums and writes
 * overlap its reading and merging; a failed write is thrown by the next call that hands over a group, or by {@link
 * #finish}. Every {@value #SYNC_EVERY_BYTES} bytes written, a {@link BackgroundSync} forces what is written so far to
 * the device while the writes go on, so the device writes a large table while it is built, and the force in {@link
 * #finish} waits only for the rest (without it the page cache would hold the whole table until that force: a merge's
 * thread then waits for all of its output at once). A failed force is thrown like a failed write. Memory: the two
 * buffers (taken from {@link GroupBuffers} and given back by {@link #close}), one separator per page of the level
 * being built, and 4 bytes per page written (the page lengths, for the offsets block), the last two in chunks that
 * are never copied. Not thread-safe (one caller at a time).
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
    /**
     * Finished pages are written in groups of this many bytes: one system call per group, not per page, and one
     * hand-over to the background writer (a thread woken, which on a busy machine may take the caller's core): a
     * 4 MB flush makes 4 (docs/performance.md, "Page groups of 1 MiB", has what 256 KiB groups cost).
     */
    static final int WRITE_BUFFER_BYTES = 1024 * 1024;
    /** Bytes written between two background forces of the file (the last force is {@link #finish}'s). */
    static final long SYNC_EVERY_BYTES = 8L * 1024 * 1024;

    /** Writes groups of finished pages in the background; daemon threads, kept while they are in use. */
    private static final ExecutorService WRITERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lsm-table-write");
        t.setDaemon(true);
        return t;
    });

    /** The page being filled: a view of its place in {@link #pending}, where it is encoded, checked and written. */
    private ByteBuffer page;
    /** The group being filled: {@link #pendingPages} pages of it finished, in its first {@link #pendingBytes}. */
    private byte[] pending;
    private int pendingPages;
    private int pendingBytes;
    /** The other group: being written while {@link #inFlight} runs, free after. */
    private byte[] spare;
    private Future<?> inFlight;
    /** The background force of what was written up to {@link #syncRequestedAt}, if one was started. */
    private Future<?> syncing;
    private long syncRequestedAt;
    private int pageCount;
    private long nextPage;
    /** The bytes of the finished pages: where the next page starts in the file. */
    private long pagesEnd;
    /**
     * The length of each finished page, the first {@link #nextPage} of them: page n's in
     * {@code lengths[n >> LENGTH_CHUNK_BITS][n & (LENGTH_CHUNK - 1)]}, in chunks never copied (an array doubled as
     * it grew held its old and new copies at once, with the table's other buffers, at the end of a large merge).
     */
    private int[][] lengths = new int[16][];
    private static final int LENGTH_CHUNK_BITS = 14;
    private static final int LENGTH_CHUNK = 1 << LENGTH_CHUNK_BITS;
    private final Separators separators = new Separators();
    /** The previous entry's key (its first {@link #previousKeyLen} bytes) and sequence number. */
    private byte[] previousKey = new byte[64];
    private int previousKeyLen;
    private long previousSequence;
    private byte[] firstKey;
    private long entries;
    private long tombstones;
    private long dataBytes;
    private long minSequence = Long.MAX_VALUE;
    private long maxSequence = Long.MIN_VALUE;
    private boolean finished;

    private SSTableWriter(FileLayer files, Path path, FileChannel channel, SSTableOptions options,
            long minFlushIndex, long maxFlushIndex, long createdMillis, long maxKeys) {
        this.files = files;
        this.path = path;
        this.channel = channel;
        this.pageSize = options.pageSize();
        this.minFlushIndex = minFlushIndex;
        this.maxFlushIndex = maxFlushIndex;
        this.createdMillis = createdMillis;
        this.bloom = BloomFilter.builder(options.bloomBitsPerKey(), maxKeys);
        this.pending = GroupBuffers.take(Math.max(pageSize, WRITE_BUFFER_BYTES));
        this.spare = GroupBuffers.take(pending.length);
        pageAt(0, SSTableFormat.LEAF);
    }

    /**
     * Creates {@code path}, which must not exist, for an SSTable holding flushes {@code minFlush..maxFlush}.
     *
     * @param path          the new file
     * @param options       page size and Bloom bits
     * @param minFlushIndex the oldest flush whose data it holds
     * @param maxFlushIndex the newest
     * @param createdMillis its creation time, recorded in its metadata
     * @return the writer; {@link #finish} it, then close it
     * @throws IOException if the file cannot be created
     */
    public static SSTableWriter create(Path path, SSTableOptions options, long minFlushIndex, long maxFlushIndex,
            long createdMillis) throws IOException {
        return create(FileLayer.plain(), IoCause.FLUSH, path, options, minFlushIndex, maxFlushIndex, createdMillis);
    }

    /**
     * As {@link #create(Path, SSTableOptions, long, long, long)}, with I/O through {@code files} charged to
     * {@code cause} (a flush or a merge).
     *
     * @param files         the file layer the writes go through
     * @param cause         what the writes are charged to
     * @param path          the new file
     * @param options       page size and Bloom bits
     * @param minFlushIndex the oldest flush whose data it holds
     * @param maxFlushIndex the newest
     * @param createdMillis its creation time, recorded in its metadata
     * @return the writer; {@link #finish} it, then close it
     * @throws IOException if the file cannot be created
     */
    public static SSTableWriter create(FileLayer files, IoCause cause, Path path, SSTableOptions options,
            long minFlushIndex, long maxFlushIndex, long createdMillis) throws IOException {
        return create(files, cause, path, options, minFlushIndex, maxFlushIndex, createdMillis, 0);
    }

    /**
     * As {@link #create(FileLayer, IoCause, Path, SSTableOptions, long, long, long)}, for a table of at most
     * {@code maxKeys} entries (a merge's single output: its inputs' entries), whose Bloom filter is then built in
     * place instead of from hashes kept per key (see {@link BloomFilter#builder(int, long)}).
     *
     * @param maxKeys at most how many entries will be added; 0 if not known
     */
    public static SSTableWriter create(FileLayer files, IoCause cause, Path path, SSTableOptions options,
            long minFlushIndex, long maxFlushIndex, long createdMillis, long maxKeys) throws IOException {
        FileChannel channel = files.open(path, cause, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new SSTableWriter(files, path, channel, options, minFlushIndex, maxFlushIndex, createdMillis, maxKeys);
    }

    /**
     * Appends an entry. REQUIRES: strictly after the previous one in {@link Entry#ORDER}.
     *
     * @param e the entry
     * @throws IOException if handing a full group of pages to the background write finds an earlier write failed
     * @throws IllegalArgumentException if out of order, or too large for a page (naming the limit)
     */
    public void add(Entry e) throws IOException {
        add(e.key(), 0, e.key().length, e.sequence(), e.tombstone(), e.value(), 0, e.value().length);
    }

    /**
     * Appends the cursor's current entry, copying its key and value from where the cursor holds them straight
     * into the page. REQUIRES: strictly after the previous one in {@link Entry#ORDER}.
     *
     * @param c a cursor on an entry
     * @throws IOException if handing a full group of pages to the background write finds an earlier write failed
     * @throws IllegalArgumentException if out of order, or too large for a page (naming the limit)
     */
    public void add(EntryCursor c) throws IOException {
        add(c.keyArray(), c.keyOffset(), c.keyLength(), c.sequence(), c.tombstone(), c.valueArray(), c.valueOffset(),
                c.valueLength());
    }

    private void add(byte[] key, int keyAt, int keyLen, long sequence, boolean tombstone, byte[] value, int valueAt,
            int valueLen) throws IOException {
        if (finished) {
            throw new IllegalStateException("SSTable " + path + " is already finished");
        }
        int size = SSTableFormat.leafEntrySize(keyLen, valueLen, sequence);
        if (size > SSTableFormat.maxEntryBytes(pageSize) || internalEntrySize(keyLen, sequence, Long.MAX_VALUE)
                > SSTableFormat.maxEntryBytes(pageSize) / 2) {
            throw new IllegalArgumentException("entry of key " + keyLen + " bytes and value " + valueLen
                    + " bytes does not fit a " + pageSize + "-byte page (at most " + maxEntryBytes(pageSize)
                    + " bytes of key and value, keys at most about a third of that)");
        }
        boolean newKey = true;
        if (entries > 0) {
            int c = Arrays.compareUnsigned(previousKey, 0, previousKeyLen, key, keyAt, keyAt + keyLen);
            newKey = c != 0;
            if (c > 0 || c == 0 && previousSequence <= sequence) {
                Entry e = new Entry(Arrays.copyOfRange(key, keyAt, keyAt + keyLen), sequence, tombstone,
                        tombstone ? new byte[0] : Arrays.copyOfRange(value, valueAt, valueAt + valueLen));
                throw new IllegalArgumentException("entries out of order: " + e + " after "
                        + new Entry(Arrays.copyOf(previousKey, previousKeyLen), previousSequence, false, new byte[0]));
            }
        }
        if (page.remaining() - SSTableFormat.PAGE_CRC_BYTES < size) {
            endPage();
            startPage(SSTableFormat.LEAF);
        }
        if (pageCount == 0) {
            int separatorLen = entries > 0 && newKey
                    ? Separators.shortestLength(previousKey, previousKeyLen, key, keyAt, keyLen) : keyLen;
            separators.add(key, keyAt, separatorLen, separatorLen < keyLen ? 0 : sequence, nextPage);
        }
        page.put((byte) (tombstone ? 1 : 0));
        SSTableFormat.putVarLong(page, keyLen);
        SSTableFormat.putVarLong(page, valueLen);
        SSTableFormat.putVarLong(page, sequence);
        page.put(key, keyAt, keyLen).put(value, valueAt, valueLen);
        pageCount++;
        if (newKey) {
            bloom.add(key, keyAt, keyLen);
            if (previousKey.length < keyLen) {
                previousKey = new byte[Math.max(keyLen, 2 * previousKey.length)];
            }
            System.arraycopy(key, keyAt, previousKey, 0, keyLen);
            previousKeyLen = keyLen;
        }
        if (entries == 0) {
            firstKey = Arrays.copyOfRange(key, keyAt, keyAt + keyLen);
        }
        previousSequence = sequence;
        entries++;
        dataBytes += keyLen + valueLen;
        tombstones += tombstone ? 1 : 0;
        minSequence = Math.min(minSequence, sequence);
        maxSequence = Math.max(maxSequence, sequence);
    }

    /**
     * {@return the bytes written so far, counting the page being filled: where a merge decides to cut its output}
     */
    public long bytesWritten() {
        return pagesEnd + page.position();
    }

    /**
     * What a table of {@code entries} (in internal order) would be, without writing it.
     *
     * @param fileBytes the file's size: leaf pages by the same packing the writer uses, plus an estimate of the
     *                  internal pages (one separator per leaf, shortened as the writer does), the Bloom filter, the
     *                  metadata, the page offsets and the trailer; exact for the leaves, which dominate
     * @param dataBytes the entries' key and value bytes
     */
    public record Estimate(long fileBytes, long dataBytes) {
    }

    /**
     * Estimates the table {@code entries} would make (see {@link Estimate}), reading them to the end.
     *
     * @param entries the entries, in internal order
     * @param options the table's options
     * @return the estimate
     * @throws IOException if an entry cannot be read
     */
    public static Estimate estimate(EntryCursor entries, SSTableOptions options) throws IOException {
        int pageSize = options.pageSize();
        int capacity = SSTableFormat.maxEntryBytes(pageSize);
        long leaves = 0;
        long leafBytes = 0;
        long count = 0;
        long separatorBytes = 0;
        long dataBytes = 0;
        int used = capacity;
        int firstKeyLen = 0;
        int lastKeyLen = 0;
        byte[] lastKey = new byte[64];
        while (entries.advance()) {
            int keyLen = entries.keyLength();
            int valueLen = entries.valueLength();
            int size = SSTableFormat.leafEntrySize(keyLen, valueLen, entries.sequence());
            if (capacity - used < size) {
                leaves++;
                used = 0;
                int separatorLen = count == 0 ? keyLen : Separators.shortestLength(lastKey, lastKeyLen,
                        entries.keyArray(), entries.keyOffset(), keyLen);
                separatorBytes += internalEntrySize(separatorLen, separatorLen < keyLen ? 0 : entries.sequence(),
                        leaves);
            }
            if (lastKey.length < keyLen) {
                lastKey = new byte[Math.max(keyLen, 2 * lastKey.length)];
            }
            System.arraycopy(entries.keyArray(), entries.keyOffset(), lastKey, 0, keyLen);
            used += size;
            leafBytes += size;
            firstKeyLen = count == 0 ? keyLen : firstKeyLen;
            lastKeyLen = keyLen;
            count++;
            dataBytes += keyLen + valueLen;
        }
        if (count == 0) {
            return new Estimate(0, 0);
        }
        long internal = leaves > 1 ? (separatorBytes + capacity - 1) / capacity + 1 : 0;
        long bloomBytes = count * options.bloomBitsPerKey() / 8 + 16;
        long bloomPages = (bloomBytes + capacity - 1) / capacity;
        long metaBytes = SSTableMetadata.encodedBytes(firstKeyLen, lastKeyLen);
        long metaPages = (metaBytes + capacity - 1) / capacity;
        long pages = leaves + internal + bloomPages + metaPages;
        long bytes = leafBytes + (internal > 0 ? separatorBytes : 0) + bloomBytes + metaBytes
                + pages * (SSTableFormat.PAGE_FRAME_BYTES + 4L) + SSTableFormat.TRAILER_BYTES;
        return new Estimate(bytes, dataBytes);
    }

    /**
     * The most key plus value bytes one entry may hold with {@code pageSize} pages.
     *
     * @param pageSize the page size
     * @return the bytes
     */
    public static int maxEntryBytes(int pageSize) {
        return SSTableFormat.maxEntryBytes(pageSize) - 1 - 3 * SSTableFormat.MAX_VARLONG_BYTES;
    }

    private static int internalEntrySize(int keyLen, long sequence, long child) {
        return SSTableFormat.varLongSize(keyLen) + SSTableFormat.varLongSize(sequence)
                + SSTableFormat.varLongSize(child) + keyLen;
    }

    /**
     * Writes the internal levels, Bloom filter, metadata and trailer, and forces the file to the device.
     *
     * @param oldestTombstoneMillis write time of the oldest tombstone ({@code Long.MAX_VALUE} if none)
     * @return the metadata written
     * @throws IOException if a write or the force failed
     * @throws IllegalStateException if no entry was added
     */
    public SSTableMetadata finish(long oldestTombstoneMillis) throws IOException {
        if (entries == 0) {
            throw new IllegalStateException("an SSTable needs at least one entry: " + path);
        }
        endPage();
        long leafPages = nextPage;
        Separators level = separators;
        int height = 1;
        while (level.size() > 1) {
            level = writeInternalLevel(level);
            height++;
        }
        Separators.Cursor top = level.cursor();
        top.next();
        long root = top.page();
        byte[] bloomBytes = bloom.build().encode();
        long bloomStart = writeBlob(bloomBytes);
        SSTableMetadata meta = new SSTableMetadata(entries, tombstones, firstKey,
                Arrays.copyOf(previousKey, previousKeyLen), minSequence,
                maxSequence, minFlushIndex, maxFlushIndex, createdMillis,
                tombstones == 0 ? Long.MAX_VALUE : oldestTombstoneMillis, dataBytes);
        byte[] metaBytes = meta.encode();
        long metaStart = writeBlob(metaBytes);
        int pages = (int) nextPage;
        writePending();
        awaitWrite();
        // the offsets block, a chunk of lengths at a time, then the trailer with its checksum
        CRC32C offsetsCrc = new CRC32C();
        ByteBuffer block = ByteBuffer.allocate(4 * Math.min(pages, LENGTH_CHUNK));
        long at = pagesEnd;
        for (int from = 0; from < pages; from += LENGTH_CHUNK) {
            int[] chunk = lengths[from >> LENGTH_CHUNK_BITS];
            block.clear();
            for (int i = 0, n = Math.min(LENGTH_CHUNK, pages - from); i < n; i++) {
                block.putInt(chunk[i]);
            }
            block.flip();
            offsetsCrc.update(block.array(), 0, block.limit());
            int bytes = block.remaining();
            write(block, at);
            at += bytes;
        }
        write(ByteBuffer.wrap(new SSTableTrailer(SSTableFormat.VERSION, pageSize, height, root, leafPages, bloomStart,
                bloomBytes.length, metaStart, metaBytes.length, pages, pagesEnd, (int) offsetsCrc.getValue()).encode()),
                at);
        awaitSync();
        channel.force(true);
        finished = true;
        return meta;
    }

    private Separators writeInternalLevel(Separators children) throws IOException {
        Separators parents = new Separators();
        startPage(SSTableFormat.INTERNAL);
        for (Separators.Cursor child = children.cursor(); child.next(); ) {
            int size = child.entryLength();
            if (page.remaining() - SSTableFormat.PAGE_CRC_BYTES < size) {
                endPage();
                startPage(SSTableFormat.INTERNAL);
            }
            if (pageCount == 0) {
                parents.add(child.keyArray(), child.keyOffset(), child.keyLength(), child.sequence(), nextPage);
            }
            page.put(child.keyArray(), child.entryOffset(), size); // encoded as this entry already
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

    /**
     * Starts a page of {@code type} after the finished ones, handing the group to the writer first if a page of the
     * page size might not fit after them.
     */
    private void startPage(byte type) throws IOException {
        if (pendingBytes + pageSize > pending.length) {
            writePending();
        }
        pageAt(pendingBytes, type);
    }

    private void pageAt(int offset, byte type) {
        page = ByteBuffer.wrap(pending, offset, pageSize).slice();
        page.put(type).putInt(0);
        pageCount = 0;
    }

    /**
     * Finishes the page in place: its count, and its length with room for its checksum (computed with its group's
     * write).
     */
    private void endPage() {
        if (nextPage == SSTableTrailer.MAX_PAGES) {
            throw new IllegalStateException("SSTable " + path + " would exceed the format's " + SSTableTrailer.MAX_PAGES
                    + " pages");
        }
        page.putInt(1, pageCount);
        int length = page.position() + SSTableFormat.PAGE_CRC_BYTES;
        int chunk = (int) (nextPage >> LENGTH_CHUNK_BITS);
        if (chunk == lengths.length) {
            lengths = Arrays.copyOf(lengths, 2 * lengths.length); // the chunk references only
        }
        if (lengths[chunk] == null) {
            lengths[chunk] = new int[LENGTH_CHUNK];
        }
        lengths[chunk][(int) (nextPage & (LENGTH_CHUNK - 1))] = length;
        pendingBytes += length;
        pendingPages++;
        pagesEnd += length;
        nextPage++;
    }

    /**
     * Hands the finished pages of the group, which end just before page {@code nextPage}, to a background task
     * that computes each page's checksum and writes the group (after the previous one has finished, so at most one
     * runs), and goes on filling the other group.
     */
    private void writePending() throws IOException {
        if (pendingPages == 0) {
            return;
        }
        byte[] filled = pending;
        int bytes = pendingBytes;
        long first = nextPage - pendingPages;
        int[] groupLengths = new int[pendingPages];
        for (int i = 0; i < pendingPages; i++) {
            long n = first + i;
            groupLengths[i] = lengths[(int) (n >> LENGTH_CHUNK_BITS)][(int) (n & (LENGTH_CHUNK - 1))];
        }
        long start = pagesEnd - bytes;
        awaitWrite();
        syncInBackground(start);
        inFlight = WRITERS.submit(() -> {
            int at = 0;
            for (int i = 0; i < groupLengths.length; i++) {
                int length = groupLengths[i];
                int crc = SSTableFormat.pageCrc(first + i, filled, at, length);
                ByteBuffer.wrap(filled).putInt(at + length - SSTableFormat.PAGE_CRC_BYTES, crc);
                at += length;
            }
            write(ByteBuffer.wrap(filled, 0, bytes), start);
            return null;
        });
        pending = spare;
        spare = filled;
        pendingPages = 0;
        pendingBytes = 0;
    }

    /**
     * Starts a background force of the file if {@code written} bytes (all written) are {@value #SYNC_EVERY_BYTES}
     * or more past the last one started and that one has ended (throwing its failure); otherwise nothing.
     */
    private void syncInBackground(long written) throws IOException {
        if (written - syncRequestedAt < SYNC_EVERY_BYTES || (syncing != null && !syncing.isDone())) {
            return;
        }
        awaitSync();
        syncRequestedAt = written;
        syncing = BackgroundSync.start(channel);
    }

    /** Waits for the background force, if one was started, and throws its failure. */
    private void awaitSync() throws IOException {
        Future<?> f = syncing;
        syncing = null;
        BackgroundSync.await(f, path.toString());
    }

    /** Waits for the background write, if one runs, and throws its failure. */
    private void awaitWrite() throws IOException {
        Future<?> f = inFlight;
        inFlight = null;
        BackgroundSync.await(f, path.toString());
    }

    private void write(ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            at += channel.write(b, at);
        }
    }

    /** Closes the file; an unfinished SSTable is deleted, since it is not a valid file. */
    @Override
    public void close() throws IOException {
        if (inFlight != null || syncing != null) { // not finished: let the write and force end before the close
            try {
                awaitWrite();
            } catch (IOException | RuntimeException e) {
                // the file is unfinished and goes; its failure was or will be reported by the caller's error
            }
            try {
                awaitSync();
            } catch (IOException | RuntimeException e) {
                // as above
            }
        }
        channel.close();
        byte[] a = pending;
        byte[] b = spare;
        pending = null;
        spare = null;
        page = null;
        GroupBuffers.give(a);
        GroupBuffers.give(b);
        if (!finished) {
            files.deleteIfExists(path);
        }
    }
}
