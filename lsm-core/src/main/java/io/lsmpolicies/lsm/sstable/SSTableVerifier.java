package io.lsmpolicies.lsm.sstable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks an SSTable completely, beyond what reads check on the pages they touch: the page offsets (opening the table
 * checks them: each page's length between the shortest page and the page size, the lengths adding up to where the
 * trailer says the pages end, the block's checksum), every page's checksum and type (leaves, then internal pages, then
 * blob pages, as the format lays them out; pages no read reaches are checked too), that a packed page (versions 2 to 4)
 * ends where its contents do, key order inside and across leaves, that every separator separates (version 4: after
 * every entry of the children before it within its page, and at or before its child's first entry; versions 1 to 3: its
 * child's first entry) and that the internal levels reach every leaf exactly once in order, that the Bloom filter
 * admits every key, and that the metadata matches the contents. The basis of {@code bin/lsm verify}.
 */
public final class SSTableVerifier {
    private SSTableVerifier() {
    }

    /** What was found: no problems means the file is sound. */
    public record Report(Path file, long entries, int height, List<String> problems) {
        /** {@return whether no problem was found} */
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    private record Key(byte[] key, long sequence) {
        int compareTo(Key other) {
            return Entry.compare(key, sequence, other.key, other.sequence);
        }
    }

    /** The first and last entries of a subtree. */
    private record Span(Key first, Key last) {
    }

    /**
     * Verifies {@code path}; never throws for damage, which is reported as problems.
     *
     * @param path the SSTable file
     * @return what was found
     * @throws IOException if the file cannot be read at all
     */
    public static Report verify(Path path) throws IOException {
        List<String> problems = new ArrayList<>();
        SSTableReader reader;
        try {
            reader = SSTableReader.open(path);
        } catch (IOException e) {
            problems.add("cannot open: " + e.getMessage());
            return new Report(path, 0, 0, problems);
        }
        long entries = 0;
        try (reader) {
            try {
                checkEveryPage(path, reader, problems);
            } catch (IOException e) {
                problems.add("pages: " + e.getMessage());
            }
            try {
                long[] nextLeaf = {0};
                walk(reader, reader.root(), reader.height(), nextLeaf, problems);
                if (nextLeaf[0] != reader.leafCount()) {
                    problems.add("the internal levels reach " + nextLeaf[0] + " of " + reader.leafCount() + " leaves");
                }
            } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
                problems.add("tree: " + message(e));
            }
            try {
                entries = checkLeaves(reader, problems);
            } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
                problems.add("leaves: " + message(e));
            }
            return new Report(path, entries, reader.height(), problems);
        }
    }

    /**
     * Reads every page straight from the file (no cache), checking its checksum and that its type fits its region:
     * leaves {@code [0, leafPages)}, internal pages up to the root (the last internal page written), blob pages
     * (Bloom filter, metadata) after it; and that a packed blob page is as long as the bytes it holds.
     */
    private static void checkEveryPage(Path path, SSTableReader r, List<String> problems) throws IOException {
        PageOffsets offsets = r.offsets();
        long internalEnd = r.height() > 1 ? r.root() + 1 : r.leafCount();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            for (long pageNo = 0; pageNo < offsets.pages(); pageNo++) {
                long offset = offsets.offset(pageNo);
                ByteBuffer buffer = ByteBuffer.allocate(offsets.length(pageNo));
                while (buffer.hasRemaining()) {
                    if (ch.read(buffer, offset + buffer.position()) < 0) {
                        throw new IOException("file ends inside page " + pageNo);
                    }
                }
                byte[] page = buffer.array();
                if (buffer.getInt(page.length - SSTableFormat.PAGE_CRC_BYTES) != SSTableFormat.pageCrc(pageNo, page)) {
                    problems.add("offset " + offset + ": page " + pageNo + " checksum mismatch");
                    continue;
                }
                byte expected = pageNo < r.leafCount() ? SSTableFormat.LEAF
                        : pageNo < internalEnd ? SSTableFormat.INTERNAL : SSTableFormat.BLOB;
                if (page[0] != expected) {
                    problems.add("offset " + offset + ": page " + pageNo + " has type " + page[0] + ", its position "
                            + "calls for type " + expected);
                } else if (expected == SSTableFormat.BLOB) {
                    checkPacked(r, pageNo, buffer.getInt(1) + SSTableFormat.PAGE_HEADER_BYTES, problems);
                }
            }
        }
    }

    /**
     * Packed pages (versions 2 to 4) end with their contents: notes a problem if page {@code pageNo}'s contents end at
     * {@code contentEnd} (after its header), not just before its checksum.
     */
    private static void checkPacked(SSTableReader r, long pageNo, long contentEnd, List<String> problems) {
        if (r.version() == SSTableFormat.VERSION_FIXED_PAGES) {
            return; // fixed pages are padded
        }
        int length = r.offsets().length(pageNo);
        if (contentEnd != length - SSTableFormat.PAGE_CRC_BYTES) {
            problems.add("offset " + r.offsets().offset(pageNo) + ": page " + pageNo + " is " + length
                    + " bytes long, but its contents end at byte " + contentEnd + " and its checksum takes "
                    + SSTableFormat.PAGE_CRC_BYTES);
        }
    }

    /** Checks the subtree at {@code pageNo} and returns its first and last keys (null if a leaf is empty). */
    private static Span walk(SSTableReader r, long pageNo, int level, long[] nextLeaf, List<String> problems)
            throws IOException {
        if (!r.offsets().exists(pageNo)) {
            problems.add("offset " + r.offsets().offset(r.offsets().pages()) + ": page " + pageNo + " is named as a "
                    + "child, but the table has " + r.offsets().pages() + " pages");
            return null;
        }
        long offset = r.offsets().offset(pageNo);
        if (level == 1) {
            if (pageNo != nextLeaf[0]) {
                problems.add("offset " + offset + ": leaf " + pageNo + " reached where leaf " + nextLeaf[0]
                        + " was due");
            }
            nextLeaf[0] = pageNo + 1;
            ByteBuffer leaf = r.page(pageNo, SSTableFormat.LEAF);
            if (leaf.getInt(1) == 0) {
                problems.add("offset " + offset + ": empty leaf");
                return null;
            }
            int entries = leaf.getInt(1);
            Entry first = leafEntry(leaf);
            for (int i = 2; i < entries; i++) { // to the last entry, without copying those between
                skipLeafEntry(leaf);
            }
            Entry last = entries > 1 ? leafEntry(leaf) : first;
            return new Span(new Key(first.key(), first.sequence()), new Key(last.key(), last.sequence()));
        }
        ByteBuffer page = r.page(pageNo, SSTableFormat.INTERNAL);
        int count = page.getInt(1);
        if (count < 1) {
            problems.add("offset " + offset + ": internal page without children");
            return null;
        }
        boolean firstKeys = SSTableFormat.separatorsAreFirstKeys(r.version());
        Key first = null;
        Key previous = null;
        Span previousChild = null;
        for (int i = 0; i < count; i++) {
            int keyLen = (int) SSTableFormat.getVarLong(page);
            long seq = SSTableFormat.getVarLong(page);
            long child = SSTableFormat.getVarLong(page);
            byte[] key = new byte[keyLen];
            page.get(key);
            Key separator = new Key(key, seq);
            if (previous != null && previous.compareTo(separator) >= 0) {
                problems.add("offset " + offset + ": separator " + i + " is not above the one before it");
            }
            int mark = page.position();
            Span span = walk(r, child, level - 1, nextLeaf, problems);
            page.position(mark);
            if (span != null && firstKeys && separator.compareTo(span.first()) != 0) {
                problems.add("offset " + offset + ": separator " + i + " differs from the first key of page " + child);
            } else if (span != null && !firstKeys && separator.compareTo(span.first()) > 0) {
                problems.add("offset " + offset + ": separator " + i + " is above the first key of page " + child);
            }
            if (previousChild != null && !firstKeys && separator.compareTo(previousChild.last()) <= 0) {
                problems.add("offset " + offset + ": separator " + i + " is not above the last key of the page before"
                        + " page " + child);
            }
            if (i == 0) {
                first = span == null ? null : span.first();
            }
            previous = separator;
            previousChild = span;
        }
        checkPacked(r, pageNo, page.position(), problems);
        return first == null || previousChild == null ? null : new Span(first, previousChild.last());
    }

    /** Moves {@code page} past its next leaf entry (the key and value order is {@link #leafEntry}'s). */
    private static void skipLeafEntry(ByteBuffer page) {
        page.get(); // flags
        int keyLen = (int) SSTableFormat.getVarLong(page);
        int valueLen = (int) SSTableFormat.getVarLong(page);
        SSTableFormat.getVarLong(page); // sequence
        page.position(page.position() + keyLen + valueLen);
    }

    private static Entry leafEntry(ByteBuffer page) {
        boolean tombstone = (page.get() & 1) != 0;
        int keyLen = (int) SSTableFormat.getVarLong(page);
        int valueLen = (int) SSTableFormat.getVarLong(page);
        long seq = SSTableFormat.getVarLong(page);
        byte[] key = new byte[keyLen];
        page.get(key);
        byte[] value = new byte[valueLen];
        page.get(value);
        return new Entry(key, seq, tombstone, value);
    }

    private static long checkLeaves(SSTableReader r, List<String> problems) throws IOException {
        SSTableMetadata m = r.metadata();
        long entries = 0;
        long tombstones = 0;
        long minSeq = Long.MAX_VALUE;
        long maxSeq = Long.MIN_VALUE;
        Entry first = null;
        Entry previous = null;
        int bloomMisses = 0;
        for (long pageNo = 0; pageNo < r.leafCount(); pageNo++) {
            ByteBuffer page = r.page(pageNo, SSTableFormat.LEAF);
            int count = page.getInt(1);
            for (int i = 0; i < count; i++) {
                Entry e = leafEntry(page);
                if (previous != null && Entry.ORDER.compare(previous, e) >= 0) {
                    problems.add("offset " + r.offsets().offset(pageNo) + ": entry " + i + " (" + e + ") is not after "
                            + previous);
                }
                if (!r.mightContain(e.key())) {
                    bloomMisses++;
                }
                first = first == null ? e : first;
                previous = e;
                entries++;
                tombstones += e.tombstone() ? 1 : 0;
                minSeq = Math.min(minSeq, e.sequence());
                maxSeq = Math.max(maxSeq, e.sequence());
            }
            checkPacked(r, pageNo, page.position(), problems);
        }
        if (bloomMisses > 0) {
            problems.add("the Bloom filter rejects " + bloomMisses + " keys the file holds");
        }
        if (entries != m.entries() || tombstones != m.tombstones()) {
            problems.add("metadata counts " + m.entries() + " entries and " + m.tombstones() + " tombstones; the leaves"
                    + " hold " + entries + " and " + tombstones);
        }
        if (first != null && (!Arrays.equals(first.key(), m.minKey()) || !Arrays.equals(previous.key(), m.maxKey())
                || minSeq != m.minSequence() || maxSeq != m.maxSequence())) {
            problems.add("metadata key or sequence range differs from the leaves'");
        }
        return entries;
    }

    private static String message(Exception e) {
        Throwable t = e instanceof UncheckedIOException u ? u.getCause() : e;
        return t.getMessage();
    }
}
