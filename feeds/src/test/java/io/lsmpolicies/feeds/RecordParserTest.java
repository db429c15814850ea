package io.lsmpolicies.feeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.records.AdmValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class RecordParserTest {

    @Test
    void admParsesEveryConstruct() throws Exception {
        AdmValue.Obj r = RecordFormat.ADM.parse("{ \"h\": hex(\"0a1B\"), \"i8\": int8(-128), \"i16\": int16(\"300\"),"
                + " \"i32\":int32(7), \"i64\": int64(-9223372036854775808), \"d\": double(1.5e3),"
                + " \"f\": float(\"0.25\"), \"t\": true, \"fa\": false, \"b\": boolean(\"true\"),"
                + " \"dt\": datetime(\"2024-01-02T03:04:05.000Z\"), \"da\": date(\"2024-01-02\"),"
                + " \"tm\": time(\"03:04:05\"), \"s\": string(\"x\"), \"n\": null, \"plain\": -12, \"frac\": 0.5,"
                + " \"str\": \"a\\\"b\\u00e9\\n\", \"nested\": {\"arr\": [1, [], {}, {{ \"m\" }}]} }");
        assertThat(r.get("h")).isEqualTo(new AdmValue.Binary(new byte[] {0x0a, 0x1b}));
        assertThat(r.get("i8")).isEqualTo(new AdmValue.Int(AdmValue.IntKind.INT8, -128));
        assertThat(r.get("i16")).isEqualTo(new AdmValue.Int(AdmValue.IntKind.INT16, 300));
        assertThat(r.get("i32")).isEqualTo(new AdmValue.Int(AdmValue.IntKind.INT32, 7));
        assertThat(r.get("i64")).isEqualTo(new AdmValue.Int(AdmValue.IntKind.INT64, Long.MIN_VALUE));
        assertThat(r.get("d")).isEqualTo(new AdmValue.Real(1500, false));
        assertThat(r.get("f")).isEqualTo(new AdmValue.Real(0.25, true));
        assertThat(r.get("t")).isEqualTo(new AdmValue.Bool(true));
        assertThat(r.get("fa")).isEqualTo(new AdmValue.Bool(false));
        assertThat(r.get("b")).isEqualTo(new AdmValue.Bool(true));
        assertThat(r.get("dt")).isEqualTo(new AdmValue.Temporal(AdmValue.TemporalKind.DATETIME,
                "2024-01-02T03:04:05.000Z"));
        assertThat(r.get("da")).isEqualTo(new AdmValue.Temporal(AdmValue.TemporalKind.DATE, "2024-01-02"));
        assertThat(r.get("tm")).isEqualTo(new AdmValue.Temporal(AdmValue.TemporalKind.TIME, "03:04:05"));
        assertThat(r.get("s")).isEqualTo(new AdmValue.Str("x"));
        assertThat(r.get("n")).isEqualTo(AdmValue.Null.INSTANCE);
        assertThat(r.get("plain")).isEqualTo(new AdmValue.Int(AdmValue.IntKind.INT64, -12));
        assertThat(r.get("frac")).isEqualTo(new AdmValue.Real(0.5, false));
        assertThat(r.get("str")).isEqualTo(new AdmValue.Str("a\"bé\n"));
        assertThat(r.get("nested")).isEqualTo(new AdmValue.Obj(Map.of("arr", new AdmValue.Array(List.of(
                new AdmValue.Int(AdmValue.IntKind.INT64, 1), new AdmValue.Array(List.of()),
                new AdmValue.Obj(Map.of()), new AdmValue.Array(List.of(new AdmValue.Str("m"))))))));
        assertThat(List.copyOf(r.fields().keySet())).startsWith("h", "i8", "i16");
        // the printed form parses back to the same tree
        assertThat(RecordFormat.ADM.parse(r.toString())).isEqualTo(r);
    }

    @Test
    void jsonParsesPlainJsonToTheSameTree() throws Exception {
        String text = "{\"k\":\"u1\",\"n\":5,\"x\":2.5,\"b\":false,\"z\":null,\"a\":[{\"q\":\"}\"}]}";
        assertThat(RecordFormat.JSON.parse(text)).isEqualTo(RecordFormat.ADM.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":}", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":1}x", "{\"a\":hex(\"abc\")}",
        "{\"a\":hex(\"zz\")}", "{\"a\":int8(128)}", "{\"a\":int32(1.5)}", "{\"a\":uuid(\"x\")}",
        "{\"a\":1,\"a\":2}", "{\"a\":tru}", "{\"a\":\"\\q\"}", "{\"a\":01x}", "{a:1}"})
    void admRejectsSyntaxErrors(String text) {
        assertThatThrownBy(() -> RecordFormat.ADM.parse(text)).isInstanceOf(RecordSyntaxException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":}", "{\"a\":hex(\"00\")}", "{\"a\":1,\"a\":2}", "{\"a\":1}{}",
        "{\"a\":123456789012345678901234567890}"})
    void jsonRejectsSyntaxErrorsAndAdmConstructs(String text) {
        assertThatThrownBy(() -> RecordFormat.JSON.parse(text)).isInstanceOf(RecordSyntaxException.class);
    }

    @ParameterizedTest
    @EnumSource(RecordFormat.class)
    void bytesThatAreNotUtf8AreASyntaxErrorInEitherFormat(RecordFormat f) {
        byte[] b = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '(', '"', '}'};
        assertThatThrownBy(() -> f.parse(b, 0, b.length)).isInstanceOf(RecordSyntaxException.class);
    }

    @Test
    void admParsesASliceAndGivesByteOffsetsInIt() throws Exception {
        byte[] b = "xx{\"é\":hex(\"0A\"),\"s\":\"ü\\n\"}yy".getBytes(StandardCharsets.UTF_8);
        AdmValue.Obj r = RecordFormat.ADM.parse(b, 2, b.length - 4);
        assertThat(r.get("é")).isEqualTo(new AdmValue.Binary(new byte[] {0x0a}));
        assertThat(r.get("s")).isEqualTo(new AdmValue.Str("ü\n"));
        byte[] bad = "{\"é\":hex(\"0G\")}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RecordFormat.ADM.parse(bad, 0, bad.length))
                .isInstanceOf(RecordSyntaxException.class)
                .hasMessageContaining("bad hex digit")
                .satisfies(e -> assertThat(((RecordSyntaxException) e).position()).isEqualTo(12));
    }

    @Test
    void admHexWithEscapesTakesTheGeneralPath() throws Exception {
        assertThat(RecordFormat.ADM.parse("{\"h\":hex(\"\\u0030a\")}").get("h"))
                .isEqualTo(new AdmValue.Binary(new byte[] {0x0a}));
        assertThatThrownBy(() -> RecordFormat.ADM.parse("{\"h\":hex(\"\\u00e9a\")}"))
                .hasMessageContaining("bad hex digit");
    }

    @Test
    void admRejectsNestingPastTheLimit() {
        String deep = "{\"a\":" + "[".repeat(AdmParser.MAX_DEPTH + 1) + "]".repeat(AdmParser.MAX_DEPTH + 1) + "}";
        assertThatThrownBy(() -> RecordFormat.ADM.parse(deep)).hasMessageContaining("nesting");
    }

    @ParameterizedTest
    @EnumSource(RecordFormat.class)
    void formatsAreFoundByName(RecordFormat f) {
        assertThat(RecordFormat.of(f.name().toLowerCase())).isEqualTo(f);
    }
}
