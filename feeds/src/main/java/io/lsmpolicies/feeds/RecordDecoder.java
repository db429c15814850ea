package io.lsmpolicies.feeds;

import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.records.KeyEncoder;
import io.lsmpolicies.records.ValueCodec;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Turns a framed record into what a feed applies: the encoded key and the stored value, or the reason it cannot
 * ({@link ErrorKind#SYNTAX}, {@link ErrorKind#INVALID_UTF8}, {@link ErrorKind#MISSING_KEY}). The framer calls it
 * on every candidate it frames (see {@link RecordFramer}), so it costs at most the parse of the bytes up to the
 * first error. Immutable and thread-safe.
 */
final class RecordDecoder {

    /** A decoded record ({@code bad == null}: {@code key} and {@code value} are set) or why there is none. */
    record Decoded(byte[] key, byte[] value, BadRecord bad) {
    }

    private final RecordFormat format;
    private final KeyEncoder keys;

    RecordDecoder(RecordFormat format, List<String> keyFields) {
        this.format = format;
        this.keys = new KeyEncoder(keyFields);
    }

    /** Decodes {@code bytes[from, from + length)}, the record at stream offset {@code offset}. */
    Decoded decode(byte[] bytes, int from, int length, long offset) {
        AdmValue.Obj record;
        try {
            record = format.parse(bytes, from, length);
        } catch (RecordSyntaxException e) {
            return refused(e.invalidUtf8() ? ErrorKind.INVALID_UTF8 : ErrorKind.SYNTAX, bytes, from, length, offset,
                    e.getMessage());
        }
        if (!utf8(bytes, from, length)) { // both parsers refuse such bytes; checked again on what they accept
            return refused(ErrorKind.INVALID_UTF8, bytes, from, length, offset, "invalid UTF-8");
        }
        byte[] key;
        try {
            key = keys.encode(record);
        } catch (IllegalArgumentException e) {
            return refused(ErrorKind.MISSING_KEY, bytes, from, length, offset, e.getMessage());
        }
        return new Decoded(key, ValueCodec.encode(record), null);
    }

    private static Decoded refused(ErrorKind kind, byte[] bytes, int from, int length, long offset, String detail) {
        return new Decoded(null, null, new BadRecord(kind, offset, BadRecord.excerpt(bytes, from, length), detail));
    }

    private static boolean utf8(byte[] bytes, int from, int length) {
        int i = from;
        int end = from + length;
        while (i < end && bytes[i] >= 0) {
            i++;
        }
        if (i == end) {
            return true;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, i, end - i));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
