package io.lsmpolicies.ycsb;

import com.fasterxml.jackson.databind.JsonNode;
import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.ycsb.common.YcsbRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import site.ycsb.ByteIterator;

/**
 * A {@link YcsbRecord} as the feed mode exchanges it with a node server: written to the socket feed as ADM text,
 * read back from the HTTP API as JSON. Stateless.
 */
final class FeedRecords {
    private static final String KEY_FIELD = YcsbRecord.KEY_FIELD;

    private FeedRecords() {
    }

    /** The record as ADM text, as the AsterixDB YCSB client sends it (no whitespace, no newline). */
    static byte[] adm(AdmValue.Obj record) {
        return record.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A record as the node server's HTTP API returns it (JSON: {@code hex} values as hex strings), back as the
     * stored {@link AdmValue}: the key field a string, every other string that is valid hex a {@code hex} value
     * (YCSB's fields are), other strings strings, integers {@code int64}, other numbers {@code double}. JSON
     * cannot tell a hex string from a string of hex digits; YCSB records have no such strings.
     *
     * @throws IllegalArgumentException if {@code json} is not an object
     */
    static AdmValue.Obj fromJson(JsonNode json) {
        if (!json.isObject()) {
            throw new IllegalArgumentException("expected a record (a JSON object), got " + json.getNodeType());
        }
        Map<String, AdmValue> fields = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            fields.put(f.getKey(), f.getKey().equals(KEY_FIELD) && f.getValue().isTextual()
                    ? new AdmValue.Str(f.getValue().asText()) : value(f.getValue()));
        }
        return new AdmValue.Obj(fields);
    }

    private static AdmValue value(JsonNode n) {
        if (n.isTextual()) {
            String s = n.asText();
            if (s.length() % 2 == 0 && HexFormat.isHexDigit(s.isEmpty() ? '0' : s.charAt(0))) {
                try {
                    return new AdmValue.Binary(HexFormat.of().parseHex(s));
                } catch (IllegalArgumentException e) {
                    return new AdmValue.Str(s);
                }
            }
            return new AdmValue.Str(s);
        }
        if (n.isIntegralNumber() && n.canConvertToLong()) {
            return new AdmValue.Int(AdmValue.IntKind.INT64, n.asLong());
        }
        if (n.isNumber()) {
            return new AdmValue.Real(n.asDouble(), false);
        }
        if (n.isBoolean()) {
            return new AdmValue.Bool(n.asBoolean());
        }
        if (n.isArray()) {
            List<AdmValue> items = new ArrayList<>();
            n.forEach(item -> items.add(value(item)));
            return new AdmValue.Array(items);
        }
        if (n.isObject()) {
            Map<String, AdmValue> fields = new LinkedHashMap<>();
            n.fields().forEachRemaining(f -> fields.put(f.getKey(), value(f.getValue())));
            return new AdmValue.Obj(fields);
        }
        return AdmValue.Null.INSTANCE;
    }

    /** {@link YcsbRecord#fields} of a record as the HTTP API returns it. */
    static void fields(JsonNode json, Set<String> fields, Map<String, ByteIterator> out) {
        YcsbRecord.fields(fromJson(json), fields, out);
    }
}
