package io.lsmpolicies.feeds;

import java.util.Locale;

/** The record formats a feed accepts, by their AsterixDB names. */
public enum RecordFormat {
    /** Strict JSON, parsed by Jackson. */
    JSON {
        @Override
        public AdmValue.Obj parse(String record) throws RecordSyntaxException {
            return JsonRecordParser.parse(record);
        }
    },
    /** JSON plus the ADM constructors socket-feed clients send ({@code hex("..")}, {@code int64(..)}, ...). */
    ADM {
        @Override
        public AdmValue.Obj parse(String record) throws RecordSyntaxException {
            return new AdmParser(record).parseRecord();
        }
    };

    /** Parses one framed record (a whole top-level object, nothing after it). Thread-safe. */
    public abstract AdmValue.Obj parse(String record) throws RecordSyntaxException;

    /** The format named {@code name} ({@code json} or {@code adm}, any case). */
    public static RecordFormat of(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown feed format '" + name + "'; expected json or adm", e);
        }
    }
}
