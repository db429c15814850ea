package io.lsmpolicies.feeds.server;

/**
 * The HTTP API's connections, a snapshot ({@code GET /health} shows it).
 *
 * @param open             connections open now
 * @param accepted         connections accepted since start
 * @param refused          connections closed at once because {@code max-connections} were open
 * @param timedOut         connections closed by the idle timeout (idle, or a client that stopped reading)
 * @param pendingBytes     response bytes the server holds now, written but not yet taken by the clients' sockets
 *                         (Netty's outbound buffers, all connections)
 * @param peakPendingBytes the most response bytes one connection has held at once since start: at most the
 *                         write buffer's high-water mark plus one chunk, however much a client leaves unread
 */
public record HttpStats(int open, long accepted, long refused, long timedOut, long pendingBytes,
        long peakPendingBytes) {
}
