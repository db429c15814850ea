package io.lsmpolicies.feeds;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Property tests of the framer's resynchronisation, framer and decoder only (no socket): thousands of random
 * streams per build, each from a seed printed on failure.
 */
class RecordFramerPropertyTest {
    private static final long SEED = 0x5EED_F00DL;
    private static final int MAX_RECORD_BYTES = 512;

    /** What a sink saw: records taken (keys), candidates offered, bad records reported, in order. */
    private static final class Recorder implements RecordFramer.Sink {
        final RecordDecoder decoder = new RecordDecoder(RecordFormat.ADM, List.of("YCSB_KEY"));
        final List<String> keys = new ArrayList<>();
        final List<String> events = new ArrayList<>();
        final List<BadRecord> bad = new ArrayList<>();

        @Override
        public BadRecord onRecord(byte[] bytes, int from, int length, long offset) {
            events.add("candidate " + offset + "+" + length);
            RecordDecoder.Decoded d = decoder.decode(bytes, from, length, offset);
            if (d.bad() != null) {
                return d.bad();
            }
            String record = new String(bytes, from, length, StandardCharsets.UTF_8);
            keys.add(record.substring("{\"YCSB_KEY\":\"".length(), record.indexOf('"', "{\"YCSB_KEY\":\"".length())));
            return null;
        }

        @Override
        public void onBadRecord(BadRecord b) {
            events.add("bad " + b);
            bad.add(b);
        }
    }

    @Test
    void everyWellFormedRecordIsTakenAndEachFragmentIsOneError() {
        SplittableRandom seeds = new SplittableRandom(SEED);
        for (int c = 0; c < 2000; c++) {
            long seed = seeds.nextLong();
            SplittableRandom r = new SplittableRandom(seed);
            FeedStreams.Stream s = FeedStreams.generate(r, "u", 1 + r.nextInt(30), 0.4, MAX_RECORD_BYTES);
            Recorder sink = new Recorder();
            RecordFramer f = new RecordFramer(MAX_RECORD_BYTES, sink);
            for (int[] chunk : FeedStreams.chunks(r, s.bytes().length)) {
                f.feed(s.bytes(), chunk[0], chunk[1]);
                assertThat(f.bufferedBytes()).isLessThanOrEqualTo(MAX_RECORD_BYTES);
            }
            f.finish();
            String why = "seed " + seed + ", stream: " + new String(s.bytes(), StandardCharsets.ISO_8859_1);
            assertThat(sink.keys).as(why).isEqualTo(s.keys());
            assertThat(sink.bad).as(why).extracting(BadRecord::offset).isEqualTo(s.fragments());
            assertThat(sink.bad).as(why).allSatisfy(b -> assertThat(b.excerpt()).isNotEmpty());
        }
    }

    /** Random byte soup (and streams as above) under random limits: the framer does what the slow reference does. */
    @Test
    void framesExactlyAsTheReferenceRescanningFramer() {
        SplittableRandom seeds = new SplittableRandom(SEED + 1);
        byte[] alphabet = "{{{}}}[]\"\"\\:, a1".getBytes(StandardCharsets.US_ASCII);
        for (int c = 0; c < 2000; c++) {
            long seed = seeds.nextLong();
            SplittableRandom r = new SplittableRandom(seed);
            int max = 16 + r.nextInt(200);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int parts = 1 + r.nextInt(12);
            for (int p = 0; p < parts; p++) {
                switch (r.nextInt(6)) {
                    case 0 -> out.writeBytes(("{\"YCSB_KEY\":\"k" + p + "\"}").getBytes(StandardCharsets.US_ASCII));
                    case 1 -> out.writeBytes(FeedStreams.fragment(r, "f" + p, Math.max(max, 300)));
                    case 2 -> out.writeBytes("{".repeat(RecordFramer.MAX_DEPTH - 2 + r.nextInt(5))
                            .getBytes(StandardCharsets.US_ASCII));
                    case 3 -> out.write(r.nextBoolean() ? 0xFF : 0xC3);
                    default -> {
                        int n = r.nextInt(40);
                        for (int k = 0; k < n; k++) {
                            out.write(alphabet[r.nextInt(alphabet.length)]);
                        }
                    }
                }
            }
            byte[] bytes = out.toByteArray();
            Recorder fast = new Recorder();
            RecordFramer f = new RecordFramer(max, fast);
            for (int[] chunk : FeedStreams.chunks(r, bytes.length)) {
                f.feed(bytes, chunk[0], chunk[1]);
            }
            f.finish();
            Recorder slow = new Recorder();
            ReferenceFramer.frame(bytes, max, slow);
            assertThat(fast.events).as("seed %d, limit %d, stream %s", seed, max,
                    new String(bytes, StandardCharsets.ISO_8859_1)).isEqualTo(slow.events);
            assertThat(f.offset()).isEqualTo(bytes.length);
        }
    }

    /** The reported case: 20,000 records with a few fragments that open a brace and never close it. */
    @Test
    void unclosedFragmentsAmongTwentyThousandRecordsCostNoRecord() {
        SplittableRandom r = new SplittableRandom(SEED + 2);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            if (i % 5000 == 2500) {
                out.writeBytes("{\"YCSB_KEY\":\"cut\",\"field0\":hex(\"0a1b".getBytes(StandardCharsets.US_ASCII));
            }
            if (i % 5000 == 4000) {
                out.writeBytes("{{".getBytes(StandardCharsets.US_ASCII));
            }
            keys.add("user" + i);
            out.writeBytes(FeedStreams.record(r, "user" + i, 1 << 20).getBytes(StandardCharsets.US_ASCII));
        }
        Recorder sink = new Recorder();
        RecordFramer f = new RecordFramer(1 << 20, sink);
        byte[] bytes = out.toByteArray();
        for (int[] chunk : FeedStreams.chunks(r, bytes.length)) {
            f.feed(bytes, chunk[0], chunk[1]);
        }
        f.finish();
        assertThat(sink.keys).isEqualTo(keys);
        assertThat(sink.bad).hasSize(8);
    }
}
