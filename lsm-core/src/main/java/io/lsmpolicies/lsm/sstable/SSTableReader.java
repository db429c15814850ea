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
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Reads an SSTable written by {@link SSTableWriter}. Opening reads only the trailer, the metadata and the
 * Bloom filter; a point lookup reads one page per tree level (plus the next leaf when the versions of a key
 * straddle two leaves); a scan walks the leaves in order. Every page is checked against its checksum when
 * read: damage is a {@link CorruptionException} naming the file and the page's offset, never a wrong answer.
 * Thread-safe: reads use positional I/O.
 */
public final class SSTableReader implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private final int pageSize;
    private final long root;
    private final int height;
    private final long leafPages;
    private final BloomFilter bloom;
    private final SSTableMetadata metadata;
    private final BlockCache cache;
    private final long fileId;
    private final java.util.concurrent.atomic.AtomicLong pagesRead = new java.util.concurrent.atomic.AtomicLong();

    private SSTableReader(Path path, FileChannel channel, BlockCache cache) throws IOException {
        this.path = path;
        this.channel = channel;
        this.cache = cache;
        this.fileId = cache.newFileId();
        long size = channel.size();
        if (size < SSTableFormat.TRAILER_BYTES) {
            throw new CorruptionException(path, 0, Code.TRUNCATED_HEADER, "file of " + size + " bytes has no "
                    + SSTableFormat.TRAILER_BYTES + "-byte trailer");
        }
        long at = size - SSTableFormat.TRAILER_BYTES;
        ByteBuffer t = read(at, SSTableFormat.TRAILER_BYTES);
        if (t.getLong() != SSTableFormat.MAGIC) {
            throw new CorruptionException(path, at, Code.BAD_MAGIC, "not an SSTable (trailer magic missing)");
        }
        if (t.getInt(SSTableFormat.TRAILER_BYTES - 4) != SSTableFormat.crc(t.array(), 0, SSTableFormat.TRAILER_BYTES - 4)) {
            throw new CorruptionException(path, at, Code.CHECKSUM_MISMATCH, "SSTable trailer checksum mismatch");
        }
        int version = t.getInt();
        if (version != SSTableFormat.VERSION) {
            throw new CorruptionException(path, at + 8, Code.UNSUPPORTED_VERSION, "SSTable format version " + version
                    + "; this build reads version " + SSTableFormat.VERSION);
        }
        pageSize = t.getInt();
        root = t.getLong();
        height = t.getInt();
        leafPages = t.getLong();
        long bloomStart = t.getLong();
        int bloomBytes = t.getInt();
        long metaStart = t.getLong();
        int metaBytes = t.getInt();
        long pages = at / Math.max(1, pageSize);
        if (pageSize < SSTableFormat.MIN_PAGE_SIZE || Integer.bitCount(pageSize) != 1 || at % pageSize != 0
                || height < 1 || leafPages < 1 || root < 0 || root >= pages || leafPages > pages
                || bloomStart < leafPages || metaStart < bloomStart || metaStart >= pages || bloomBytes < 0
                || metaBytes < 0) {
            throw new CorruptionException(path, at, Code.BAD_LENGTH, "SSTable trailer describes an impossible layout"
                    + " (page size " + pageSize + ", " + pages + " pages, root " + root + ", height " + height + ")");
        }
        try {
            bloom = BloomFilter.decode(readBlob(bloomStart, bloomBytes));
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(path, bloomStart * pageSize, Code.BAD_LENGTH, e.getMessage());
        }
        try {
            metadata = SSTableMetadata.decode(readBlob(metaStart, metaBytes));
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(path, metaStart * pageSize, Code.BAD_LENGTH, e.getMessage());
        }
    }

    /** Opens {@code path} without a block cache: every page read goes to the file. */
    public static SSTableReader open(Path path) throws IOException {
        return open(path, NO_CACHE);
    }

    private static final BlockCache NO_CACHE = BlockCache.ofBytes(0);

    /**
     * Opens {@code path}, reading its pages through {@code cache}.
     *
     * @throws CorruptionException if the trailer, Bloom filter or metadata is damaged or of an unknown version
     */
    public static SSTableReader open(Path path, BlockCache cache) throws IOException {
        return open(FileLayer.plain(), IoCause.READ, path, cache);
    }

    /** As above, with I/O through {@code files} charged to {@code cause} (reads, or a merge's input). */
    public static SSTableReader open(FileLayer files, IoCause cause, Path path, BlockCache cache) throws IOException {
        FileChannel channel = files.open(path, cause, StandardOpenOption.READ);
        try {
            return new SSTableReader(path, channel, cache);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    public SSTableMetadata metadata() {
        return metadata;
    }

    /** Levels of the B+-tree (1: the root is a leaf). */
    public int height() {
        return height;
    }

    /** Pages read from the file since open, cache misses only (for read-amplification accounting and tests). */
    public long pagesRead() {
        return pagesRead.get();
    }

    /** False if {@code key} is certainly absent (Bloom filter), without reading a page. */
    public boolean mightContain(byte[] key) {
        return bloom.mightContain(key);
    }

    /**
     * The newest version of {@code key} with sequence number at most {@code snapshot} (a put or a tombstone),
     * or {@code null} if this SSTable holds none.
     *
     * @throws CorruptionException if a page on the path is damaged
     */
    public Entry get(byte[] key, long snapshot) throws IOException {
        if (!bloom.mightContain(key)) {
            return null;
        }
        try (Cursor c = seek(key, snapshot)) {
            if (c.hasNext()) {
                Entry e = c.next();
                if (Arrays.equals(e.key(), key)) {
                    return e;
                }
            }
            return null;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * All entries from the first at or after ({@code key}, {@code sequence}) in internal order, to the end.
     * Iteration throws {@link UncheckedIOException} wrapping a {@link CorruptionException} on a damaged page.
     */
    public Cursor seek(byte[] key, long sequence) throws IOException {
        long pageNo = root;
        for (int level = height; level > 1; level--) {
            pageNo = child(readPage(pageNo, SSTableFormat.INTERNAL), pageNo, key, sequence);
        }
        Cursor c = new Cursor(pageNo);
        c.skipBefore(key, sequence);
        return c;
    }

    /** All entries in internal order. */
    public Cursor scan() throws IOException {
        return new Cursor(0);
    }

    /**
     * All entries in internal order, reading leaves {@code readAheadBytes} at a time in one call (a merge's
     * sequential pass; pages bypass the block cache and are still checked one by one).
     */
    public Cursor scan(int readAheadBytes) throws IOException {
        return new Cursor(0, Math.max(1, readAheadBytes / pageSize));
    }

    /** The last child whose first key is at or before the target (or the first child). */
    private long child(ByteBuffer page, long pageNo, byte[] key, long sequence) throws CorruptionException {
        int count = page.getInt(1);
        long chosen = -1;
        try {
            for (int i = 0; i < count; i++) {
                int keyLen = (int) SSTableFormat.getVarLong(page);
                long seq = SSTableFormat.getVarLong(page);
                long child = SSTableFormat.getVarLong(page);
                byte[] sep = bytes(page, keyLen);
                if (chosen >= 0 && Entry.compare(sep, seq, key, sequence) > 0) {
                    break;
                }
                chosen = child;
            }
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(path, pageNo * pageSize, Code.BAD_LENGTH, e.getMessage());
        }
        if (chosen < 0 || chosen >= pageNo) { // bulk loading writes every child before its parent
            throw new CorruptionException(path, pageNo * pageSize, Code.BAD_LENGTH,
                    "internal page " + pageNo + " has no valid child (" + chosen + ")");
        }
        return chosen;
    }

    private static byte[] bytes(ByteBuffer page, int n) {
        if (n < 0 || n > page.remaining() - SSTableFormat.PAGE_CRC_BYTES) {
            throw new IllegalArgumentException("length " + n + " runs past the end of the page");
        }
        byte[] b = new byte[n];
        page.get(b);
        return b;
    }

    /** Iterates entries from a leaf onwards, reading one leaf at a time. */
    public final class Cursor implements Iterator<Entry>, Closeable {
        private long leaf;
        private ByteBuffer page;
        private int left;
        private Entry next;

        private final int readAheadPages;
        private byte[] chunk;
        private long chunkStart;
        private int chunkPages;

        private Cursor(long leaf) throws IOException {
            this(leaf, 0);
        }

        private Cursor(long leaf, int readAheadPages) throws IOException {
            this.leaf = leaf;
            this.readAheadPages = readAheadPages;
            load();
            advance();
        }

        private void load() throws IOException {
            page = readAheadPages > 0 ? readAhead() : readPage(leaf, SSTableFormat.LEAF);
            left = page.getInt(1);
        }

        /** The current leaf from the read-ahead chunk, reading the next chunk when it is past the end. */
        private ByteBuffer readAhead() throws IOException {
            if (chunk == null || leaf < chunkStart || leaf >= chunkStart + chunkPages) {
                chunkStart = leaf;
                chunkPages = (int) Math.min(readAheadPages, leafPages - leaf);
                chunk = read(leaf * pageSize, chunkPages * pageSize).array();
                pagesRead.addAndGet(chunkPages);
            }
            int from = (int) (leaf - chunkStart) * pageSize;
            return checked(leaf, SSTableFormat.LEAF, Arrays.copyOfRange(chunk, from, from + pageSize));
        }

        private void advance() throws IOException {
            while (left == 0) {
                if (++leaf >= leafPages) {
                    next = null;
                    return;
                }
                load();
            }
            left--;
            try {
                boolean tombstone = (page.get() & 1) != 0;
                int keyLen = (int) SSTableFormat.getVarLong(page);
                int valueLen = (int) SSTableFormat.getVarLong(page);
                long seq = SSTableFormat.getVarLong(page);
                byte[] key = bytes(page, keyLen);
                byte[] value = bytes(page, valueLen);
                next = new Entry(key, seq, tombstone, value);
            } catch (IllegalArgumentException e) {
                throw new CorruptionException(path, leaf * pageSize, Code.BAD_LENGTH, "leaf entry: " + e.getMessage());
            }
        }

        private void skipBefore(byte[] key, long sequence) throws IOException {
            while (next != null && Entry.compare(next.key(), next.sequence(), key, sequence) < 0) {
                advance();
            }
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public Entry next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            Entry e = next;
            try {
                advance();
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            return e;
        }

        @Override
        public void close() {
            page = null;
            next = null;
        }
    }

    private byte[] readBlob(long start, int length) throws IOException {
        byte[] out = new byte[length];
        int at = 0;
        long pageNo = start;
        do {
            ByteBuffer p = readPage(pageNo, SSTableFormat.BLOB);
            int n = p.getInt(1);
            if (n < 0 || n > SSTableFormat.maxEntryBytes(pageSize) || n > length - at) {
                throw new CorruptionException(path, pageNo * pageSize, Code.BAD_LENGTH, "block page holds " + n
                        + " bytes");
            }
            p.get(out, at, n);
            at += n;
            pageNo++;
        } while (at < length);
        return out;
    }

    /**
     * Page {@code pageNo} from the cache, or read, checked against its checksum and cached; returned (a
     * private view) positioned after its header once its type is checked.
     */
    private ByteBuffer readPage(long pageNo, byte type) throws IOException {
        byte[] bytes = cache.get(fileId, pageNo);
        if (bytes == null) {
            bytes = read(pageNo * pageSize, pageSize).array();
            pagesRead.incrementAndGet();
            verifyChecksum(pageNo, bytes);
            if (type != SSTableFormat.BLOB) {
                cache.put(fileId, pageNo, bytes);
            }
        }
        return checkedType(pageNo, type, bytes);
    }

    /** {@code bytes} (page {@code pageNo}, just read) checked against its checksum and type. */
    private ByteBuffer checked(long pageNo, byte type, byte[] bytes) throws CorruptionException {
        verifyChecksum(pageNo, bytes);
        return checkedType(pageNo, type, bytes);
    }

    private void verifyChecksum(long pageNo, byte[] bytes) throws CorruptionException {
        if (ByteBuffer.wrap(bytes).getInt(pageSize - SSTableFormat.PAGE_CRC_BYTES)
                != SSTableFormat.pageCrc(pageNo, bytes)) {
            throw new CorruptionException(path, pageNo * pageSize, Code.CHECKSUM_MISMATCH,
                    "page " + pageNo + " checksum mismatch");
        }
    }

    private ByteBuffer checkedType(long pageNo, byte type, byte[] bytes) throws CorruptionException {
        ByteBuffer p = ByteBuffer.wrap(bytes);
        if (bytes[0] != type) {
            throw new CorruptionException(path, pageNo * pageSize, Code.BAD_LENGTH, "page " + pageNo + " has type "
                    + bytes[0] + ", expected " + type);
        }
        p.position(SSTableFormat.PAGE_HEADER_BYTES);
        return p;
    }

    private ByteBuffer read(long at, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        while (b.hasRemaining()) {
            if (channel.read(b, at + b.position()) < 0) {
                throw new CorruptionException(path, at, Code.BAD_LENGTH, "file ends inside a " + length
                        + "-byte read");
            }
        }
        return b.flip();
    }

    public Path path() {
        return path;
    }

    int pageSize() {
        return pageSize;
    }

    long root() {
        return root;
    }

    long leafPages() {
        return leafPages;
    }

    /** Page {@code pageNo} checked against its checksum and {@code type}, positioned after its header. */
    ByteBuffer page(long pageNo, byte type) throws IOException {
        return readPage(pageNo, type);
    }

    @Override
    public void close() throws IOException {
        cache.invalidateFile(fileId);
        channel.close();
    }
}
