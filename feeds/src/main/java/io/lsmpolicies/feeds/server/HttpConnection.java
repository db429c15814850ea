package io.lsmpolicies.feeds.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One HTTP connection of the node server: requests are answered one at a time, in order, on the worker executor
 * (store reads block; an event loop never waits on a store).
 *
 * <p>Memory a client can make the server hold:
 * <ul>
 *   <li><b>Requests.</b> While a request is served the connection stops reading (auto-read off); requests already
 *       read (pipelined) wait in a queue of at most {@link #MAX_PIPELINED}; one more closes the connection.</li>
 *   <li><b>Responses.</b> A range answer is streamed ({@link RangeStream}): a chunk is produced only while the
 *       channel is writable, that is while the bytes not yet taken by the client's socket are below the write
 *       buffer's high-water mark; then the producer parks, holding no thread, until Netty reports the channel
 *       writable again ({@link #channelWritabilityChanged}). A client that stops reading therefore holds at most
 *       the high-water mark plus one chunk.</li>
 *   <li><b>Time.</b> The {@code IdleStateHandler} before this handler reports a connection on which nothing was
 *       read and no write completed for the idle timeout; it is closed unless the server still owes it work (a
 *       request queued for or running on a worker). A client that stopped reading has no write completing, so it
 *       is closed too, and its parked stream releases its scans.</li>
 * </ul>
 */
final class HttpConnection extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final System.Logger LOG = System.getLogger(HttpConnection.class.getName());
    /** Requests read ahead of their turn (HTTP pipelining) that a connection may queue. */
    static final int MAX_PIPELINED = 64;

    /**
     * A request as the worker needs it: everything copied out of the reference-counted message.
     *
     * @param chunked whether the client takes a chunked answer (HTTP/1.1); an HTTP/1.0 client gets a streamed
     *                answer delimited by the close of the connection
     */
    record Request(String method, String uri, boolean keepAlive, ApiRequestException refused, String authorization,
            boolean chunked) {
    }

    private final HttpApi api;
    private final Executor workers;
    private final HttpServer.Counters counters;
    // Event loop only:
    private final ArrayDeque<Request> pending = new ArrayDeque<>();
    private boolean busy;
    /** The decoder met input it could not read: it drops everything after it. */
    private volatile boolean badInput;
    private ChannelHandlerContext ctx;
    /** Whether the server owes this connection work: a request queued for or running on a worker. */
    private volatile boolean working;
    /** A range stream waiting for the channel to become writable, or null. */
    private final AtomicReference<RangeStream> parked = new AtomicReference<>();

    HttpConnection(HttpApi api, Executor workers, HttpServer.Counters counters) {
        this.api = api;
        this.workers = workers;
        this.counters = counters;
    }

    Channel channel() {
        return ctx.channel();
    }

    ChannelHandlerContext context() {
        return ctx;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        if (pending.size() >= MAX_PIPELINED) {
            LOG.log(System.Logger.Level.WARNING, "HTTP {0}: more than {1} pipelined requests; closing",
                    ctx.channel().remoteAddress(), MAX_PIPELINED);
            ctx.close();
            return;
        }
        RequestAggregator aggregator = ctx.pipeline().get(RequestAggregator.class);
        ApiRequestException refused = refusal(req, aggregator == null ? req.headers().size()
                : aggregator.headerFields());
        if (!req.decoderResult().isSuccess()) {
            badInput = true; // the decoder drops the rest of the input: answer, then linger (see finished)
        }
        pending.add(new Request(req.method().name(), req.uri(), HttpUtil.isKeepAlive(req) && !badInput, refused,
                req.headers().get(HttpHeaderNames.AUTHORIZATION), !req.protocolVersion().equals(HttpVersion.HTTP_1_0)));
        dispatch();
    }

    /** Why a request cannot be served whatever it asks (its line or headers are too large, or not HTTP), or null. */
    private static ApiRequestException refusal(FullHttpRequest req, int headerFields) {
        Throwable cause = req.decoderResult().cause();
        if (cause instanceof TooLongHttpLineException) {
            return new ApiRequestException(414, "the request line (method, target, version) exceeds "
                    + HttpServer.MAX_REQUEST_LINE_BYTES + " bytes");
        } else if (cause instanceof TooLongHttpHeaderException) {
            return new ApiRequestException(431, "the request's header fields exceed " + HttpServer.MAX_HEADER_BYTES
                    + " bytes");
        } else if (cause != null) {
            return ApiRequestException.badRequest("malformed request: " + cause.getMessage());
        } else if (headerFields > HttpServer.MAX_HEADER_FIELDS) {
            return new ApiRequestException(431, "the request has " + headerFields
                    + " header fields; at most " + HttpServer.MAX_HEADER_FIELDS + " are taken");
        }
        return null;
    }

    /** Starts the next request if none is under way. Event loop only. */
    private void dispatch() {
        if (busy) {
            return;
        }
        Request next = pending.poll();
        if (next == null) {
            ctx.channel().config().setAutoRead(true);
            return;
        }
        busy = true;
        working = true;
        ctx.channel().config().setAutoRead(false); // one request at a time; the rest wait in the socket
        try {
            workers.execute(() -> api.serve(this, next));
        } catch (RejectedExecutionException e) { // shutting down
            ctx.close();
        }
    }

    /**
     * Writes a whole response; then the next request may start. Any thread.
     *
     * @param headers extra headers (e.g. {@code Allow}), or an empty map
     */
    void respond(HttpResponseStatus status, byte[] body, boolean keepAlive, Map<String, String> headers) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON + "; charset=utf-8");
        headers.forEach(res.headers()::set);
        HttpUtil.setContentLength(res, body.length);
        HttpUtil.setKeepAlive(res, keepAlive);
        ChannelFuture f = ctx.writeAndFlush(res);
        notePending();
        finished(keepAlive, f);
    }

    /**
     * The response is written (its last write is {@code last}): close, or start the next request. Any thread. After
     * input the decoder could not read, the connection lingers instead of closing: it shuts its output down and
     * reads (and drops) what the client still sends until the client closes or the idle timeout, because closing
     * a socket with unread input resets it, and a reset can destroy the answer before the client reads it.
     */
    void finished(boolean keepAlive, ChannelFuture last) {
        if (!keepAlive && badInput && ctx.channel() instanceof SocketChannel sc
                && ctx.pipeline().get(SslHandler.class) == null) {
            last.addListener(f -> {
                if (!f.isSuccess()) {
                    sc.close();
                    return;
                }
                sc.shutdownOutput().addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
                sc.config().setAutoRead(true);
            });
        } else if (!keepAlive) {
            last.addListener(ChannelFutureListener.CLOSE);
        }
        working = false;
        try {
            ctx.channel().eventLoop().execute(() -> {
                busy = false;
                if (keepAlive && ctx.channel().isActive()) {
                    dispatch();
                }
            });
        } catch (RejectedExecutionException e) { // the server is stopping; its channels are closed
            ctx.close();
        }
    }

    /** A stream failed after its head was written: the response cannot be completed, so the connection closes. */
    void abort() {
        working = false;
        ctx.close();
    }

    /**
     * Parks {@code stream} until the channel is writable. Returns true if the caller should go on producing now
     * (the channel became writable meanwhile), false if it must return: the event loop resumes or cancels it.
     */
    boolean park(RangeStream stream) {
        parked.set(stream);
        working = false;
        Channel ch = ctx.channel();
        if ((ch.isWritable() || !ch.isActive()) && parked.compareAndSet(stream, null)) {
            working = true;
            return true; // the caller checks isActive itself
        }
        return false;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            RangeStream s = parked.getAndSet(null);
            if (s != null) {
                working = true;
                try {
                    workers.execute(s);
                } catch (RejectedExecutionException e) {
                    s.cancel();
                    ctx.close();
                }
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        RangeStream s = parked.getAndSet(null);
        if (s != null) {
            s.cancel(); // releases its scans
        }
        pending.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent e && e.state() == IdleState.ALL_IDLE) {
            if (!working) {
                counters.timedOut.incrementAndGet();
                LOG.log(System.Logger.Level.DEBUG, "HTTP {0}: idle or not reading; closing",
                        ctx.channel().remoteAddress());
                ctx.close();
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(System.Logger.Level.DEBUG, "HTTP connection failed", cause);
        ctx.close();
    }

    /** Records the bytes this connection holds now in the server's peak. Any thread. */
    void notePending() {
        ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
        if (out != null) {
            long n = out.totalPendingWriteBytes();
            counters.peakPendingBytes.accumulateAndGet(n, Math::max);
        }
    }
}
