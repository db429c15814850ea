package io.lsmpolicies.feeds.server;

/**
 * A request the HTTP API refuses, with the status to answer and why: 400 (a bad parameter or target, or input
 * that is not HTTP), 401 (no token given), 403 (a wrong token, or a state-changing request without a configured
 * token on a non-loopback server), 404 (an unknown resource, dataset, feed or key), 405 (a method the resource
 * does not take), 414 (a request line too long) or 431 (header fields too large or too many). The message goes to
 * the client as {@code {"error": "..."}}.
 */
public final class ApiRequestException extends Exception {
    private final int status;
    private final String allow;

    /**
     * @param status the HTTP status
     * @param allow  for 405, the methods the resource takes (the {@code Allow} header); otherwise null
     */
    ApiRequestException(int status, String message, String allow) {
        super(message, null, false, false);
        this.status = status;
        this.allow = allow;
    }

    ApiRequestException(int status, String message) {
        this(status, message, null);
    }

    static ApiRequestException badRequest(String message) {
        return new ApiRequestException(400, message);
    }

    static ApiRequestException notFound(String message) {
        return new ApiRequestException(404, message);
    }

    /** The HTTP status to answer. */
    public int status() {
        return status;
    }

    /** For 405, the methods the resource takes; otherwise null. */
    public String allow() {
        return allow;
    }
}
