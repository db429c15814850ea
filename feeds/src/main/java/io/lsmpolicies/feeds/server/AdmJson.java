package io.lsmpolicies.feeds.server;

import com.fasterxml.jackson.core.JsonGenerator;
import io.lsmpolicies.records.AdmValue;
import java.io.IOException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Writes an {@link AdmValue} as JSON: objects and arrays as such, integers and finite reals as numbers, hex as a
 * lowercase hex string, temporal values as their text, NaN and infinities as strings.
 */
final class AdmJson {
    private AdmJson() {
    }

    static void write(JsonGenerator g, AdmValue v) throws IOException {
        if (v instanceof AdmValue.Obj o) {
            g.writeStartObject();
            for (Map.Entry<String, AdmValue> f : o.fields().entrySet()) {
                g.writeFieldName(f.getKey());
                write(g, f.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof AdmValue.Array a) {
            g.writeStartArray();
            for (AdmValue item : a.items()) {
                write(g, item);
            }
            g.writeEndArray();
        } else if (v instanceof AdmValue.Str s) {
            g.writeString(s.value());
        } else if (v instanceof AdmValue.Int i) {
            g.writeNumber(i.value());
        } else if (v instanceof AdmValue.Real r) {
            if (Double.isFinite(r.value())) {
                g.writeNumber(r.value());
            } else {
                g.writeString(Double.toString(r.value()));
            }
        } else if (v instanceof AdmValue.Bool b) {
            g.writeBoolean(b.value());
        } else if (v instanceof AdmValue.Binary b) {
            g.writeString(HexFormat.of().formatHex(b.bytes()));
        } else if (v instanceof AdmValue.Temporal t) {
            g.writeString(t.text());
        } else {
            g.writeNull();
        }
    }
}
