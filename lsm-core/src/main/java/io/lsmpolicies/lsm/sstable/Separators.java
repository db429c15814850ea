package io.lsmpolicies.lsm.sstable;

import java.nio.ByteBuffer;

/**
 * The separators of one level of a table being written, in order: for each page of the level below, its first key
 * and sequence number and its page number, which the writer turns into the internal pages above it once the level
 * is complete. They are kept one after another in one growing array, each already encoded as the internal-page
 * entry it becomes (the key's length, the sequence and the page as varints, then the key), so the writer copies it
 * as it is: about 30 bytes each for 23-byte keys, where an object per separator took about 76 (a merge's output of
 * 5 million 1 KB entries has some 700,000 leaf pages). Not thread-safe.
 */
final class Separators {
    private ByteBuffer bytes = ByteBuffer.allocate(1024);
    private int count;

    /** Appends the separator of page {@code page}: its first entry's key {@code key[from, from + length)}. */
    void add(byte[] key, int from, int length, long sequence, long page) {
        int need = 3 * SSTableFormat.MAX_VARLONG_BYTES + length;
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

    /** Reads the separators in order: {@link #next()}, then the current one's fields and its encoded entry. */
    static final class Cursor {
        private final ByteBuffer in;
        private int entryOffset;
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
