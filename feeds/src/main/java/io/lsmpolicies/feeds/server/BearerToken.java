package io.lsmpolicies.feeds.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The HTTP API's shared secret. It is kept only as its SHA-256 digest, and a presented token is compared by
 * digest with {@link MessageDigest#isEqual} (constant time), so neither the comparison's duration nor an early
 * exit on length tells a client how much of a guess was right. {@code toString()} never shows the token.
 */
public final class BearerToken {
    /** RFC 6750's token68 characters; at least {@link #MIN_LENGTH} of them. */
    static final String SYNTAX = "[A-Za-z0-9._~+/-]+=*";
    static final int MIN_LENGTH = 16;
    static final int MAX_LENGTH = 4096;

    private final byte[] digest;

    private BearerToken(String token) {
        this.digest = sha256(token);
    }

    /**
     * A token from its text.
     *
     * @throws IllegalArgumentException saying what is wrong with it (never showing it)
     */
    public static BearerToken of(String token) {
        if (token.length() < MIN_LENGTH || token.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("the token must have " + MIN_LENGTH + " to " + MAX_LENGTH
                    + " characters, it has " + token.length());
        }
        if (!token.matches(SYNTAX)) {
            throw new IllegalArgumentException("the token may hold only letters, digits and - . _ ~ + / (then ="
                    + " padding), as an HTTP bearer token");
        }
        return new BearerToken(token);
    }

    /**
     * Whether an {@code Authorization} header value is {@code Bearer <this token>} (the scheme's case is
     * ignored).
     */
    public boolean matchesHeader(String authorization) {
        if (authorization == null || authorization.length() < 7
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(digest, sha256(authorization.substring(7).strip()));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "BearerToken[hidden]";
    }
}
