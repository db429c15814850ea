package io.lsmpolicies.feeds;

/** A framed record that its format's parser rejects; {@code position} is the character index in the record. */
public final class RecordSyntaxException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int position;

    public RecordSyntaxException(String message, int position) {
        super(message + " at character " + position);
        this.position = position;
    }

    public int position() {
        return position;
    }
}
