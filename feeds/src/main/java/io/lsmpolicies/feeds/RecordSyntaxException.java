package io.lsmpolicies.feeds;

/** A framed record that its format's parser rejects; {@code position} is the byte offset in the record. */
public final class RecordSyntaxException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int position;

    public RecordSyntaxException(String message, int position) {
        super(message + " at byte " + position);
        this.position = position;
    }

    public int position() {
        return position;
    }
}
