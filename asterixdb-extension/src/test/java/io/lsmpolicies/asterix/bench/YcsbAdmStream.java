package io.lsmpolicies.asterix.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The record stream of our {@code bin/bench-feed} ({@code io.lsmpolicies.feeds.bench.FeedBenchmark}), byte for
 * byte: record {@code i} is {@code {"YCSB_KEY":"user<i>","field0":hex("..."),...,"field9":hex("...")}}, 10 fields
 * of 100 pseudo-random bytes each (xorshift seeded by record and field), upper-case hex digits, records back to
 * back with no delimiter, as AsterixDB's YCSB client sends them.
 *
 * <p>A copy, not a dependency: depending on {@code feeds} would put our engine, and Netty and Jackson versions
 * other than AsterixDB's, on this module's class path. The format must stay identical to FeedBenchmark's for the
 * two measurements to be comparable (docs/feeds.md, "Against AsterixDB 0.9.8").
 */
final class YcsbAdmStream {
    static final int FIELDS = 10;
    static final int FIELD_BYTES = 100;
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private YcsbAdmStream() {
    }

    /** The 100 bytes of field {@code f} of record {@code i}. */
    static void fill(long i, int f, byte[] out) {
        long x = (i * 0x9E3779B97F4A7C15L) ^ (f + 1) * 0xBF58476D1CE4E5B9L;
        for (int b = 0; b < out.length; b++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            out[b] = (byte) x;
        }
    }

    /** Record {@code i} as ADM text (ASCII). */
    static byte[] record(long i) {
        Buffer b = new Buffer(2 * FIELDS * FIELD_BYTES + 256);
        append(i, b, new byte[FIELD_BYTES]);
        return Arrays.copyOf(b.bytes, b.length);
    }

    /** Writes records {@code [from, to)} back to back into {@code file}. */
    static void write(Path file, long from, long to) throws IOException {
        byte[] scratch = new byte[FIELD_BYTES];
        try (OutputStream out = Files.newOutputStream(file)) {
            Buffer b = new Buffer(1 << 17);
            for (long i = from; i < to; i++) {
                append(i, b, scratch);
                if (b.length >= 1 << 16) {
                    out.write(b.bytes, 0, b.length);
                    b.length = 0;
                }
            }
            out.write(b.bytes, 0, b.length);
        }
    }

    private static void append(long i, Buffer b, byte[] scratch) {
        b.ascii("{\"YCSB_KEY\":\"user").ascii(Long.toString(i)).put('"');
        for (int f = 0; f < FIELDS; f++) {
            fill(i, f, scratch);
            b.ascii(",\"field").ascii(Integer.toString(f)).ascii("\":hex(\"");
            for (byte x : scratch) {
                b.put(HEX[(x >> 4) & 15]).put(HEX[x & 15]);
            }
            b.ascii("\")");
        }
        b.put('}');
    }

    /** A growable ASCII byte buffer. Not thread-safe. */
    private static final class Buffer {
        byte[] bytes;
        int length;

        Buffer(int capacity) {
            bytes = new byte[capacity];
        }

        Buffer put(int c) {
            if (length == bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2);
            }
            bytes[length++] = (byte) c;
            return this;
        }

        Buffer ascii(String s) {
            for (int k = 0; k < s.length(); k++) {
                put(s.charAt(k));
            }
            return this;
        }
    }
}
