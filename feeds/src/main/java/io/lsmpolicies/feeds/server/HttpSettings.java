package io.lsmpolicies.feeds.server;

import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The {@code [http]} section: where the HTTP API listens and how it protects itself ({@code docs/configuration.md}).
 *
 * @param address               where to listen; 127.0.0.1 unless configured
 * @param portLine              the line of {@code port} (or of the section, or 0), for bind errors
 * @param maxConnections        connections open at once; one more is closed at once and counted
 * @param idleTimeout           a connection with no request under way, or whose response has not moved for this
 *                              long (a client that stopped reading), is closed
 * @param token                 the shared secret that requests other than GET must give as
 *                              {@code Authorization: Bearer <token>}; null if none is configured
 * @param tokenRequiredForReads whether GET requests need the token too
 * @param tls                   the server's TLS context, or null for plain HTTP
 */
public record HttpSettings(InetSocketAddress address, int portLine, int maxConnections, Duration idleTimeout,
        BearerToken token, boolean tokenRequiredForReads, SslContext tls) {

    public static final int DEFAULT_PORT = 19002;
    public static final int DEFAULT_MAX_CONNECTIONS = 256;
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    /** The defaults: 127.0.0.1:19002, 256 connections, 30 s, no token, no TLS. */
    public static HttpSettings defaults() {
        return new HttpSettings(new InetSocketAddress("127.0.0.1", DEFAULT_PORT), 0, DEFAULT_MAX_CONNECTIONS,
                DEFAULT_IDLE_TIMEOUT, null, false, null);
    }

    /**
     * Whether state-changing requests are served without a token: only when the server listens on a loopback
     * address, where only this machine's users can reach it.
     */
    public boolean writesOpenWithoutToken() {
        return token == null && address.getAddress() != null && address.getAddress().isLoopbackAddress();
    }
}
