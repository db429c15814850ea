package io.lsmpolicies.feeds;

/**
 * A framed record that its format's parser rejects; {@code position} is the byte offset in the record, and
 * {@link #invalidUtf8()} tells a record whose bytes are not UTF-8 from one that is malformed otherwise.
 */
public final class RecordSyntaxException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The byte offset in the record where the parser stopped. */
    private final int position;
    /** Whether the record's bytes are not UTF-8 (rather than malformed otherwise). */
    private final boolean invalidUtf8;

    /**
     * A malformed record.
     *
     * @param message  what is wrong
     * @param position the byte offset in the record, added to the message
     */
    public RecordSyntaxException(String message, int position) {
        this(message, position, false);
    }

    private RecordSyntaxException(String message, int position, boolean invalidUtf8) {
        super(message + " at byte " + position);
        this.position = position;
        this.invalidUtf8 = invalidUtf8;
    }

    /**
     * {@return the exception for a record whose bytes are not UTF-8 at (or after) {@code position}}
     *
     * @param message  what is wrong
     * @param position the byte offset in the record
     */
    public static RecordSyntaxException invalidUtf8(String message, int position) {
        return new RecordSyntaxException(message, position, true);
    }

    /** {@return the byte offset in the record where the parser stopped} */
    public int position() {
        return position;
    }

    /** {@return whether the record's bytes are not UTF-8 (rather than malformed otherwise)} */
    public boolean invalidUtf8() {
        return invalidUtf8;
    }
}
