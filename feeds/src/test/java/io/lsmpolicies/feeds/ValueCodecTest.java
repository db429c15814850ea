package io.lsmpolicies.feeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.records.ValueCodec;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ValueCodecTest {
    private static final String RECORD = "{\"h\":hex(\"00ff10\"),\"i8\":int8(-1),\"i16\":int16(-300),\"i32\":int32(70000),"
            + "\"i64\":-9223372036854775808,\"f\":float(0.1),\"d\":double(-2.5),\"t\":true,\"fa\":false,\"n\":null,"
            + "\"dt\":datetime(\"2024-01-02T03:04:05Z\"),\"da\":date(\"2024-01-02\"),\"tm\":time(\"03:04:05\"),"
            + "\"s\":\"é€😀\\u0000\",\"a\":[1,[],{\"x\":{{}}}]}";

    @Test
    void roundTripsEveryType() throws Exception {
        AdmValue.Obj r = RecordFormat.ADM.parse(RECORD);
        byte[] enc = ValueCodec.encode(r);
        assertThat(enc[0]).isEqualTo((byte) ValueCodec.VERSION);
        assertThat(ValueCodec.decode(enc)).isEqualTo(r);
    }

    @Test
    void stringsOfEveryUtf8WidthAreSizedExactly() {
        for (String text : new String[] {"", "a", "é", "€", "😀", "a\uD800b", "\uDC00", "x\uD83D", "ü€😀a"}) {
            byte[] enc = ValueCodec.encode(new AdmValue.Str(text));
            String expected = new String(text.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    java.nio.charset.StandardCharsets.UTF_8); // a lone surrogate encodes as '?'
            assertThat(ValueCodec.decode(enc)).as(text).isEqualTo(new AdmValue.Str(expected));
        }
    }

    @Test
    void hexCostsItsBytesNotItsDigits() throws Exception {
        String hex = "ab".repeat(100);
        byte[] enc = ValueCodec.encode(RecordFormat.ADM.parse("{\"f\":hex(\"" + hex + "\")}"));
        assertThat(enc.length).isLessThan(110);
    }

    @Test
    void everyTruncationIsRefused() throws Exception {
        byte[] enc = ValueCodec.encode(RecordFormat.ADM.parse(RECORD));
        for (int n = 0; n < enc.length; n++) {
            byte[] cut = Arrays.copyOf(enc, n);
            assertThatThrownBy(() -> ValueCodec.decode(cut)).as("length %d", n)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** {@link ValueCodec#forEachField}: the object's fields in order, strings and binary in place, as decode sees them. */
    @Test
    void forEachFieldSeesWhatDecodeSees() throws Exception {
        AdmValue.Obj r = RecordFormat.ADM.parse(RECORD);
        byte[] enc = ValueCodec.encode(r);
        java.util.Map<String, AdmValue> seen = new java.util.LinkedHashMap<>();
        ValueCodec.forEachField(enc, new ValueCodec.FieldVisitor() {
            @Override
            public void bytes(String name, boolean text, byte[] bytes, int offset, int length) {
                byte[] b = Arrays.copyOfRange(bytes, offset, offset + length);
                seen.put(name, text ? new AdmValue.Str(new String(b, java.nio.charset.StandardCharsets.UTF_8))
                        : new AdmValue.Binary(b));
            }

            @Override
            public void value(String name, AdmValue value) {
                seen.put(name, value);
            }
        });
        assertThat(seen).containsExactlyEntriesOf(r.fields());
        for (int n = 0; n < enc.length; n++) {
            byte[] cut = Arrays.copyOf(enc, n);
            assertThatThrownBy(() -> ValueCodec.forEachField(cut, new ValueCodec.FieldVisitor() {
                @Override
                public void bytes(String name, boolean text, byte[] bytes, int offset, int length) {
                }

                @Override
                public void value(String name, AdmValue value) {
                }
            })).as("length %d", n).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> ValueCodec.forEachField(ValueCodec.encode(new AdmValue.Str("x")), null))
                .hasMessageContaining("not a record");
    }

    @Test
    void badVersionTagLengthAndTrailingBytesAreRefused() {
        assertThatThrownBy(() -> ValueCodec.decode(new byte[] {2, 0})).hasMessageContaining("version");
        assertThatThrownBy(() -> ValueCodec.decode(new byte[] {1, 99})).hasMessageContaining("unknown tag 99");
        assertThatThrownBy(() -> ValueCodec.decode(new byte[] {1, 9, 50, 'a'})).hasMessageContaining("bad length");
        assertThatThrownBy(() -> ValueCodec.decode(new byte[] {1, 0, 0})).hasMessageContaining("trailing");
        assertThatThrownBy(() -> ValueCodec.decode(new byte[] {1, 3, (byte) 0xFE, 0x03}))
                .hasMessageContaining("int8"); // zigzag 255 -> -128..127 overflow
    }
}
