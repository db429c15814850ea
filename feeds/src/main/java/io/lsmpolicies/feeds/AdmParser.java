package io.lsmpolicies.feeds;

import io.lsmpolicies.records.AdmValue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code adm} format: a recursive-descent parser for JSON extended with the ADM constructors socket-feed
 * clients send, working on the record's UTF-8 bytes (no intermediate {@code String}). Accepted values:
 * <ul>
 *   <li>JSON: objects, arrays, strings, numbers (an integer is {@code int64}, a fraction or exponent
 *       {@code double}), {@code true}, {@code false}, {@code null};</li>
 *   <li>{@code hex("0a1B")} (even number of hex digits), {@code int8/int16/int32/int64(n)},
 *       {@code float(x)}, {@code double(x)}, {@code boolean(true)}, {@code string("s")},
 *       {@code datetime("...")}, {@code date("...")}, {@code time("...")}; a numeric or boolean argument may be
 *       quoted, as AsterixDB prints it ({@code int64("5")});</li>
 *   <li>ADM multisets {@code {{ ... }}}, read as arrays.</li>
 * </ul>
 * Duplicate field names, trailing text, nesting deeper than {@value #MAX_DEPTH}, bytes that are not UTF-8 inside
 * strings and non-ASCII bytes outside them are errors; positions in messages are byte offsets in the record. Not
 * thread-safe (one instance per record).
 */
final class AdmParser {
    static final int MAX_DEPTH = 256;

    /** The value of each byte as a hex digit, -1 if it is not one. */
    private static final byte[] HEX_VALUE = new byte[256];
    /**
     * The byte two hex digits stand for, indexed by the pair read as a little-endian {@code short} (first digit in
     * the low byte); -1 if either is not a hex digit.
     */
    private static final short[] HEX_PAIR = new short[1 << 16];
    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class,
            ByteOrder.LITTLE_ENDIAN);

    static {
        Arrays.fill(HEX_VALUE, (byte) -1);
        for (int d = 0; d < 10; d++) {
            HEX_VALUE['0' + d] = (byte) d;
        }
        for (int d = 0; d < 6; d++) {
            HEX_VALUE['a' + d] = (byte) (10 + d);
            HEX_VALUE['A' + d] = (byte) (10 + d);
        }
        for (int pair = 0; pair < HEX_PAIR.length; pair++) {
            int hi = HEX_VALUE[pair & 0xFF];
            int lo = HEX_VALUE[pair >>> 8];
            HEX_PAIR[pair] = (short) ((hi | lo) < 0 ? -1 : hi << 4 | lo);
        }
    }

    private final byte[] b;
    private final int start;
    private final int end;
    private int pos;
    private int depth;

    /** Parses {@code bytes[off, off + len)}; the array is not copied and must not change during the parse. */
    AdmParser(byte[] bytes, int off, int len) {
        this.b = bytes;
        this.start = off;
        this.end = off + len;
        this.pos = off;
    }

    AdmValue.Obj parseRecord() throws RecordSyntaxException {
        skipWs();
        if (peek() != '{' || peekAt(1) == '{') {
            throw error("a record must be an object");
        }
        AdmValue.Obj obj = (AdmValue.Obj) value();
        skipWs();
        if (pos != end) {
            throw error("text after the record");
        }
        return obj;
    }

    private AdmValue value() throws RecordSyntaxException {
        skipWs();
        int c = peek();
        if (c == '{') {
            return peekAt(1) == '{' ? multiset() : object();
        } else if (c == '[') {
            return array();
        } else if (c == '"') {
            return new AdmValue.Str(string());
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            return number(number());
        } else if (isLetter(c)) {
            return word();
        }
        throw error(c < 0 ? "unexpected end of record" : "unexpected " + describe(c));
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
            int c = next();
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
            int c = next();
            if (c == close) {
                return items;
            } else if (c != ',') {
                pos--;
                throw error("expected ',' or '" + close + "'");
            }
        }
    }

    private AdmValue word() throws RecordSyntaxException {
        int at = pos;
        while (pos < end && (isLetter(b[pos]) || (b[pos] >= '0' && b[pos] <= '9') || b[pos] == '_')) {
            pos++;
        }
        String w = ascii(at, pos);
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
            pos = at;
            throw error("unknown word '" + w + "'");
        }
        pos++;
        skipWs();
        AdmValue v = constructor(w, at);
        expect(')');
        return v;
    }

    private AdmValue constructor(String name, int at) throws RecordSyntaxException {
        switch (name) {
            case "hex":
                return new AdmValue.Binary(hex());
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
                int from = pos;
                String text = peek() == '"' ? string() : number();
                try {
                    double d = Double.parseDouble(text);
                    return new AdmValue.Real(name.equals("float") ? (float) d : d, name.equals("float"));
                } catch (NumberFormatException e) {
                    pos = from;
                    throw error("bad " + name + " '" + text + "'");
                }
            }
            case "boolean": {
                int from = pos;
                String text = peek() == '"' ? string() : bareWord();
                if (!text.equals("true") && !text.equals("false")) {
                    pos = from;
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
        int from = pos;
        String text = peek() == '"' ? string() : number();
        try {
            return new AdmValue.Int(kind, Long.parseLong(text));
        } catch (IllegalArgumentException e) { // NumberFormatException or out of the kind's range
            pos = from;
            throw error("bad " + kind.constructor() + " '" + text + "'");
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
        int from = pos;
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
        return ascii(from, pos);
    }

    private boolean digits() {
        int from = pos;
        while (pos < end && b[pos] >= '0' && b[pos] <= '9') {
            pos++;
        }
        return pos > from;
    }

    private String bareWord() {
        int from = pos;
        while (pos < end && isLetter(b[pos])) {
            pos++;
        }
        return ascii(from, pos);
    }

    /**
     * A quoted string. The common case (no escape, all ASCII) is one scan and one Latin-1 copy; a string with
     * non-ASCII bytes is decoded strictly, so bytes that are not UTF-8 are an error, never a replacement character.
     */
    private String string() throws RecordSyntaxException {
        if (peek() != '"') {
            throw error("expected a string");
        }
        pos++;
        int from = pos;
        boolean ascii = true;
        while (pos < end) {
            byte c = b[pos];
            if (c == '"') {
                String out = ascii ? ascii(from, pos) : utf8(from, pos);
                pos++;
                return out;
            } else if (c == '\\') {
                return escapedString(from);
            } else if (c >= 0 && c < 0x20) {
                throw error("control character in a string");
            }
            ascii &= c >= 0;
            pos++;
        }
        throw error("unterminated string");
    }

    /** The rest of a string that has escapes, from {@code from} (just after the opening quote). */
    private String escapedString(int from) throws RecordSyntaxException {
        StringBuilder out = new StringBuilder();
        int run = from;
        while (pos < end) {
            byte c = b[pos];
            if (c == '"') {
                out.append(utf8(run, pos));
                pos++;
                return out.toString();
            } else if (c == '\\') {
                out.append(utf8(run, pos));
                pos++;
                out.append(escape());
                run = pos;
            } else if (c >= 0 && c < 0x20) {
                throw error("control character in a string");
            } else {
                pos++;
            }
        }
        throw error("unterminated string");
    }

    private char escape() throws RecordSyntaxException {
        int c = next();
        switch (c) {
            case '"':
            case '\\':
            case '/':
                return (char) c;
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
                if (pos + 4 > end) {
                    throw error("truncated \\u escape");
                }
                int u = 0;
                for (int i = 0; i < 4; i++) {
                    int d = hexDigit(b[pos + i]);
                    if (d < 0) {
                        throw error("bad \\u escape");
                    }
                    u = u << 4 | d;
                }
                pos += 4;
                return (char) u;
            }
            default:
                pos--;
                throw error("bad escape " + (c >= 0x20 && c < 0x7f ? "'\\" + (char) c + "'" : describe(c)));
        }
    }

    /**
     * The argument of {@code hex(...)}: a string of an even number of hex digits, decoded straight from the bytes.
     * A string with escapes (legal, if odd) takes the general path.
     */
    private byte[] hex() throws RecordSyntaxException {
        if (peek() != '"') {
            throw error("expected a string");
        }
        int from = pos + 1;
        int close = RecordFramer.scanString(b, from, end);
        if (close < end && b[close] == '"') {
            byte[] out = hexDigits(from, close);
            pos = close + 1;
            return out;
        }
        String text = string();
        byte[] digits = new byte[text.length()];
        for (int i = 0; i < digits.length; i++) {
            char c = text.charAt(i);
            digits[i] = c < 0x80 ? (byte) c : (byte) '?'; // not a hex digit either way
        }
        return hexOf(digits);
    }

    /** Decodes the hex digits {@code b[from, to)}, two per table lookup. */
    private byte[] hexDigits(int from, int to) throws RecordSyntaxException {
        int n = to - from;
        if (n % 2 != 0) {
            pos = from;
            throw error("hex(\"...\") needs an even number of digits, got " + n);
        }
        byte[] out = new byte[n / 2];
        for (int i = 0, p = from; i < out.length; i++, p += 2) {
            int v = HEX_PAIR[(char) (short) SHORTS.get(b, p)];
            if (v < 0) {
                pos = hexDigit(b[p]) < 0 ? p : p + 1;
                throw error("bad hex digit in hex(\"...\")");
            }
            out[i] = (byte) v;
        }
        return out;
    }

    private byte[] hexOf(byte[] digits) throws RecordSyntaxException {
        if (digits.length % 2 != 0) {
            throw error("hex(\"...\") needs an even number of digits, got " + digits.length);
        }
        byte[] out = new byte[digits.length / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = hexDigit(digits[2 * i]);
            int lo = hexDigit(digits[2 * i + 1]);
            if ((hi | lo) < 0) {
                throw error("bad hex digit in hex(\"...\")");
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }

    private static int hexDigit(byte c) {
        return HEX_VALUE[c & 0xFF];
    }

    private static boolean isLetter(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private String ascii(int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private String utf8(int from, int to) throws RecordSyntaxException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, from, to - from)).toString();
        } catch (CharacterCodingException e) {
            pos = from;
            throw RecordSyntaxException.invalidUtf8("invalid UTF-8 in a string", pos - start);
        }
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
        while (pos < end) {
            byte c = b[pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            pos++;
        }
    }

    /** The byte at {@code pos} (0..255), or -1 at the end. */
    private int peek() {
        return pos < end ? b[pos] & 0xFF : -1;
    }

    private int peekAt(int ahead) {
        return pos + ahead < end ? b[pos + ahead] & 0xFF : -1;
    }

    private int next() throws RecordSyntaxException {
        if (pos >= end) {
            throw error("unexpected end of record");
        }
        return b[pos++] & 0xFF;
    }

    private static String describe(int c) {
        return c >= 0x20 && c < 0x7f ? "'" + (char) c + "'" : String.format("byte 0x%02x", c);
    }

    private RecordSyntaxException error(String message) {
        return new RecordSyntaxException(message, pos - start);
    }
}
