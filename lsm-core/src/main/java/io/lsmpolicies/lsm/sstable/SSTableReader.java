package io.lsmpolicies.lsm.sstable;

import io.lsmpolicies.lsm.CorruptionException;
import io.lsmpolicies.lsm.CorruptionException.Code;
import io.lsmpolicies.lsm.io.FileLayer;
import io.lsmpolicies.lsm.io.IoCause;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Reads an SSTable written by {@link SSTableWriter}, of any format version ({@link SSTableFormat}: packed pages, or the
 * fixed-size pages of version 1). Opening reads only the trailer, the page offsets (versions 2 to 4), the metadata and
 * the Bloom filter; a point lookup reads one page per tree level (plus the next leaf when the versions of a key
 * straddle two leaves); a scan walks the leaves in order. Every page is checked against its checksum when read: damage
 * is a {@link CorruptionException} naming the file and the page's offset, never a wrong answer.
 *
 * <p>Internal (index) pages are pinned: each is read and parsed once, into memory off the Java heap
 * ({@link IndexPage}), then held by the reader for its lifetime, as the Bloom filter and the page offsets are
 * ({@link #pinnedBytes} counts the internal pages). Leaf pages go through the shared {@link BlockCache}.
 * A lookup binary-searches each page's parsed entry index ({@link IndexPage}, {@link Page}) and copies out only the
 * entry it returns. Thread-safe: reads use positional I/O.
 */
public final class SSTableReader implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private final int version;
    private final int pageSize;
    private final long root;
    private final int height;
    private final long leafPages;
    /** Where each page lies (read from the offsets block at open, in versions 2 to 4). */
    private final PageOffsets offsets;
    /** Internal pages, leafPages .. leafPages + length - 1, parsed on first use and then kept. */
    private final AtomicReferenceArray<IndexPage> internal;
    /** The off-heap memory of {@link #internal}'s pages, shared with the other readers of the table. */
    private final IndexMemory indexMemory;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong pinnedBytes;
    private final BloomFilter bloom;
    private final SSTableMetadata metadata;
    private final BlockCache cache;
    private final long fileId;
    private final AtomicLong pagesRead = new AtomicLong();
    /** The file's length at open. */
    private final long fileBytes;

    private SSTableReader(Path path, FileChannel channel, BlockCache cache) throws IOException {
        this.path = path;
        this.channel = channel;
        this.cache = cache;
        this.fileId = cache.newFileId();
        this.pinnedBytes = new AtomicLong();
        long size = channel.size();
        this.fileBytes = size;
        if (size < SSTableFormat.TRAILER_BYTES) {
            throw new CorruptionException(path, 0, Code.TRUNCATED_HEADER, "file of " + size + " bytes has no "
                    + SSTableFormat.TRAILER_BYTES + "-byte trailer");
        }
        long at = size - SSTableFormat.TRAILER_BYTES;
        SSTableTrailer t = SSTableTrailer.decode(path, read(at, SSTableFormat.TRAILER_BYTES), at);
        version = t.version();
        pageSize = t.pageSize();
        root = t.root();
        height = t.height();
        leafPages = t.leafPages();
        offsets = PageOffsets.of(path, t, read(t.offsetsAt(), (int) t.offsetsBytes()).array());
        internal = new AtomicReferenceArray<>((int) (t.bloomStart() - leafPages));
        indexMemory = new IndexMemory(cache.indexArena(), pageSize);
        try {
            bloom = BloomFilter.decode(readBlob(t.bloomStart(), t.bloomBytes()));
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(path, offsets.offset(t.bloomStart()), Code.BAD_LENGTH, e.getMessage());
        }
        if (bloom.version() != SSTableFormat.bloomVersion(version)) {
            throw new CorruptionException(path, offsets.offset(t.bloomStart()), Code.BAD_LENGTH, "Bloom filter of "
                    + "version " + bloom.version() + " in a table of format version " + version + ", whose filters are "
                    + "of version " + SSTableFormat.bloomVersion(version));
        }
        try {
            metadata = SSTableMetadata.decode(readBlob(t.metaStart(), t.metaBytes()));
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(path, offsets.offset(t.metaStart()), Code.BAD_LENGTH, e.getMessage());
        }
    }

    /**
     * A second reader of the table {@code open} reads, its pages read through {@code channel} and {@code cache}: it
     * shares what {@code open} parsed (page offsets, Bloom filter, metadata, internal pages), which stay valid for the
     * file they were read from, however long either reader lives.
     */
    private SSTableReader(SSTableReader open, FileChannel channel, BlockCache cache) {
        this.path = open.path;
        this.channel = channel;
        this.cache = cache;
        this.fileId = cache.newFileId();
        this.fileBytes = open.fileBytes;
        this.version = open.version;
        this.pageSize = open.pageSize;
        this.root = open.root;
        this.height = open.height;
        this.leafPages = open.leafPages;
        this.offsets = open.offsets;
        this.internal = open.internal;
        if (open.closed.get()) {
            throw new IllegalStateException("SSTable reader of " + open.path + " is closed");
        }
        this.indexMemory = open.indexMemory;
        indexMemory.retain();
        this.pinnedBytes = open.pinnedBytes;
        this.bloom = open.bloom;
        this.metadata = open.metadata;
    }

    /**
     * Opens the file {@code open} reads a second time, with I/O through {@code files} charged to {@code cause}, sharing
     * what {@code open} read and checked at its open instead of reading and holding it again (a merge reads tables the
     * store holds open, and the filters and page offsets of a large merge's inputs are megabytes).
     *
     * @param files the file layer the reads go through
     * @param cause what the reads are charged to
     * @param open  an open reader of the table (it may be closed while the new one lives)
     * @param cache the block cache the new reader's leaves go through
     * @return the reader; close it
     * @throws CorruptionException if the file's length is no longer what {@code open} read
     * @throws IOException         if the file cannot be opened
     */
    public static SSTableReader openSharing(FileLayer files, IoCause cause, SSTableReader open, BlockCache cache)
            throws IOException {
        FileChannel channel = files.open(open.path, cause, StandardOpenOption.READ);
        try {
            long size = channel.size();
            if (size != open.fileBytes) {
                throw new CorruptionException(open.path, Math.min(size, open.fileBytes), Code.BAD_LENGTH,
                        "file of " + size + " bytes, " + open.fileBytes + " when the store opened it");
            }
            return new SSTableReader(open, channel, cache);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Opens {@code path} without a block cache: every page read goes to the file.
     *
     * @param path the SSTable file
     * @return the reader; close it
     * @throws IOException if the file cannot be read ({@link CorruptionException} if damaged)
     */
    public static SSTableReader open(Path path) throws IOException {
        return open(path, NO_CACHE);
    }

    private static final BlockCache NO_CACHE = BlockCache.ofBytes(0);

    /**
     * Opens {@code path}, reading its pages through {@code cache}.
     *
     * @param path  the SSTable file
     * @param cache the block cache its leaves go through
     * @return the reader; close it
     * @throws CorruptionException if the trailer, Bloom filter or metadata is damaged or of an unknown version
     */
    public static SSTableReader open(Path path, BlockCache cache) throws IOException {
        return open(FileLayer.plain(), IoCause.READ, path, cache);
    }

    /**
     * As {@link #open(Path, BlockCache)}, with I/O through {@code files} charged to {@code cause} (reads, or a
     * merge's input).
     *
     * @param files the file layer the reads go through
     * @param cause what the reads are charged to
     * @param path  the SSTable file
     * @param cache the block cache its leaves go through
     * @return the reader; close it
     * @throws IOException if the file cannot be read ({@link CorruptionException} if damaged)
     */
    public static SSTableReader open(FileLayer files, IoCause cause, Path path, BlockCache cache) throws IOException {
        FileChannel channel = files.open(path, cause, StandardOpenOption.READ);
        try {
            return new SSTableReader(path, channel, cache);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** {@return the table's metadata block, read at open} */
    public SSTableMetadata metadata() {
        return metadata;
    }

    /** {@return the levels of the B+-tree (1: the root is a leaf)} */
    public int height() {
        return height;
    }

    /** {@return the pages read from the file since open, cache misses only (read amplification, tests)} */
    public long pagesRead() {
        return pagesRead.get();
    }

    /**
     * False if {@code key} is certainly absent (Bloom filter), without reading a page.
     *
     * @param key the key
     * @return false if the table certainly holds no version of the key
     */
    public boolean mightContain(byte[] key) {
        return bloom.mightContain(key);
    }

    /**
     * As {@link #mightContain(byte[])}, with the key's hash computed once by the caller.
     *
     * @param hash the key's {@link BloomFilter#hash}
     * @return false if the table certainly holds no version of the key
     */
    public boolean mightContain(BloomFilter.KeyHash hash) {
        return bloom.mightContain(hash);
    }

    /** {@return the bytes of internal pages pinned so far (each parsed once, on first use)} */
    public long pinnedBytes() {
        return pinnedBytes.get();
    }

    /**
     * The newest version of {@code key} with sequence number at most {@code snapshot} (a put or a tombstone),
     * or {@code null} if this SSTable holds none.
     *
     * @param key      the key
     * @param snapshot the newest sequence number to see
     * @return the version, or null
     * @throws CorruptionException if a page on the path is damaged
     */
    public Entry get(byte[] key, long snapshot) throws IOException {
        return get(key, BloomFilter.hash(key), snapshot);
    }

    /**
     * As {@link #get(byte[], long)}, with {@code hash} = {@link BloomFilter#hash}({@code key}).
     *
     * @param key      the key
     * @param hash     its hash
     * @param snapshot the newest sequence number to see
     * @return the version, or null
     * @throws IOException if a page cannot be read ({@link CorruptionException} if damaged)
     */
    public Entry get(byte[] key, BloomFilter.KeyHash hash, long snapshot) throws IOException {
        return bloom.mightContain(hash) ? getAdmitted(key, snapshot) : null;
    }

    /**
     * As {@link #get(byte[], long)} for a key the caller has already found the Bloom filter to admit
     * ({@link #mightContain(BloomFilter.KeyHash)}): the search without probing the filter again.
     *
     * @param key      the key
     * @param snapshot the newest sequence number to see
     * @return the version, or null
     * @throws IOException if a page cannot be read ({@link CorruptionException} if damaged)
     */
    public Entry getAdmitted(byte[] key, long snapshot) throws IOException {
        long leaf = leafFor(key, snapshot);
        Page page = leafPage(leaf);
        try {
            int i = page.lowerBound(key, snapshot);
            if (i == page.count()) { // every version here is newer than the snapshot, or the key is past this leaf
                if (leaf + 1 >= leafPages) {
                    return null;
                }
                page.release();
                page = null;
                page = leafPage(leaf + 1);
                i = 0;
            }
            return i < page.count() && page.keyEquals(i, key) ? page.entry(i) : null;
        } finally {
            if (page != null) {
                page.release();
            }
        }
    }

    /**
     * All entries from the first at or after ({@code key}, {@code sequence}) in internal order, to the end.
     * Iteration throws {@link UncheckedIOException} wrapping a {@link CorruptionException} on a damaged page.
     *
     * @param key      the first key
     * @param sequence the newest sequence number of it to start at
     * @return the cursor; close it if not read to the end
     * @throws IOException if the first leaf cannot be read ({@link CorruptionException} if damaged)
     */
    public TableCursor seek(byte[] key, long sequence) throws IOException {
        return new TableCursor(this, leafFor(key, sequence), key, sequence);
    }

    /**
     * The last leaf whose separator is at or before ({@code key}, {@code sequence}) (or the first leaf): the first
     * entry at or after it is in that leaf or is the next leaf's first ({@link SSTableFormat}).
     */
    private long leafFor(byte[] key, long sequence) throws IOException {
        if (closed.get()) {
            throw new IllegalStateException("SSTable reader of " + path + " is closed");
        }
        long pageNo = root;
        for (int level = height; level > 1; level--) {
            IndexPage page = internalPage(pageNo);
            if (page.count() == 0) {
                throw new CorruptionException(path, offsets.offset(pageNo), Code.BAD_LENGTH,
                        "internal page " + pageNo + " has no children");
            }
            long child = page.child(page.floor(key, sequence));
            if (child < 0 || child >= pageNo) { // bulk loading writes every child before its parent
                throw new CorruptionException(path, offsets.offset(pageNo), Code.BAD_LENGTH,
                        "internal page " + pageNo + " has no valid child (" + child + ")");
            }
            pageNo = child;
        }
        return pageNo;
    }

    /**
     * All entries in internal order.
     *
     * @return the cursor; close it if not read to the end
     * @throws IOException if the first leaf cannot be read ({@link CorruptionException} if damaged)
     */
    public TableCursor scan() throws IOException {
        return new TableCursor(this, 0, null, 0);
    }

    /**
     * All entries in internal order, read in place ({@link EntryCursor}): leaves are read {@code readAheadBytes}
     * at a time in one call into a buffer of the cursor's own (a merge's sequential pass; pages bypass the block
     * cache and are still checked one by one), and each entry is decoded where it lies, its key and value not
     * copied. Damage is a {@link CorruptionException} from {@link EntryCursor#advance()}.
     *
     * @param readAheadBytes bytes read per call at most (as many whole pages as that many bytes of the page size
     *                       would hold, at least one)
     * @return the cursor, before its first entry
     */
    public EntryCursor scanInPlace(int readAheadBytes) {
        return new LeafScan(this, Math.max(1, readAheadBytes / pageSize), 0, null, null);
    }

    /**
     * As {@link #scanInPlace(int)}, only the entries whose keys lie in {@code [from, to)}: reading starts at the
     * leaf that may hold {@code from}, and stops at the first key at or after {@code to}. Two such cursors over
     * adjacent ranges read disjoint entries, every version of a key in one of them; they may run on two threads
     * at once (positional reads).
     *
     * @param readAheadBytes as for {@link #scanInPlace(int)}
     * @param from           the first key of the range, inclusive; null for the table's start
     * @param to             the end of the range, exclusive; null for the table's end
     * @return the cursor, before its first entry
     * @throws IOException if the index pages leading to {@code from}'s leaf cannot be read
     */
    public EntryCursor scanInPlace(int readAheadBytes, byte[] from, byte[] to) throws IOException {
        long first = from == null ? 0 : leafFor(from, Long.MAX_VALUE);
        return new LeafScan(this, Math.max(1, readAheadBytes / pageSize), first, from, to);
    }

    /** {@return the number of leaf pages (the data pages, in key order)} */
    public long leafCount() {
        return leafPages;
    }

    /**
     * The leaf that holds the newest version of {@code key} if the table has it: the last leaf whose separator
     * comes at or before it (the first leaf if none), so every entry of the leaves before it sorts before the key.
     * Reads only the pinned index pages.
     *
     * @param key the key
     * @return the leaf's number, {@code 0 .. leafCount() - 1}
     * @throws IOException if an index page cannot be read ({@link CorruptionException} if damaged)
     */
    public long leafOf(byte[] key) throws IOException {
        return leafFor(key, Long.MAX_VALUE);
    }

    /**
     * The key of the first entry of leaf {@code leaf}, read from the file (or the block cache).
     *
     * @param leaf the leaf's number, {@code 0 .. leafCount() - 1}
     * @return a copy of the key
     * @throws IOException if the leaf cannot be read ({@link CorruptionException} if damaged or empty)
     */
    public byte[] firstKey(long leaf) throws IOException {
        if (leaf < 0 || leaf >= leafPages) {
            throw new IllegalArgumentException("leaf " + leaf + " of a table of " + leafPages + " leaves");
        }
        Page page = leafPage(leaf);
        try {
            if (page.count() == 0) {
                throw new CorruptionException(path, offsets.offset(leaf), Code.BAD_LENGTH, "leaf " + leaf
                        + " holds no entry");
            }
            return page.entry(0).key();
        } finally {
            page.release();
        }
    }

    private byte[] readBlob(long start, int length) throws IOException {
        byte[] out = new byte[length];
        int at = 0;
        long pageNo = start;
        do {
            ByteBuffer p = readPage(pageNo, SSTableFormat.BLOB);
            int n = p.getInt(1);
            if (n < 0 || n > p.limit() - SSTableFormat.PAGE_FRAME_BYTES || n > length - at) {
                throw new CorruptionException(path, offsets.offset(pageNo), Code.BAD_LENGTH, "block page " + pageNo
                        + " of " + p.limit() + " bytes claims to hold " + n + " bytes of a " + length + "-byte block"
                        + (at == 0 ? "" : " of which " + at + " came before"));
            }
            p.get(out, at, n);
            at += n;
            pageNo++;
        } while (at < length);
        return out;
    }

    /**
     * Leaf {@code pageNo} from the block cache, or read into the cache's memory, checked, parsed and cached; the
     * caller holds a reference to it and {@linkplain Page#release() releases} it when done.
     */
    Page leafPage(long pageNo) throws IOException {
        Page page = cache.get(fileId, pageNo);
        if (page != null) {
            return page;
        }
        checkExists(pageNo);
        PageArena.Slot slot = cache.allocate(pageSize);
        if (slot == null) { // no caching, or no room: memory of its own, not cached
            return Page.parse(path, pageNo, offsets.offset(pageNo), readVerified(pageNo));
        }
        try {
            int length = offsets.length(pageNo);
            ByteBuffer b = slot.buffer().clear().limit(length);
            readFully(b, offsets.offset(pageNo));
            pagesRead.incrementAndGet();
            verifyChecksum(pageNo, b, length);
            page = Page.parse(path, pageNo, offsets.offset(pageNo), cache.arena(), slot, length);
        } catch (IOException | RuntimeException e) {
            cache.free(slot);
            throw e;
        }
        cache.put(fileId, pageNo, page);
        return page;
    }

    /** Internal page {@code pageNo}, pinned: read, checked and parsed on first use, then kept. */
    private IndexPage internalPage(long pageNo) throws IOException {
        long slot = pageNo - leafPages;
        if (slot < 0 || slot >= internal.length()) {
            throw new CorruptionException(path, offsets.offset(Math.max(0, Math.min(pageNo, offsets.pages()))),
                    Code.BAD_LENGTH, "page " + pageNo + " is not an internal page (those are " + leafPages + " .. "
                    + (leafPages + internal.length() - 1) + ")");
        }
        IndexPage page = internal.get((int) slot);
        if (page == null) {
            // two readers parsing the same page at once both take memory: the loser's lies unused until the close
            page = IndexPage.parse(path, pageNo, offsets.offset(pageNo), readVerified(pageNo), indexMemory);
            if (internal.compareAndSet((int) slot, null, page)) {
                pinnedBytes.addAndGet(page.weight());
            } else {
                page = internal.get((int) slot);
            }
        }
        return page;
    }

    /** Page {@code pageNo} read from the file and checked against its checksum: an array of its length. */
    private byte[] readVerified(long pageNo) throws IOException {
        checkExists(pageNo);
        byte[] bytes = read(offsets.offset(pageNo), offsets.length(pageNo)).array();
        pagesRead.incrementAndGet();
        verifyChecksum(pageNo, bytes, 0, bytes.length);
        return bytes;
    }

    /** Throws if the table has no page {@code pageNo} (a block running past the last page, say). */
    private void checkExists(long pageNo) throws CorruptionException {
        if (!offsets.exists(pageNo)) {
            throw new CorruptionException(path, offsets.offset(offsets.pages()), Code.BAD_LENGTH, "page " + pageNo
                    + " does not exist: the table has " + offsets.pages() + " pages");
        }
    }

    /**
     * Page {@code pageNo} read, checked against its checksum and {@code type}, positioned after its header, its limit
     * the page's length.
     */
    private ByteBuffer readPage(long pageNo, byte type) throws IOException {
        byte[] bytes = readVerified(pageNo);
        if (bytes[0] != type) {
            throw new CorruptionException(path, offsets.offset(pageNo), Code.BAD_LENGTH, "page " + pageNo
                    + " has type " + bytes[0] + ", expected " + type);
        }
        return ByteBuffer.wrap(bytes).position(SSTableFormat.PAGE_HEADER_BYTES);
    }

    /** Checks page {@code pageNo}, {@code length} bytes held in {@code page} from position 0, against its checksum. */
    private void verifyChecksum(long pageNo, ByteBuffer page, int length) throws CorruptionException {
        int stored = page.getInt(length - SSTableFormat.PAGE_CRC_BYTES);
        if (stored != SSTableFormat.pageCrc(pageNo, page, length)) {
            throw new CorruptionException(path, offsets.offset(pageNo), Code.CHECKSUM_MISMATCH,
                    "page " + pageNo + " checksum mismatch");
        }
    }

    /** Checks page {@code pageNo}, held in {@code bytes[at, at + length)}, against its checksum. */
    void verifyChecksum(long pageNo, byte[] bytes, int at, int length) throws CorruptionException {
        int crcAt = at + length - SSTableFormat.PAGE_CRC_BYTES;
        int stored = (bytes[crcAt] & 0xFF) << 24 | (bytes[crcAt + 1] & 0xFF) << 16 | (bytes[crcAt + 2] & 0xFF) << 8
                | bytes[crcAt + 3] & 0xFF;
        if (stored != SSTableFormat.pageCrc(pageNo, bytes, at, length)) {
            throw new CorruptionException(path, offsets.offset(pageNo), Code.CHECKSUM_MISMATCH,
                    "page " + pageNo + " checksum mismatch");
        }
    }

    private ByteBuffer read(long at, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        readFully(b, at);
        return b.flip();
    }

    /** Fills {@code b} (from its position to its limit) with the file's bytes from offset {@code at}. */
    private void readFully(ByteBuffer b, long at) throws IOException {
        int start = b.position();
        int length = b.remaining();
        while (b.hasRemaining()) {
            if (channel.read(b, at + b.position() - start) < 0) {
                throw new CorruptionException(path, at, Code.BAD_LENGTH, "file ends inside a " + length
                        + "-byte read");
            }
        }
    }

    /** {@return the table's file} */
    public Path path() {
        return path;
    }

    int pageSize() {
        return pageSize;
    }

    /** {@return the format version the file was written in} */
    int version() {
        return version;
    }

    /** {@return where each page lies} */
    PageOffsets offsets() {
        return offsets;
    }

    long root() {
        return root;
    }

    /**
     * Reads leaves {@code first .. first + pages - 1} in one call into {@code into} from its start (a merge's
     * read-ahead), unchecked: the caller checks each page.
     */
    void readLeaves(byte[] into, long first, int pages) throws IOException {
        long from = offsets.offset(first);
        readFully(ByteBuffer.wrap(into, 0, (int) (offsets.offset(first + pages) - from)), from);
        pagesRead.addAndGet(pages);
    }

    /**
     * Page {@code pageNo} read from the file (bypassing the cache and the pinned pages), checked against its
     * checksum and {@code type}, positioned after its header: for the verifier, which decodes it itself.
     */
    ByteBuffer page(long pageNo, byte type) throws IOException {
        return readPage(pageNo, type);
    }

    @Override
    public void close() throws IOException {
        if (closed.compareAndSet(false, true)) {
            indexMemory.release(); // the last of the table's readers gives its pinned pages' memory back
        }
        cache.invalidateFile(fileId);
        channel.close();
    }
}
