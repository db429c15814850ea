package io.lsmpolicies.feeds;

/**
 * A framed record that its format's parser rejects; {@code position} is the byte offset in the record, and
 * {@link #invalidUtf8()} tells a record whose bytes are not UTF-8 from one that is malformed otherwise.
 */
public final class RecordSyntaxException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int position;
    private final boolean invalidUtf8;

    public RecordSyntaxException(String message, int position) {
        this(message, position, false);
    }

    private RecordSyntaxException(String message, int position, boolean invalidUtf8) {
        super(message + " at byte " + position);
        this.position = position;
        this.invalidUtf8 = invalidUtf8;
    }

    /** The record's bytes are not UTF-8 at (or after) {@code position}. */
    public static RecordSyntaxException invalidUtf8(String message, int position) {
        return new RecordSyntaxException(message, position, true);
    }

    public int position() {
        return position;
    }

    public boolean invalidUtf8() {
        return invalidUtf8;
    }
}
