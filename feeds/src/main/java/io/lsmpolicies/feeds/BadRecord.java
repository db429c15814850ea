package io.lsmpolicies.feeds;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A record that was not applied.
 *
 * @param kind    why
 * @param offset  the stream offset (bytes from the start of the connection) of the record's first byte
 * @param excerpt at most {@link #EXCERPT_BYTES} bytes from the record's start, decoded leniently, control
 *                characters escaped
 * @param detail  the parser's or store's message, or a short explanation
 */
public record BadRecord(ErrorKind kind, long offset, String excerpt, String detail) {
    /** How many bytes of a bad record its excerpt shows. */
    public static final int EXCERPT_BYTES = 48;

    /**
     * Checks that every part is there.
     *
     * @param kind    why
     * @param offset  the stream offset (bytes from the start of the connection) of the record's first byte
     * @param excerpt at most {@link #EXCERPT_BYTES} bytes from the record's start, decoded leniently, control
     *                characters escaped
     * @param detail  the parser's or store's message, or a short explanation
     * @throws NullPointerException if {@code kind}, {@code excerpt} or {@code detail} is null
     */
    public BadRecord {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(excerpt, "excerpt");
        Objects.requireNonNull(detail, "detail");
    }

    /** An excerpt of {@code bytes[off, off + len)}: the first {@link #EXCERPT_BYTES}, printable. */
    static String excerpt(byte[] bytes, int off, int len) {
        int n = Math.min(len, EXCERPT_BYTES);
        String s = new String(bytes, off, n, StandardCharsets.UTF_8);
        StringBuilder b = new StringBuilder(s.length() + 3);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\x%02x", (int) c));
            } else {
                b.append(c);
            }
        }
        return n < len ? b.append("...").toString() : b.toString();
    }

    @Override
    public String toString() {
        return kind + " at offset " + offset + ": " + detail + " [" + excerpt + "]";
    }
}
