package io.lsmpolicies.lsm.sstable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * An immutable Bloom filter over keys: {@link #mightContain(byte[])} is never false for an added key, and is
 * true for other keys with probability about 0.96 % at the default 10 bits per key (the filters this build writes;
 * 0.82 % for those of the first version).
 *
 * <p>A key is hashed once, with MurmurHash3 x64-128 (seed 0), a specified hash computed by our own allocation-free
 * code ({@code Murmur3}), so a filter written today is read the same way by any later build, whatever library
 * versions it uses. Each 64-bit half of the hash is taken as the big-endian number of the hash's output bytes (which
 * are the halves in little-endian order): byte-reversed, h1 and h2. The number of probes is round(bitsPerKey * ln 2),
 * capped to [1, 30]. Two layouts, told apart by the encoding's version:
 *
 * <ul>
 *   <li><b>Version 2, blocked</b> (what builders build): the m bits are blocks of 512 (one 64-byte cache line, 8
 *   words), so a probe reads one line of memory however many bits it tests (Putze, Sanders and Singler,
 *   "Cache-, hash- and space-efficient Bloom filters", WEA 2007). A key's block is floor((h1 >>> 32) * blocks /
 *   2^32); with x(0) = h2 * G and x(i) = x(i - 1) * G for the odd constant G = 0x9E3779B97F4A7C15 (2^64 over the
 *   golden ratio), products taken modulo 2^64, probe i tests bit x(i) >>> 55 (the top 9 bits) of that block. At 10
 *   bits per key the false-positive rate is about 0.96 % instead of 0.82 %: keys crowd some blocks more than
 *   others.</li>
 *   <li><b>Version 1, double hashing over all m bits</b> (still read): probe i tests bit floorMod(h1 + i * h2, m),
 *   the sum taken in 64-bit two's complement (it wraps) (Kirsch and Mitzenmacher, "Less hashing, same performance",
 *   2006). The code follows the sequence with one addition per probe (and a correction where the sum wraps) instead
 *   of a division per probe; {@code BloomFilterTest} checks the bits it sets against the formula. Each probe may
 *   touch another cache line.</li>
 * </ul>
 *
 * <p>Encoding: the version byte, the probe count (1 byte), the number of bits (u32, a positive multiple of 64; of
 * 512 in version 2), then the bit array as big-endian 64-bit words. The SSTable block that holds it carries the CRC.
 */
public final class BloomFilter {
    /** Default bits per key, as in LevelDB and RocksDB. */
    public static final int DEFAULT_BITS_PER_KEY = 10;
    /** The layout builders build: blocks of one cache line. */
    static final byte VERSION_BLOCKED = 2;
    /** The first layout, double hashing over all bits: read, no longer built. */
    static final byte VERSION_WHOLE = 1;
    /** Bits of a block in {@link #VERSION_BLOCKED}: one 64-byte cache line. */
    static final int BLOCK_BITS = 512;
    /** The multiplier of the in-block probe sequence: 2^64 over the golden ratio, odd. */
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final byte version;
    private final long[] words;
    private final int probes;
    /** The number of bits, m. */
    private final long bits;
    /** 2^64 mod m: what a wrapped 64-bit sum is off by, modulo m. */
    private final long wrap;

    private BloomFilter(byte version, long[] words, int probes) {
        this.version = version;
        this.words = words;
        this.probes = probes;
        this.bits = (long) words.length * 64;
        this.wrap = wrapModulo(bits);
    }

    /** 2^64 mod {@code m}, for {@code m > 0}. */
    static long wrapModulo(long m) {
        return (Long.remainderUnsigned(-1L, m) + 1) % m;
    }

    /**
     * Bit {@code i} of the probe sequence after {@code bit}, which is floorMod(x, m) for the 64-bit sum x of the
     * probe before: floorMod(x + h2, m) from floorMod(h2, m) ({@code step}) without a division.
     */
    private static long nextBit(long bit, long x, long h2, long step, long m, long wrap) {
        long next = bit + step;
        if (next >= m) {
            next -= m;
        }
        long sum = x + h2;
        if (((x ^ sum) & (h2 ^ sum)) < 0) { // the sum wrapped: by -2^64 if h2 > 0, else by +2^64
            next = h2 > 0 ? next - wrap : next + wrap;
            if (next < 0) {
                next += m;
            } else if (next >= m) {
                next -= m;
            }
        }
        return next;
    }

