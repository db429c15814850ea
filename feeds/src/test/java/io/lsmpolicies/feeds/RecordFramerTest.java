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
    /** Takes every candidate (the decoder is not this test's subject, except where {@link #decoder} is set). */
    private RecordDecoder decoder;
    private final RecordFramer.Sink sink = new RecordFramer.Sink() {
        @Override
        public BadRecord onRecord(byte[] bytes, int from, int length, long offset) {
            if (decoder != null) {
                BadRecord why = decoder.decode(bytes, from, length, offset).bad();
                if (why != null) {
                    return why;
                }
            }
            records.add(new String(bytes, from, length, StandardCharsets.UTF_8));
            offsets.add(offset);
            return null;
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
    void tooLargeRecordIsOneErrorAndFramingResumesInsideItWithoutBufferingPastTheLimit() {
        RecordFramer f = new RecordFramer(32, sink);
        String big = "{\"big\":{\"x\":\"" + "z".repeat(10_000) + "\",\"y\":{}}}";
        byte[] all = ("{\"a\":1}" + big + "{\"b\":2}").getBytes(StandardCharsets.UTF_8);
        int maxBuffered = 0;
        for (int i = 0; i < all.length; i += 7) {
            f.feed(all, i, Math.min(7, all.length - i));
            maxBuffered = Math.max(maxBuffered, f.bufferedBytes());
        }
        f.finish();
        // the two outer candidates are too large; the next '{' inside them opens "{}", which is a record
        assertThat(records).containsExactly("{\"a\":1}", "{}", "{\"b\":2}");
        assertThat(bad).extracting(BadRecord::kind).containsExactly(ErrorKind.TOO_LARGE, ErrorKind.STRAY_BYTES);
        assertThat(bad.get(0).offset()).isEqualTo(7);
        assertThat(bad.get(0).excerpt()).startsWith("{\"big\":");
        assertThat(bad.get(1).excerpt()).isEqualTo("}}");
        assertThat(maxBuffered).isLessThanOrEqualTo(32);
    }

    @Test
    void aRecordThatNeverClosesCostsNoRecordAfterIt() {
        feedAll("{\"a\":1}{\"cut\":hex(\"0a{\"b\":2}{\"c\":{\"d\":3}}{\"e\":4}");
        assertThat(records).containsExactly("{\"a\":1}", "{\"b\":2}", "{\"c\":{\"d\":3}}", "{\"e\":4}");
        assertThat(bad).singleElement().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(ErrorKind.TRUNCATED);
            assertThat(x.offset()).isEqualTo(7);
        });
    }

    @Test
    void aRefusedRecordIsRescannedFromTheNextBraceInsideIt() {
        decoder = new RecordDecoder(RecordFormat.ADM, List.of("k"));
        feedAll("{\"x\":{\"k\":1},\"y\":2}{\"k\":2}");
        assertThat(records).containsExactly("{\"k\":1}", "{\"k\":2}");
        assertThat(bad).extracting(BadRecord::kind).containsExactly(ErrorKind.MISSING_KEY, ErrorKind.STRAY_BYTES);
        assertThat(bad).extracting(BadRecord::offset).containsExactly(0L, 12L);
    }

    @Test
    void aBackslashOrDeepNestingOutsideStringsFailsTheCandidate() {
        feedAll("{\"a\":\\{\"b\":1}" + "{".repeat(RecordFramer.MAX_DEPTH + 1) + "}".repeat(RecordFramer.MAX_DEPTH + 1)
                + "{\"c\":1}");
        assertThat(records).startsWith("{\"b\":1}").endsWith("{\"c\":1}");
        assertThat(records.get(1)).isEqualTo("{".repeat(RecordFramer.MAX_DEPTH) + "}".repeat(RecordFramer.MAX_DEPTH));
        // the deepest candidate fails; the one inside it is MAX_DEPTH deep and a record; its last '}' is stray
        assertThat(bad).extracting(BadRecord::kind).containsExactly(ErrorKind.SYNTAX, ErrorKind.SYNTAX,
                ErrorKind.STRAY_BYTES);
        assertThat(bad.get(0).detail()).contains("backslash");
        assertThat(bad.get(1).detail()).contains("nested");
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
        out.writeBytes("{\"k\":1}{\"k\":\"".getBytes(StandardCharsets.UTF_8));
        out.write(0xC3); // a lead byte followed by a non-continuation byte
        out.write('(');
        out.writeBytes("\"}{\"k\":3}".getBytes(StandardCharsets.UTF_8));
        byte[] b = out.toByteArray();
        decoder = new RecordDecoder(RecordFormat.ADM, List.of("k"));
        RecordFramer f = new RecordFramer(100, sink);
        f.feed(b, 0, b.length);
        assertThat(records).containsExactly("{\"k\":1}", "{\"k\":3}");
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
            out.writeBytes("{\"k\":\"".getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(text);
            out.writeBytes("\"}{\"k\":1}".getBytes(StandardCharsets.US_ASCII));
            byte[] b = out.toByteArray();
            decoder = new RecordDecoder(RecordFormat.ADM, List.of("k"));
            RecordFramer f = new RecordFramer(1024, sink);
            f.feed(b, 0, b.length);
            assertThat(records).as("at %d", at).containsExactly("{\"k\":1}");
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

    @Test
    void swarScanFindsTheFirstSpecialByteAtEveryPositionPastFalseHits() {
        java.util.Random random = new java.util.Random(11);
        // near misses: '|' (between the braces), non-ASCII bytes whose low seven bits are a special byte
        byte[] near = {'|', 'z', '~', 0x7A, 0x7E, (byte) 0xFB, (byte) 0xFD, (byte) 0xA2, (byte) 0xDC, 0x5B, 'a', '0'};
        byte[] special = {'"', '\\', '{', '}'};
        for (int length = 0; length <= 40; length++) {
            for (int from = 0; from <= 3 && from <= length; from++) {
                for (int at = from; at <= length; at++) { // at == length: no special byte
                    byte[] b = new byte[length];
                    for (int k = 0; k < length; k++) {
                        b[k] = near[random.nextInt(near.length)];
                    }
                    if (at < length) {
                        b[at] = special[random.nextInt(special.length)];
                        for (int k = at + 1; k < length; k++) {
                            if (random.nextInt(4) == 0) {
                                b[k] = special[random.nextInt(special.length)];
                            }
                        }
                    }
                    assertThat(RecordFramer.scanSpecial(b, from, length)).as("length %d from %d", length, from)
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
