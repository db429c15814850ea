package io.lsmpolicies.feeds.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/**
 * Netty's request aggregator with the API's error body: a request whose body is larger than the limit is answered
 * {@code 413 {"error": "..."}} saying the limit, where Netty's own answer has an empty body. As Netty does, the
 * rest of the body is read and dropped and the connection kept when the client keeps it alive; otherwise it is
 * closed after the answer.
 */
final class RequestAggregator extends HttpObjectAggregator {
    private final int maxBodyBytes;

    private int headerFields;

    RequestAggregator(int maxBodyBytes) {
        super(maxBodyBytes);
        this.maxBodyBytes = maxBodyBytes;
    }

    /**
     * How many header fields the client sent with the request this aggregator last passed on (the aggregated
     * request may hold one more: the {@code Content-Length} the aggregator sets). Event loop only.
     */
    int headerFields() {
        return headerFields;
    }

    @Override
    protected FullHttpMessage beginAggregation(HttpMessage start, ByteBuf content) throws Exception {
        headerFields = start.headers().size();
        return super.beginAggregation(start, content);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) throws Exception {
        if (!(oversized instanceof HttpRequest)) {
            super.handleOversizedMessage(ctx, oversized);
            return;
        }
        byte[] body = ("{\"error\":\"the request body exceeds " + maxBodyBytes + " bytes\"}")
                .getBytes(StandardCharsets.UTF_8);
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, Unpooled.wrappedBuffer(body));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON + "; charset=utf-8");
        HttpUtil.setContentLength(res, body.length);
        boolean close = oversized instanceof FullHttpMessage
                || !HttpUtil.is100ContinueExpected(oversized) && !HttpUtil.isKeepAlive(oversized);
        HttpUtil.setKeepAlive(res, !close);
        ctx.writeAndFlush(res).addListener(close ? ChannelFutureListener.CLOSE
                : ChannelFutureListener.CLOSE_ON_FAILURE);
    }
}
