package io.lsmpolicies.lsm.sstable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The separators of one level of a table being written, in order: for each page of the level below, a separator and its
 * page number, which the writer turns into the internal pages above it once the level is complete. A leaf's separator
 * is the shortest key above every key of the leaves before it and at most its own first key ({@link #shortestLength},
 * with sequence number 0), or that first key and its sequence number where no shorter one is (the same key continues
 * from the leaf before, or the key before is its first key less one byte); an internal page's is its first child's.
 * They are kept one after another, each already encoded as the internal-page entry it becomes (the key's length, the
 * sequence and the page as varints, then the key), so the writer copies it as it is: at most about 30 bytes each for
 * 23-byte keys (about 17 once shortened, for random keys), where an object per separator took about 76 (a merge's
 * output of 5 million 1 KB entries has some 1.7 million leaf pages). They lie in chunks that are never copied, the
 * first 1 KiB, each next one twice the last up to {@value #MAX_CHUNK_BYTES} bytes (a larger entry takes a chunk of its
 * own size), so that the level's separators cost what they hold and no more: one growing array held, at each growth,
 * the old and the new copy at once, two and a half times the separators, at the moment a merge's memory peaks. Not
 * thread-safe.
 */
final class Separators {
    /** The largest chunk: below half a 1 MiB G1 region, so that no chunk is a humongous object. */
    static final int MAX_CHUNK_BYTES = 256 * 1024;
    private static final int FIRST_CHUNK_BYTES = 1024;

    private final List<ByteBuffer> chunks = new ArrayList<>();
    private ByteBuffer last;
    private int count;

    /** Appends the separator of page {@code page}: the key {@code key[from, from + length)} and {@code sequence}. */
    void add(byte[] key, int from, int length, long sequence, long page) {
        int need = 3 * SSTableFormat.MAX_VARLONG_BYTES + length;
        if (last == null || last.remaining() < need) {
            int next = last == null ? FIRST_CHUNK_BYTES : Math.min(MAX_CHUNK_BYTES, 2 * last.capacity());
            last = ByteBuffer.allocate(Math.max(next, need));
            chunks.add(last);
        }
        SSTableFormat.putVarLong(last, length);
        SSTableFormat.putVarLong(last, sequence);
        SSTableFormat.putVarLong(last, page);
        last.put(key, from, length);
        count++;
    }

    /**
     * The length of the shortest prefix of {@code key[at, at + length)} that sorts after {@code previous[0,
     * previousLength)}, a smaller key: one byte past the first byte where they differ (or past the end of {@code
     * previous}, if it is a prefix of {@code key}). Any key after {@code previous} and before {@code key} sorts at or
     * after that prefix, so as a separator with sequence number 0 (the last place of its key in internal order) it
     * sends a lookup of such a key, and of every key from {@code key} on, right; of every key up to {@code previous},
     * left. RocksDB's block-based tables shorten their index keys the same way.
     *
     * @return the prefix's length, at most {@code length}: {@code length} means that no prefix shorter than the key
     *         separates them, and the whole key with its own sequence number is the separator
     */
    static int shortestLength(byte[] previous, int previousLength, byte[] key, int at, int length) {
        int differ = Arrays.mismatch(previous, 0, previousLength, key, at, at + length);
        return differ < 0 ? length : Math.min(length, differ + 1);
    }

    /** {@return how many separators were added} */
    int size() {
        return count;
    }

    /** {@return the bytes of the chunks held (for tests: what the separators cost)} */
    long capacityBytes() {
        long sum = 0;
        for (ByteBuffer c : chunks) {
            sum += c.capacity();
        }
        return sum;
    }

    /** {@return a cursor over the separators added so far, from the first} */
    Cursor cursor() {
        List<ByteBuffer> views = new ArrayList<>(chunks.size());
        for (ByteBuffer c : chunks) {
            views.add(ByteBuffer.wrap(c.array(), 0, c.position()));
        }
        return new Cursor(views);
    }

    /**
     * Reads the separators in order: {@link #next()}, then the current one's fields and its encoded entry, which lies
     * whole in {@link #keyArray()} (one chunk).
     */
    static final class Cursor {
        private final List<ByteBuffer> chunks;
        private int chunk;
        private ByteBuffer in;
        private int entryOffset;
        private int keyLength;
        private int keyOffset;
        private long sequence;
        private long page;

        private Cursor(List<ByteBuffer> chunks) {
            this.chunks = chunks;
            this.in = chunks.isEmpty() ? ByteBuffer.allocate(0) : chunks.get(0);
        }

        /** {@return whether there is a next separator; if so it becomes the current one} */
        boolean next() {
            while (!in.hasRemaining()) {
                if (chunk + 1 >= chunks.size()) {
                    return false;
                }
                in = chunks.get(++chunk);
            }
            entryOffset = in.position();
            keyLength = (int) SSTableFormat.getVarLong(in);
            sequence = SSTableFormat.getVarLong(in);
            page = SSTableFormat.getVarLong(in);
            keyOffset = in.position();
            in.position(keyOffset + keyLength);
            return true;
        }

        /** {@return where the current separator's internal-page entry starts in {@link #keyArray()}} */
        int entryOffset() {
            return entryOffset;
        }

        /** {@return the length of the current separator's internal-page entry} */
        int entryLength() {
            return keyOffset + keyLength - entryOffset;
        }

        /** {@return the array holding the current entry and its key} */
        byte[] keyArray() {
            return in.array();
        }

        int keyOffset() {
            return keyOffset;
        }

        int keyLength() {
            return keyLength;
        }

        long sequence() {
            return sequence;
        }

        long page() {
            return page;
        }
    }
}
