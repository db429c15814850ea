package io.lsmpolicies.feeds;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordFramerTest {

    private final List<String> records = new ArrayList<>();
    private final List<Long> offsets = new ArrayList<>();
    private final List<BadRecord> bad = new ArrayList<>();
    private final RecordFramer.Sink sink = new RecordFramer.Sink() {
        @Override
        public void onRecord(byte[] bytes, int length, long offset) {
            records.add(new String(bytes, 0, length, StandardCharsets.UTF_8));
            offsets.add(offset);
        }

        @Override
        public void onBadRecord(BadRecord b) {
            bad.add(b);
        }
    };

    private static final String STREAM = "{\"a\":\"x{y}\\\"}\"}\n  {\"b\":{\"c\":[1,{\"d\":\"\\\\\"}]}}"
            + "{\"e\":\"é€😀\"}\r\n\t{}";
    private static final List<String> EXPECTED = List.of("{\"a\":\"x{y}\\\"}\"}",
            "{\"b\":{\"c\":[1,{\"d\":\"\\\\\"}]}}", "{\"e\":\"é€😀\"}", "{}");

    @Test
    void framesRecordsSplitAtEveryByteBoundary() {
        byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= bytes.length; cut++) {
            records.clear();
            RecordFramer f = new RecordFramer(1024, sink);
            f.feed(bytes, 0, cut);
            f.feed(bytes, cut, bytes.length - cut);
            f.finish();
            assertThat(records).as("cut at %d", cut).isEqualTo(EXPECTED);
            assertThat(bad).isEmpty();
        }
    }

    @Test
    void framesRecordsFedOneByteAtATime() {
        byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
        RecordFramer f = new RecordFramer(1024, sink);
        for (int i = 0; i < bytes.length; i++) {
            f.feed(bytes, i, 1);
        }
        f.finish();
        assertThat(records).isEqualTo(EXPECTED);
        assertThat(offsets.get(0)).isZero();
        assertThat(f.offset()).isEqualTo(bytes.length);
    }

    @Test
    void bracesAndEscapedQuotesInsideStringsDoNotCount() {
        feedAll("{\"s\":\"}}}{{{\\\"}\\\\\"}{\"t\":1}");
        assertThat(records).containsExactly("{\"s\":\"}}}{{{\\\"}\\\\\"}", "{\"t\":1}");
    }

    @Test
    void strayBytesAreOneErrorPerRunWithOffsetAndResync() {
        feedAll("{\"a\":1} garbage here {\"b\":2}}{\"c\":3}");
        assertThat(records).containsExactly("{\"a\":1}", "{\"b\":2}", "{\"c\":3}");
        assertThat(bad).extracting(BadRecord::kind).containsExactly(ErrorKind.STRAY_BYTES, ErrorKind.STRAY_BYTES);
        assertThat(bad.get(0).offset()).isEqualTo(8);
        assertThat(bad.get(0).excerpt()).startsWith("garbage here");
        assertThat(bad.get(1).offset()).isEqualTo(28);
    }

    @Test
    void tooLargeRecordIsSkippedToItsClosingBraceWithoutBuffering() {
        RecordFramer f = new RecordFramer(32, sink);
        String big = "{\"big\":{\"x\":\"" + "z".repeat(10_000) + "\",\"y\":{}}}";
        byte[] all = ("{\"a\":1}" + big + "{\"b\":2}").getBytes(StandardCharsets.UTF_8);
        int maxBuffered = 0;
        for (int i = 0; i < all.length; i += 7) {
            f.feed(all, i, Math.min(7, all.length - i));
            maxBuffered = Math.max(maxBuffered, f.bufferedBytes());
        }
        f.finish();
        assertThat(records).containsExactly("{\"a\":1}", "{\"b\":2}");
        assertThat(bad).singleElement().satisfies(b -> {
            assertThat(b.kind()).isEqualTo(ErrorKind.TOO_LARGE);
            assertThat(b.offset()).isEqualTo(7);
            assertThat(b.excerpt()).startsWith("{\"big\":");
        });
        assertThat(maxBuffered).isLessThanOrEqualTo(32);
    }

    @Test
    void recordOfExactlyTheLimitIsAccepted() {
        RecordFramer f = new RecordFramer(9, sink);
        byte[] b = "{\"a\":123}".getBytes(StandardCharsets.UTF_8);
        f.feed(b, 0, b.length);
        assertThat(records).containsExactly("{\"a\":123}");
    }

    @Test
    void invalidUtf8IsABadRecordAndTheNextRecordIsKept() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("{\"a\":1}{\"b\":\"".getBytes(StandardCharsets.UTF_8));
        out.write(0xC3); // a lead byte followed by a non-continuation byte
        out.write('(');
        out.writeBytes("\"}{\"c\":3}".getBytes(StandardCharsets.UTF_8));
        byte[] b = out.toByteArray();
        RecordFramer f = new RecordFramer(100, sink);
        f.feed(b, 0, b.length);
        assertThat(records).containsExactly("{\"a\":1}", "{\"c\":3}");
        assertThat(bad).singleElement().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(ErrorKind.INVALID_UTF8);
            assertThat(x.offset()).isEqualTo(7);
        });
    }

    @Test
    void aNonUtf8ByteAnywhereInALongStringIsFound() {
        for (int at = 0; at < 20; at++) {
            records.clear();
            bad.clear();
            byte[] text = "abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);
            text[at] = (byte) 0xFF; // never valid in UTF-8
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes("{\"s\":\"".getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(text);
            out.writeBytes("\"}{\"ok\":1}".getBytes(StandardCharsets.US_ASCII));
            byte[] b = out.toByteArray();
            RecordFramer f = new RecordFramer(1024, sink);
            f.feed(b, 0, b.length);
            assertThat(records).as("at %d", at).containsExactly("{\"ok\":1}");
            assertThat(bad).as("at %d", at).singleElement().extracting(BadRecord::kind)
                    .isEqualTo(ErrorKind.INVALID_UTF8);
        }
    }

    @Test
    void recordOpenAtTheEndIsTruncated() {
        feedAll("{\"a\":1}{\"b\":\"cut he");
        assertThat(records).containsExactly("{\"a\":1}");
        assertThat(bad).singleElement().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(ErrorKind.TRUNCATED);
            assertThat(x.offset()).isEqualTo(7);
        });
    }

    @Test
    void swarScanFindsTheFirstQuoteOrBackslashAtEveryPosition() {
        java.util.Random random = new java.util.Random(7);
        byte[] near = {0x21, 0x23, 0x5B, 0x5D, 0x00, (byte) 0x80, (byte) 0xA2, (byte) 0xDC, (byte) 0xFF, 'a', '0'};
        for (int length = 0; length <= 40; length++) {
            for (int from = 0; from <= 3 && from <= length; from++) {
                for (int at = from; at <= length; at++) { // at == length: no special byte
                    byte[] b = new byte[length];
                    for (int k = 0; k < length; k++) {
                        b[k] = near[random.nextInt(near.length)];
                    }
                    if (at < length) {
                        b[at] = random.nextBoolean() ? (byte) '"' : (byte) '\\';
                        for (int k = at + 1; k < length; k++) { // later specials must not matter
                            if (random.nextInt(4) == 0) {
                                b[k] = (byte) '"';
                            }
                        }
                    }
                    assertThat(RecordFramer.scanString(b, from, length)).as("length %d from %d", length, from)
                            .isEqualTo(at);
                }
            }
        }
    }

    private void feedAll(String s) {
        RecordFramer f = new RecordFramer(1024, sink);
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        f.feed(b, 0, b.length);
        f.finish();
    }
}
