package io.lsmpolicies.feeds;

import io.lsmpolicies.records.AdmValue;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** The record formats a feed accepts, by their AsterixDB names. */
public enum RecordFormat {
    /** Strict JSON, parsed by Jackson. */
    JSON {
        @Override
        public AdmValue.Obj parse(byte[] bytes, int off, int len) throws RecordSyntaxException {
            return JsonRecordParser.parse(bytes, off, len);
        }
    },
    /** JSON plus the ADM constructors socket-feed clients send ({@code hex("..")}, {@code int64(..)}, ...). */
    ADM {
        @Override
        public AdmValue.Obj parse(byte[] bytes, int off, int len) throws RecordSyntaxException {
            return new AdmParser(bytes, off, len).parseRecord();
        }
    };

    /**
     * Parses one framed record (a whole top-level object, nothing after it) from its UTF-8 bytes
     * {@code bytes[off, off + len)}, which must not change during the call. Bytes that are not UTF-8 are a
     * {@link RecordSyntaxException}. Thread-safe.
     *
     * @param bytes the buffer holding the record
     * @param off   the record's first byte
     * @param len   the record's length in bytes
     * @return the record
     * @throws RecordSyntaxException naming the byte offset in the record, if it is malformed or not UTF-8
     */
    public abstract AdmValue.Obj parse(byte[] bytes, int off, int len) throws RecordSyntaxException;

    /**
     * Parses one record given as text; positions in errors are byte offsets in its UTF-8 encoding.
     *
     * @param record the record's text
     * @return the record
     * @throws RecordSyntaxException naming the byte offset, if the record is malformed
     */
    public AdmValue.Obj parse(String record) throws RecordSyntaxException {
        byte[] bytes = record.getBytes(StandardCharsets.UTF_8);
        return parse(bytes, 0, bytes.length);
    }

    /**
     * {@return the format named {@code name} ({@code json} or {@code adm}, any case)}
     *
     * @param name the format's name
     */
    public static RecordFormat of(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown feed format '" + name + "'; expected json or adm", e);
        }
    }
}