    /**
     * An empty filter of layout {@code version}, {@code bits} bits (a positive multiple of 64, of 512 if blocked) and
     * {@code probes} probes, whose bits a test sets with {@link #set} and reads with {@link #isSet}.
     */
    static BloomFilter empty(byte version, long bits, int probes) {
        return new BloomFilter(version, new long[Math.toIntExact(bits / 64)], probes);
    }

    /** {@return the layout's version: {@link #VERSION_BLOCKED} or {@link #VERSION_WHOLE}} */
    public byte version() {
        return version;
    }

    /** {@return whether bit {@code bit} is set} */
    boolean isSet(long bit) {
        return (words[(int) (bit >>> 6)] & (1L << bit)) != 0;
    }

    /** {@return the number of bits set} */
    long bitsSet() {
        long n = 0;
        for (long w : words) {
            n += Long.bitCount(w);
        }
        return n;
    }

    /**
     * Collects the keys of one SSTable; {@link #build()} sizes the filter for them. Without a bound on the number of
     * keys it keeps 12 bytes of hash per key until {@link #build()}; given one of at least {@link #IN_PLACE_MIN_KEYS}
     * keys ({@link BloomFilter#builder(int, long)}), it sets each key's bits at once in a filter sized for the bound,
     * about bitsPerKey / 8 bytes per key, and {@link #build()} folds that filter down to the keys' count.
     */
    public static final class Builder {
        /**
         * Chunk c holds (1,024 &lt;&lt; c) keys less {@link #HEADER_KEYS}, at most 2^20 less that (12 MiB of hashes): a
         * large chunk is a humongous object in G1, given whole regions, and a power of two plus the array's header
         * would take one more region than its data.
         */
        private static final int FIRST_CHUNK_KEYS = 1024;
        private static final int MAX_CHUNK_KEYS = 1 << 20;
        private static final int HEADER_KEYS = 16;
        private final int bitsPerKey;
        /**
         * Per key, what the blocked layout uses of its hash halves (h1, h2): the high half of h1, which picks the
         * block, and h2, which picks the bits in it; 12 bytes a key, kept until {@link #build} knows the count. They
         * fill chunks that are never copied: a merge's output of millions of keys holds them once, plus at most one
         * chunk's spare room, whatever the count.
         */
        private final List<int[]> blockChunks = new ArrayList<>();
        private final List<long[]> bitChunks = new ArrayList<>();
        private int[] blockHashes = new int[0];
        private long[] bitHashes = new long[0];
        /** Keys in the last chunk. */
        private int filled;
        private final long[] scratch = new long[2];
        private int count;
        /** The filter the keys' bits are set in as they come, sized for the bound; null while hashes are kept. */
        private final BloomFilter inPlace;
        /** The largest factor {@link #inPlace}'s blocks may be folded by: a power of two that divides their number. */
        private final int foldLimit;
        /** Whether {@link #build()} has returned {@link #inPlace} or a filter folded from it: no key may follow. */
        private boolean built;

        private Builder(int bitsPerKey, long maxKeys) {
            this.bitsPerKey = bitsPerKey;
            long blocks = 0;
            int fold = 1;
            if (maxKeys >= IN_PLACE_MIN_KEYS) {
                blocks = blocksFor(maxKeys, bitsPerKey);
                blocks += blocks / 8; // room above the bound: a table holding a little over half of it still folds
                fold = (int) Math.max(1, Math.min(MAX_FOLD, Long.highestOneBit(blocks / 64)));
                blocks = (blocks + fold - 1) / fold * fold;
            }
            if (blocks == 0 || blocks * BLOCK_BITS > Integer.MAX_VALUE) {
                // no bound, a small one, or one whose filter the format cannot hold: keep hashes, size for the count
                inPlace = null;
                foldLimit = 1;
            } else {
                inPlace = new BloomFilter(VERSION_BLOCKED, new long[(int) (blocks * BLOCK_BITS / 64)],
                        probesFor(bitsPerKey));
                foldLimit = fold;
            }
        }

