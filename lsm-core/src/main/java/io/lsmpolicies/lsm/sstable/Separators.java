package io.lsmpolicies.lsm.sstable;

import java.nio.ByteBuffer;

/**
 * The separators of one level of a table being written, in order: for each page of the level below, its first key
 * and sequence number and its page number, which the writer turns into the internal pages above it once the level
 * is complete. They are kept encoded one after another in one growing array (the key's length, the sequence and the
 * page as varints, then the key), about 30 bytes each for 23-byte keys, where an object per separator took about
 * 76: a merge's output of 5 million 1 KB entries has some 700,000 leaf pages. Not thread-safe.
 */
final class Separators {
    /** The most bytes three varints take. */
    private static final int VARINTS_BYTES = 30;
    private ByteBuffer bytes = ByteBuffer.allocate(1024);
    private int count;

    /** Appends the separator of page {@code page}: its first entry's key {@code key[from, from + length)}. */
    void add(byte[] key, int from, int length, long sequence, long page) {
        int need = VARINTS_BYTES + length;
        if (bytes.remaining() < need) {
            long capacity = Math.max((long) bytes.position() + need, bytes.capacity() + bytes.capacity() / 2L);
            if (capacity > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("the separators of one level exceed 2 GiB");
            }
            ByteBuffer grown = ByteBuffer.allocate((int) capacity);
            grown.put(bytes.array(), 0, bytes.position());
            bytes = grown;
        }
        SSTableFormat.putVarLong(bytes, length);
        SSTableFormat.putVarLong(bytes, sequence);
        SSTableFormat.putVarLong(bytes, page);
        bytes.put(key, from, length);
        count++;
    }

    /** {@return how many separators were added} */
    int size() {
        return count;
    }

    /** {@return a cursor over the separators added so far, from the first} */
    Cursor cursor() {
        return new Cursor(ByteBuffer.wrap(bytes.array(), 0, bytes.position()));
    }

    /** Reads the separators in order: {@link #next()}, then the current one's fields. */
    static final class Cursor {
        private final ByteBuffer in;
        private int keyLength;
        private int keyOffset;
        private long sequence;
        private long page;

        private Cursor(ByteBuffer in) {
            this.in = in;
        }

        /** {@return whether there is a next separator; if so it becomes the current one} */
        boolean next() {
            if (!in.hasRemaining()) {
                return false;
            }
            keyLength = (int) SSTableFormat.getVarLong(in);
            sequence = SSTableFormat.getVarLong(in);
            page = SSTableFormat.getVarLong(in);
            keyOffset = in.position();
            in.position(keyOffset + keyLength);
            return true;
        }

        /** {@return the array holding the current key} */
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
