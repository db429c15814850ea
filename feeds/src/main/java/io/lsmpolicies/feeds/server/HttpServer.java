package io.lsmpolicies.feeds.server;

import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.Feed;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The node server's HTTP listener: one acceptor thread, one event loop, and a worker pool that answers the
 * requests ({@link HttpApi}). Per connection: TLS first if configured, then an idle timer, the HTTP codec (request
 * line and header limits: 414 and 431), a 64 KiB body limit (413) and the {@link HttpConnection}. At most {@link HttpSettings#maxConnections()} connections
 * are open at once; one more is closed at once and counted. Each connection's write buffer has water marks of
 * {@link #LOW_WATER_MARK} and {@link #HIGH_WATER_MARK} bytes, which bound what a client that does not read can
 * make the server hold.
 */
final class HttpServer implements Closeable {
    private static final System.Logger LOG = System.getLogger(HttpServer.class.getName());
    /** The largest request body taken; a larger one is answered 413. */
    static final int MAX_REQUEST_BYTES = 64 * 1024;
    /** The longest request line taken (method, target, version); a longer one is answered 414. */
    static final int MAX_REQUEST_LINE_BYTES = 4096;
    /** The most bytes of header fields taken; more is answered 431. */
    static final int MAX_HEADER_BYTES = 8192;
    /** The most header fields taken; more is answered 431. */
    static final int MAX_HEADER_FIELDS = 100;
    static final int LOW_WATER_MARK = 32 * 1024;
    static final int HIGH_WATER_MARK = 64 * 1024;

    /** The listener's counters, shared by its connections. */
    static final class Counters {
        final AtomicInteger open = new AtomicInteger();
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong refused = new AtomicLong();
        final AtomicLong timedOut = new AtomicLong();
        final AtomicLong peakPendingBytes = new AtomicLong();
    }

    private final HttpSettings settings;
    private final Counters counters = new Counters();
    private final EventLoopGroup acceptor;
    private final EventLoopGroup io;
    private final ExecutorService workers;
    private final ChannelGroup channels = new DefaultChannelGroup("http", GlobalEventExecutor.INSTANCE);
    private Channel listener;

    private HttpServer(HttpSettings settings) {
        this.settings = settings;
        acceptor = new NioEventLoopGroup(1, new DefaultThreadFactory("http-accept", true));
        io = new NioEventLoopGroup(1, new DefaultThreadFactory("http-io", true));
        workers = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
                new DefaultThreadFactory("http-handler", true));
    }

    /**
     * Listens on {@code settings.address()}.
     *
     * @throws Exception the bind failure (released: nothing stays open)
     */
    static HttpServer start(HttpSettings settings, Map<String, Dataset> datasets, Map<String, Feed> feeds)
            throws Exception {
        HttpServer s = new HttpServer(settings);
        try {
            s.bind(new HttpApi(datasets, feeds, settings, s::stats));
        } catch (Exception | Error e) {
            s.close();
            throw e;
        }
        return s;
    }

    private void bind(HttpApi api) throws InterruptedException {
        long idleMillis = settings.idleTimeout().toMillis();
        ServerBootstrap b = new ServerBootstrap().group(acceptor, io).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(LOW_WATER_MARK, HIGH_WATER_MARK))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (counters.open.incrementAndGet() > settings.maxConnections()) {
                            counters.open.decrementAndGet();
                            counters.refused.incrementAndGet();
                            LOG.log(System.Logger.Level.WARNING, "HTTP: {0} connections open, the limit; refusing"
                                    + " {1}", settings.maxConnections(), ch.remoteAddress());
                            ch.close();
                            return;
                        }
                        counters.accepted.incrementAndGet();
                        ch.closeFuture().addListener(f -> counters.open.decrementAndGet());
                        channels.add(ch);
                        ChannelPipeline p = ch.pipeline();
                        if (settings.tls() != null) {
                            p.addLast(settings.tls().newHandler(ch.alloc()));
                        }
                        p.addLast(new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS));
                        p.addLast(new HttpServerCodec(MAX_REQUEST_LINE_BYTES, MAX_HEADER_BYTES, 8192));
                        p.addLast(new RequestAggregator(MAX_REQUEST_BYTES));
                        p.addLast(new HttpConnection(api, workers, counters));
                    }
                });
        listener = b.bind(settings.address()).sync().channel();
    }

    /** Where it listens (the bound port, if the descriptor said 0). */
    InetSocketAddress address() {
        return listener == null ? null : (InetSocketAddress) listener.localAddress();
    }

    HttpStats stats() {
        long pending = 0;
        for (Channel ch : channels) {
            ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
            if (out != null) {
                pending += out.totalPendingWriteBytes();
            }
        }
        return new HttpStats(counters.open.get(), counters.accepted.get(), counters.refused.get(),
                counters.timedOut.get(), pending, counters.peakPendingBytes.get());
    }

    /**
     * Stops listening, closes every connection (streams still producing stop, parked ones release their scans),
     * lets requests under way finish (up to 5 s), then stops the threads.
     */
    @Override
    public void close() {
        if (listener != null) {
            listener.close().syncUninterruptibly();
        }
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        workers.shutdown();
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        io.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
