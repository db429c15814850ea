package io.lsmpolicies.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyEncoderTest {

    /** Sorting values by their encoding gives the values' own order. */
    private static void assertOrderPreserved(List<Object> ascending) {
        List<byte[]> encoded = new ArrayList<>();
        for (Object o : ascending) {
            encoded.add(KeyEncoder.of(o));
        }
        for (int i = 1; i < encoded.size(); i++) {
            assertThat(Arrays.compareUnsigned(encoded.get(i - 1), encoded.get(i)))
                    .as("%s < %s", ascending.get(i - 1), ascending.get(i)).isNegative();
        }
    }

    @Test
    void stringsOrderByCodePointPrefixFirst() {
        assertOrderPreserved(List.of("", "\u0000", "\u0000\u0000", "\u0000a", "a", "a\u0000", "a\u0000b", "ab",
                "b", "é", "€", "😀"));
    }

    @Test
    void integersOrderNumerically() {
        assertOrderPreserved(List.of(Long.MIN_VALUE, -1_000_000L, -1L, 0L, 1L, 255L, 256L, Long.MAX_VALUE));
    }

    @Test
    void doublesOrderNumerically() {
        assertOrderPreserved(List.of(Double.NEGATIVE_INFINITY, -1e300, -1.5, -Double.MIN_VALUE, 0.0,
                Double.MIN_VALUE, 1.0, 1.5, 1e300, Double.POSITIVE_INFINITY, Double.NaN));
        assertThat(KeyEncoder.of(-0.0)).isEqualTo(KeyEncoder.of(0.0));
    }

    @Test
    void compositeKeysOrderFieldByField() {
        KeyEncoder enc = new KeyEncoder(List.of("a", "b"));
        byte[] k1 = enc.encode(record("a", "x", "b", 5L));
        byte[] k2 = enc.encode(record("a", "x", "b", 6L));
        byte[] k3 = enc.encode(record("a", "x\u0000", "b", Long.MIN_VALUE));
        byte[] k4 = enc.encode(record("a", "xa", "b", Long.MIN_VALUE));
        assertThat(Arrays.compareUnsigned(k1, k2)).isNegative();
        assertThat(Arrays.compareUnsigned(k2, k3)).isNegative();
        assertThat(Arrays.compareUnsigned(k3, k4)).isNegative();
        assertThat(k1).isEqualTo(KeyEncoder.of("x", 5L));
    }

    @Test
    void integerWidthsEncodeByValue() {
        KeyEncoder enc = new KeyEncoder(List.of("k"));
        assertThat(enc.encode(new AdmValue.Obj(Map.of("k", new AdmValue.Int(AdmValue.IntKind.INT32, 7)))))
                .isEqualTo(KeyEncoder.of(7L));
    }

    @Test
    void missingNullOrNonKeyTypedFieldIsRefusedByName() {
        KeyEncoder enc = new KeyEncoder(List.of("k"));
        assertThatThrownBy(() -> enc.encode(record("other", "x"))).hasMessageContaining("\"k\" is missing");
        assertThatThrownBy(() -> enc.encode(new AdmValue.Obj(Map.of("k", AdmValue.Null.INSTANCE))))
                .hasMessageContaining("\"k\"");
        assertThatThrownBy(() -> enc.encode(new AdmValue.Obj(Map.of("k", new AdmValue.Bool(true)))))
                .hasMessageContaining("not a string");
        assertThatThrownBy(() -> new KeyEncoder(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    private static AdmValue.Obj record(Object... kv) {
        Map<String, AdmValue> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            Object v = kv[i + 1];
            m.put((String) kv[i], v instanceof String s ? new AdmValue.Str(s)
                    : new AdmValue.Int(AdmValue.IntKind.INT64, (Long) v));
        }
        return new AdmValue.Obj(m);
    }
}