        /**
         * Adds a key (duplicates are harmless).
         *
         * @param key the key
         * @return this builder
         */
        public Builder add(byte[] key) {
            return add(key, 0, key.length);
        }

        /**
         * Adds the key held in {@code bytes[from, from + length)} (a key read in place).
         *
         * @param bytes  the array holding the key
         * @param from   where the key starts
         * @param length the key's length
         * @return this builder
         */
        public Builder add(byte[] bytes, int from, int length) {
            if (inPlace != null) {
                if (built) {
                    throw new IllegalStateException("a key added after the filter was built in place");
                }
                hashHalves(bytes, from, length, scratch, 0);
                inPlace.probeBlock(scratch[0], scratch[1], true);
                count++;
                return this;
            }
            if (filled == bitHashes.length) {
                int keys = bitHashes.length == 0 ? FIRST_CHUNK_KEYS
                        : Math.min(MAX_CHUNK_KEYS, 2 * (bitHashes.length + HEADER_KEYS));
                keys -= HEADER_KEYS;
                blockHashes = new int[keys];
                bitHashes = new long[keys];
                blockChunks.add(blockHashes);
                bitChunks.add(bitHashes);
                filled = 0;
            }
            hashHalves(bytes, from, length, scratch, 0);
            blockHashes[filled] = (int) (scratch[0] >>> 32);
            bitHashes[filled] = scratch[1];
            filled++;
            count++;
            return this;
        }

        /** {@return the number of keys added} */
        public int count() {
            return count;
        }

        /**
         * {@return the blocked filter of the keys added: at least bitsPerKey times their number of bits, in whole
         * blocks (at least one); exactly that, rounded up to a block, without a bound; with one, the bound's filter
         * folded by the largest power of two that leaves it that many bits, so between that and about 2.25 times
         * it (1.125 times for a bound the keys reach)}
         */
        public BloomFilter build() {
            long blocks = blocksFor(count, bitsPerKey);
            if (inPlace != null) {
                built = true;
                int factor = foldLimit;
                long have = inPlace.words.length / 8;
                while (factor > 1 && have / factor < blocks) {
                    factor >>= 1;
                }
                return factor == 1 ? inPlace : inPlace.folded(factor);
            }
            if (blocks * BLOCK_BITS > Integer.MAX_VALUE) {
                throw new IllegalStateException("Bloom filter of " + blocks * BLOCK_BITS + " bits is too large");
            }
            BloomFilter filter = new BloomFilter(VERSION_BLOCKED, new long[(int) (blocks * BLOCK_BITS / 64)],
                    probesFor(bitsPerKey));
            for (int c = 0; c < bitChunks.size(); c++) {
                int[] block = blockChunks.get(c);
                long[] bit = bitChunks.get(c);
                int n = c == bitChunks.size() - 1 ? filled : bit.length;
                for (int i = 0; i < n; i++) {
                    filter.set((long) block[i] << 32, bit[i]);
                }
            }
            return filter;
        }
    }

    /**
     * A builder with {@code bitsPerKey} bits per key.
     *
     * @param bitsPerKey bits per key in [1, 64]
     * @return an empty builder
     * @throws IllegalArgumentException if {@code bitsPerKey} is outside [1, 64]
     */
    public static Builder builder(int bitsPerKey) {
        return builder(bitsPerKey, 0);
    }

