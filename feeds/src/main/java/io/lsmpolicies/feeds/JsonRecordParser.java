package io.lsmpolicies.feeds;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.lsmpolicies.records.AdmValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code json} format: Jackson's streaming parser building an {@link AdmValue} tree directly. */
final class JsonRecordParser {
    /** Nesting is limited as in the {@code adm} format (the framer's cost bound on hostile input relies on it). */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(AdmParser.MAX_DEPTH).build())
            .build();

    private JsonRecordParser() {
    }

    static AdmValue.Obj parse(byte[] bytes, int off, int len) throws RecordSyntaxException {
        try (JsonParser p = FACTORY.createParser(bytes, off, len)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new RecordSyntaxException("a record must be an object", 0);
            }
            AdmValue.Obj obj = readObject(p);
            if (p.nextToken() != null) {
                throw new RecordSyntaxException("text after the record", offset(p.currentLocation()));
            }
            return obj;
        } catch (JsonProcessingException e) {
            int at = e.getLocation() == null ? -1 : offset(e.getLocation());
            String message = e.getOriginalMessage();
            throw message != null && message.startsWith("Invalid UTF-8")
                    ? RecordSyntaxException.invalidUtf8(message, at) : new RecordSyntaxException(message, at);
        } catch (IOException e) {
            throw new RecordSyntaxException(String.valueOf(e.getMessage()), -1);
        }
    }

    /** A location's byte offset in the record (Jackson counts bytes when it parses bytes). */
    private static int offset(JsonLocation at) {
        return (int) (at.getByteOffset() >= 0 ? at.getByteOffset() : at.getCharOffset());
    }

    private static AdmValue.Obj readObject(JsonParser p) throws IOException, RecordSyntaxException {
        Map<String, AdmValue> fields = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            fields.put(name, readValue(p));
        }
        return new AdmValue.Obj(fields);
    }

    private static AdmValue readValue(JsonParser p) throws IOException, RecordSyntaxException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT:
                return readObject(p);
            case START_ARRAY: {
                List<AdmValue> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(readValue(p));
                }
                return new AdmValue.Array(items);
            }
            case VALUE_STRING:
                return new AdmValue.Str(p.getText());
            case VALUE_NUMBER_INT:
                if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    throw new RecordSyntaxException("integer out of int64 range: " + p.getText(),
                            offset(p.currentTokenLocation()));
                }
                return new AdmValue.Int(AdmValue.IntKind.INT64, p.getLongValue());
            case VALUE_NUMBER_FLOAT:
                return new AdmValue.Real(p.getDoubleValue(), false);
            case VALUE_TRUE:
                return new AdmValue.Bool(true);
            case VALUE_FALSE:
                return new AdmValue.Bool(false);
            case VALUE_NULL:
                return AdmValue.Null.INSTANCE;
            default:
                throw new RecordSyntaxException("unexpected " + t, offset(p.currentTokenLocation()));
        }
    }
}
