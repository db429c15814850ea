package io.lsmpolicies.feeds;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code adm} format: a recursive-descent parser for JSON extended with the ADM constructors socket-feed
 * clients send. Accepted values:
 * <ul>
 *   <li>JSON: objects, arrays, strings, numbers (an integer is {@code int64}, a fraction or exponent
 *       {@code double}), {@code true}, {@code false}, {@code null};</li>
 *   <li>{@code hex("0a1B")} (even number of hex digits), {@code int8/int16/int32/int64(n)},
 *       {@code float(x)}, {@code double(x)}, {@code boolean(true)}, {@code string("s")},
 *       {@code datetime("...")}, {@code date("...")}, {@code time("...")}; a numeric or boolean argument may be
 *       quoted, as AsterixDB prints it ({@code int64("5")});</li>
 *   <li>ADM multisets {@code {{ ... }}}, read as arrays.</li>
 * </ul>
 * Duplicate field names, trailing text and nesting deeper than {@value #MAX_DEPTH} are errors. Not thread-safe
 * (one instance per record).
 */
final class AdmParser {
    static final int MAX_DEPTH = 256;

    private final String s;
    private int pos;
    private int depth;

    AdmParser(String text) {
        this.s = text;
    }

    AdmValue.Obj parseRecord() throws RecordSyntaxException {
        skipWs();
        if (peek() != '{' || s.startsWith("{{", pos)) {
            throw error("a record must be an object");
        }
        AdmValue.Obj obj = (AdmValue.Obj) value();
        skipWs();
        if (pos != s.length()) {
            throw error("text after the record");
        }
        return obj;
    }

    private AdmValue value() throws RecordSyntaxException {
        skipWs();
        char c = peek();
        if (c == '{') {
            return s.startsWith("{{", pos) ? multiset() : object();
        } else if (c == '[') {
            return array();
        } else if (c == '"') {
            return new AdmValue.Str(string());
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            return number(number());
        } else if (Character.isLetter(c)) {
            return word();
        }
        throw error(c == 0 ? "unexpected end of record" : "unexpected '" + c + "'");
    }

    private AdmValue.Obj object() throws RecordSyntaxException {
        enter();
        pos++; // '{'
        Map<String, AdmValue> fields = new LinkedHashMap<>();
        skipWs();
        if (peek() == '}') {
            pos++;
            depth--;
            return new AdmValue.Obj(fields);
        }
        while (true) {
            skipWs();
            if (peek() != '"') {
                throw error("expected a field name");
            }
            int at = pos;
            String name = string();
            expect(':');
            AdmValue v = value();
            if (fields.putIfAbsent(name, v) != null) {
                pos = at;
                throw error("duplicate field \"" + name + "\"");
            }
            skipWs();
            char c = next();
            if (c == '}') {
                depth--;
                return new AdmValue.Obj(fields);
            } else if (c != ',') {
                pos--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private AdmValue.Array array() throws RecordSyntaxException {
        enter();
        pos++; // '['
        List<AdmValue> items = items(']');
        depth--;
        return new AdmValue.Array(items);
    }

    private AdmValue.Array multiset() throws RecordSyntaxException {
        enter();
        pos += 2; // '{{'
        List<AdmValue> items = items('}');
        expect('}');
        depth--;
        return new AdmValue.Array(items);
    }

    private List<AdmValue> items(char close) throws RecordSyntaxException {
        List<AdmValue> items = new ArrayList<>();
        skipWs();
        if (peek() == close) {
            pos++;
            return items;
        }
        while (true) {
            items.add(value());
            skipWs();
            char c = next();
            if (c == close) {
                return items;
            } else if (c != ',') {
                pos--;
                throw error("expected ',' or '" + close + "'");
            }
        }
    }

    private AdmValue word() throws RecordSyntaxException {
        int start = pos;
        while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
            pos++;
        }
        String w = s.substring(start, pos);
        switch (w) {
            case "true":
                return new AdmValue.Bool(true);
            case "false":
                return new AdmValue.Bool(false);
            case "null":
                return AdmValue.Null.INSTANCE;
            default:
                break;
        }
        skipWs();
        if (peek() != '(') {
            pos = start;
            throw error("unknown word '" + w + "'");
        }
        pos++;
        skipWs();
        AdmValue v = constructor(w, start);
        expect(')');
        return v;
    }

    private AdmValue constructor(String name, int at) throws RecordSyntaxException {
        switch (name) {
            case "hex":
                return new AdmValue.Binary(hex(string()));
            case "string":
                return new AdmValue.Str(string());
            case "datetime":
                return new AdmValue.Temporal(AdmValue.TemporalKind.DATETIME, string());
            case "date":
                return new AdmValue.Temporal(AdmValue.TemporalKind.DATE, string());
            case "time":
                return new AdmValue.Temporal(AdmValue.TemporalKind.TIME, string());
            case "int8":
                return integer(AdmValue.IntKind.INT8);
            case "int16":
                return integer(AdmValue.IntKind.INT16);
            case "int32":
                return integer(AdmValue.IntKind.INT32);
            case "int64":
                return integer(AdmValue.IntKind.INT64);
            case "double":
            case "float": {
                int start = pos;
                String text = peek() == '"' ? string() : number();
                try {
                    double d = Double.parseDouble(text);
                    return new AdmValue.Real(name.equals("float") ? (float) d : d, name.equals("float"));
                } catch (NumberFormatException e) {
                    pos = start;
                    throw error("bad " + name + " '" + text + "'");
                }
            }
            case "boolean": {
                int start = pos;
                String text = peek() == '"' ? string() : bareWord();
                if (!text.equals("true") && !text.equals("false")) {
                    pos = start;
                    throw error("bad boolean '" + text + "'");
                }
                return new AdmValue.Bool(text.equals("true"));
            }
            default:
                pos = at;
                throw error("unknown constructor '" + name + "'");
        }
    }

    private AdmValue.Int integer(AdmValue.IntKind kind) throws RecordSyntaxException {
        int start = pos;
        String text = peek() == '"' ? string() : number();
        try {
            return new AdmValue.Int(kind, Long.parseLong(text));
        } catch (IllegalArgumentException e) { // NumberFormatException or out of the kind's range
            pos = start;
            throw error("bad " + kind.constructor + " '" + text + "'");
        }
    }

    private AdmValue number(String text) throws RecordSyntaxException {
        boolean integral = text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
        try {
            if (integral) {
                return new AdmValue.Int(AdmValue.IntKind.INT64, Long.parseLong(text));
            }
            return new AdmValue.Real(Double.parseDouble(text), false);
        } catch (NumberFormatException e) {
            pos -= text.length();
            throw error("bad number '" + text + "'");
        }
    }

    /** JSON number syntax: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
    private String number() throws RecordSyntaxException {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (!digits()) {
            throw error("expected a number");
        }
        if (peek() == '.') {
            pos++;
            if (!digits()) {
                throw error("expected digits after '.'");
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!digits()) {
                throw error("expected an exponent");
            }
        }
        return s.substring(start, pos);
    }

    private boolean digits() {
        int start = pos;
        while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
            pos++;
        }
        return pos > start;
    }

    private String bareWord() {
        int start = pos;
        while (pos < s.length() && Character.isLetter(s.charAt(pos))) {
            pos++;
        }
        return s.substring(start, pos);
    }

    private String string() throws RecordSyntaxException {
        if (peek() != '"') {
            throw error("expected a string");
        }
        pos++;
        StringBuilder b = null;
        int start = pos;
        while (true) {
            if (pos >= s.length()) {
                throw error("unterminated string");
            }
            char c = s.charAt(pos);
            if (c == '"') {
                String out = b == null ? s.substring(start, pos) : b.append(s, start, pos).toString();
                pos++;
                return out;
            } else if (c == '\\') {
                if (b == null) {
                    b = new StringBuilder();
                }
                b.append(s, start, pos);
                pos++;
                b.append(escape());
                start = pos;
            } else if (c < 0x20) {
                throw error("control character in a string");
            } else {
                pos++;
            }
        }
    }

    private char escape() throws RecordSyntaxException {
        char c = next();
        switch (c) {
            case '"':
            case '\\':
            case '/':
                return c;
            case 'b':
                return '\b';
            case 'f':
                return '\f';
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            case 'u': {
                if (pos + 4 > s.length()) {
                    throw error("truncated \\u escape");
                }
                try {
                    char u = (char) Integer.parseInt(s.substring(pos, pos + 4), 16);
                    pos += 4;
                    return u;
                } catch (NumberFormatException e) {
                    throw error("bad \\u escape");
                }
            }
            default:
                pos--;
                throw error("bad escape '\\" + c + "'");
        }
    }

    private byte[] hex(String text) throws RecordSyntaxException {
        if (text.length() % 2 != 0) {
            throw error("hex(\"...\") needs an even number of digits, got " + text.length());
        }
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(text.charAt(2 * i), 16);
            int lo = Character.digit(text.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw error("bad hex digit in hex(\"...\")");
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }

    private void enter() throws RecordSyntaxException {
        if (++depth > MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH);
        }
    }

    private void expect(char c) throws RecordSyntaxException {
        skipWs();
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private void skipWs() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            pos++;
        }
    }

    private char peek() {
        return pos < s.length() ? s.charAt(pos) : 0;
    }

    private char next() throws RecordSyntaxException {
        if (pos >= s.length()) {
            throw error("unexpected end of record");
        }
        return s.charAt(pos++);
    }

    private RecordSyntaxException error(String message) {
        return new RecordSyntaxException(message, pos);
    }
}