    /**
     * A builder with {@code bitsPerKey} bits per key for at most {@code maxKeys} keys (a merge's output: at most its
     * inputs' entries). From {@link #IN_PLACE_MIN_KEYS} keys on it sets each key's bits as it is added, in a filter
     * of bitsPerKey x 1.125 bits per key of the bound, instead of keeping 12 bytes of hash per key, and folds that
     * filter at {@link Builder#build()}: with the block of a key floor(x * blocks / 2^32), the filter of blocks / f
     * blocks is the bitwise or of each f adjacent blocks of the larger one, for any f that divides blocks. More keys
     * than the bound make a filter with fewer bits per key (more false positives), never a wrong one. Such a builder
     * builds once: a key added after {@link Builder#build()} is refused.
     *
     * @param bitsPerKey bits per key in [1, 64]
     * @param maxKeys    at most how many keys will be added; 0 if not known
     * @return an empty builder
     * @throws IllegalArgumentException if {@code bitsPerKey} is outside [1, 64] or {@code maxKeys} is negative
     */
    public static Builder builder(int bitsPerKey, long maxKeys) {
        if (bitsPerKey < 1 || bitsPerKey > 64) {
            throw new IllegalArgumentException("Bloom filter bits per key must be in [1, 64], was " + bitsPerKey);
        }
        if (maxKeys < 0) {
            throw new IllegalArgumentException("a Bloom filter's key bound must not be negative, was " + maxKeys);
        }
        return new Builder(bitsPerKey, maxKeys);
    }

    /**
     * From this many keys of bound on, a builder sets bits in place: below it, the hashes it keeps (768 KiB at this
     * bound) cost less than a filter sized for a bound the keys may not reach.
     */
    static final long IN_PLACE_MIN_KEYS = 1 << 16;
    /** The largest factor a filter built in place is folded by. */
    private static final int MAX_FOLD = 1 << 12;

    /** {@return the blocks of a filter of {@code bitsPerKey} bits for each of {@code keys} keys, at least one} */
    private static long blocksFor(long keys, int bitsPerKey) {
        long bits = Math.max(BLOCK_BITS, keys * bitsPerKey);
        return (bits + BLOCK_BITS - 1) / BLOCK_BITS;
    }

    /** {@return round(bitsPerKey x ln 2), in [1, 30]} */
    private static int probesFor(int bitsPerKey) {
        return Math.max(1, Math.min(30, (int) Math.round(bitsPerKey * Math.log(2))));
    }

    /**
     * This blocked filter with each {@code factor} adjacent blocks or-ed into one: the filter the same keys would set
     * with 1 / {@code factor} of the blocks, since floor(floor(x * b / 2^32) / f) = floor(x * (b / f) / 2^32) when f
     * divides b (and a key's bits within its block do not depend on the block count).
     */
    BloomFilter folded(int factor) {
        int blocks = words.length / 8;
        if (version != VERSION_BLOCKED || factor < 1 || blocks % factor != 0) {
            throw new IllegalArgumentException("cannot fold a version " + version + " filter of " + blocks
                    + " blocks by " + factor);
        }
        long[] out = new long[words.length / factor];
        for (int b = 0; b < blocks; b++) {
            int to = b / factor * 8;
            int from = b * 8;
            for (int w = 0; w < 8; w++) {
                out[to + w] |= words[from + w];
            }
        }
        return new BloomFilter(VERSION_BLOCKED, out, probes);
    }

    /** Sets the bits of the key with hash halves (h1, h2). */
    void set(long h1, long h2) {
        if (version == VERSION_BLOCKED) {
            probeBlock(h1, h2, true);
            return;
        }
        long m = bits;
        long bit = Math.floorMod(h1, m);
        long step = Math.floorMod(h2, m);
        long x = h1;
        for (int i = 0; i < probes; i++) {
            words[(int) (bit >>> 6)] |= 1L << bit;
            bit = nextBit(bit, x, h2, step, m, wrap);
            x += h2;
        }
    }

    /**
     * A key's hash, computed once by {@link #hash} and probed against any number of filters (a read that
     * probes every table of a store hashes its key once).
     */
    public record KeyHash(long h1, long h2) {
    }

    /**
     * The hash of {@code key} that {@link #mightContain(KeyHash)} probes.
     *
     * @param key the key
     * @return its two probe hashes
     */
    public static KeyHash hash(byte[] key) {
        long[] h = new long[2];
        hashHalves(key, 0, key.length, h, 0);
        return new KeyHash(h[0], h[1]);
    }

