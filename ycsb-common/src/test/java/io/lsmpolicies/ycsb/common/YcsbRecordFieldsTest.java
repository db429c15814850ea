package io.lsmpolicies.ycsb.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lsmpolicies.records.AdmValue;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * {@link YcsbRecord#fields(byte[], Set, Map)}, which reads a stored record's fields in place, hands YCSB the same
 * bytes as decoding the record and taking its fields, for every field set YCSB asks for and every kind of field.
 */
class YcsbRecordFieldsTest {
    private static Map<String, String> readable(Map<String, ByteIterator> m) {
        Map<String, String> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, Arrays.toString(v.toArray())));
        return out;
    }

    @Test
    void inPlaceFieldsAreTheDecodedRecordsFields() {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            Map<String, ByteIterator> values = new HashMap<>();
            int n = 1 + random.nextInt(12);
            for (int i = 0; i < n; i++) {
                byte[] b = new byte[random.nextInt(200)];
                random.nextBytes(b);
                values.put("field" + i, new ByteArrayByteIterator(b));
            }
            AdmValue.Obj record = YcsbRecord.of("user" + random.nextLong(), values);
            if (round % 3 == 0) { // fields of other kinds, as a record written through the feed may hold
                Map<String, AdmValue> fields = new LinkedHashMap<>(record.fields());
                fields.put("name", new AdmValue.Str("é€" + round));
                fields.put("count", new AdmValue.Int(AdmValue.IntKind.INT64, round));
                fields.put("tags", new AdmValue.Array(java.util.List.of(new AdmValue.Str("a"))));
                record = new AdmValue.Obj(fields);
            }
            byte[] stored = YcsbRecord.encode(record);
            for (Set<String> wanted : Arrays.asList(null, Set.of("field0"), Set.of("field1", "name", "count",
                    "missing"), Set.of(YcsbRecord.KEY_FIELD))) {
                Map<String, ByteIterator> expected = new HashMap<>();
                YcsbRecord.fields(YcsbRecord.decode(stored), wanted, expected);
                Map<String, ByteIterator> actual = new HashMap<>();
                YcsbRecord.fields(stored, wanted, actual);
                assertThat(readable(actual)).as("round %d, fields %s", round, wanted).isEqualTo(readable(expected));
            }
        }
    }

    @Test
    void aValueThatIsNotARecordIsRefused() {
        assertThatThrownBy(() -> YcsbRecord.fields(new byte[] {1, 9, 1, 'x'}, null, new HashMap<>()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a record");
        assertThatThrownBy(() -> YcsbRecord.fields(new byte[] {7}, null, new HashMap<>()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version");
    }
}