    /**
     * The probe hashes of {@code bytes[from, from + length)} into {@code out[at]} and {@code out[at + 1]}: the two
     * halves of its MurmurHash3 x64-128, each as the big-endian number of the bytes of the hash's usual
     * (little-endian) output, that is byte-reversed.
     */
    private static void hashHalves(byte[] bytes, int from, int length, long[] out, int at) {
        Murmur3.hash128(bytes, from, length, out, at);
        out[at] = Long.reverseBytes(out[at]);
        out[at + 1] = Long.reverseBytes(out[at + 1]);
    }

    /**
     * False only if {@code key} was certainly not added.
     *
     * @param key the key
     * @return false if the key was certainly not added; true if it may have been
     */
    public boolean mightContain(byte[] key) {
        return mightContain(hash(key));
    }

    /**
     * False only if the key {@code hash} was computed from was certainly not added.
     *
     * @param hash the key's {@link #hash}
     * @return false if the key was certainly not added; true if it may have been
     */
    public boolean mightContain(KeyHash hash) {
        long h1 = hash.h1();
        long h2 = hash.h2();
        if (version == VERSION_BLOCKED) {
            return probeBlock(h1, h2, false);
        }
        long m = bits;
        long bit = Math.floorMod(h1, m);
        if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
            return false; // most absent keys end here, at one division
        }
        long step = Math.floorMod(h2, m);
        long x = h1;
        for (int i = 1; i < probes; i++) {
            bit = nextBit(bit, x, h2, step, m, wrap);
            x += h2;
            if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The blocked layout's probes of the key with hash halves (h1, h2): sets its bits if {@code set}, else tests them.
     *
     * @return whether every bit was set (when testing; true when setting)
     */
    private boolean probeBlock(long h1, long h2, boolean set) {
        int block = (int) (((h1 >>> 32) * (words.length / 8)) >>> 32) * 8; // its first word
        long x = h2;
        for (int i = 0; i < probes; i++) {
            x *= GOLDEN;
            int word = block + (int) (x >>> 61); // bit x >>> 55 of the block: word (bit >>> 6), bit (bit & 63)
            long mask = 1L << (x >>> 55);
            if (set) {
                words[word] |= mask;
            } else if ((words[word] & mask) == 0) {
                return false;
            }
        }
        return true;
    }

    /** {@return the number of probes per key} */
    public int probes() {
        return probes;
    }

    /** {@return the encoded form (see the class comment)} */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(6 + words.length * 8);
        b.put(version).put((byte) probes).putInt(words.length * 64);
        for (long w : words) {
            b.putLong(w);
        }
        return b.array();
    }

    /**
     * Reads {@link #encode()}'s output.
     *
     * @param bytes the encoded filter
     * @return the filter
     * @throws IllegalArgumentException saying what is malformed (the caller adds file and offset)
     */
    public static BloomFilter decode(byte[] bytes) {
        if (bytes.length < 6) {
            throw new IllegalArgumentException("Bloom filter block of " + bytes.length + " bytes is shorter than its "
                    + "6-byte header");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte version = b.get();
        int probes = b.get();
        int bits = b.getInt();
        if (version != VERSION_BLOCKED && version != VERSION_WHOLE) {
            throw new IllegalArgumentException("unknown Bloom filter version " + version + " (this build reads "
                    + VERSION_WHOLE + " and " + VERSION_BLOCKED + ")");
        }
        if (probes < 1 || probes > 30) {
            throw new IllegalArgumentException("Bloom filter probe count " + probes + " outside [1, 30]");
        }
        int unit = version == VERSION_BLOCKED ? BLOCK_BITS : 64;
        if (bits <= 0 || bits % unit != 0 || bytes.length != 6 + bits / 8) {
            throw new IllegalArgumentException("Bloom filter of " + bits + " bits does not match its block of "
                    + bytes.length + " bytes" + (bits > 0 && bits % unit != 0 ? " (version " + version
                    + " filters hold a multiple of " + unit + " bits)" : ""));
        }
        long[] words = new long[bits / 64];
        for (int i = 0; i < words.length; i++) {
            words[i] = b.getLong();
        }
        return new BloomFilter(version, words, probes);
    }
}
