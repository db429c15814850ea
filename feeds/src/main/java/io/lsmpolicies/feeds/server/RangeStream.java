package io.lsmpolicies.feeds.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.Partition;
import io.lsmpolicies.lsm.KeyValue;
import io.lsmpolicies.lsm.StoreIterator;
import io.lsmpolicies.records.ValueCodec;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The answer to a range request, produced as the client takes it: records with {@code from <= key < to}, over
 * every partition in key order (a k-way merge of the partitions' scans, which hold disjoint keys), as one JSON
 * array written in chunks of about {@link #CHUNK_BYTES}.
 *
 * <p>If the whole answer fits the first chunk it is sent as one response with a {@code Content-Length};
 * otherwise the head is sent with {@code Transfer-Encoding: chunked} and the chunks follow (to an HTTP/1.0 client,
 * without a length, and the connection is closed after the last). A chunk is produced
 * only while the channel is writable; otherwise the stream parks ({@link HttpConnection#park}) and returns its
 * worker thread, and the connection resumes it on a worker when the channel drains below the low-water mark.
 * The server thus holds at most the high-water mark plus one chunk (at least one whole record) per connection.
 * The partitions' scans stay open (pinning their tables, and holding a lease on each partition's store, so a
 * reopen of a failed partition waits for them) until the answer ends, the client goes, or the idle timeout closes
 * a client that stopped reading. A partition without a store is a 503 before anything is sent.
 *
 * <p>A failure before the head is written is a 500 with a JSON error; after it, the response cannot be
 * completed, so the connection is closed (the client sees a truncated chunked body).
 */
final class RangeStream implements Runnable {
    private static final System.Logger LOG = System.getLogger(RangeStream.class.getName());
    /** A chunk is closed at the first record boundary past this many bytes. */
    static final int CHUNK_BYTES = 16 * 1024;

    private final HttpConnection conn;
    private final Dataset dataset;
    private final ApiRequest.Range range;
    private boolean keepAlive;
    private final boolean chunked;
    private final JsonFactory json;
    private final List<StoreIterator> scans = new ArrayList<>();
    /** A lease per partition, held until the scans are closed: no reopen closes a store under a scan. */
    private final List<Partition.Lease> leases = new ArrayList<>();
    private final PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> Arrays.compareUnsigned(a.kv.key(),
            b.kv.key()));
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ChunkOutput out = new ChunkOutput();
    private JsonGenerator generator;
    private int written;
    private boolean headSent;
    private boolean exhausted;

    private record Head(KeyValue kv, StoreIterator it) {
    }

    /** @param chunked whether the client takes chunks (HTTP/1.1); if not, a long answer ends with the connection */
    RangeStream(HttpConnection conn, Dataset dataset, ApiRequest.Range range, boolean keepAlive, boolean chunked,
            JsonFactory json) {
        this.conn = conn;
        this.dataset = dataset;
        this.range = range;
        this.keepAlive = keepAlive;
        this.chunked = chunked;
        this.json = json;
    }

    /**
     * Opens every partition's scan. On failure nothing stays open.
     *
     * @throws io.lsmpolicies.feeds.PartitionUnavailableException if a partition has no store
     */
    void open() throws IOException {
        try {
            for (Partition p : dataset.partitions()) {
                Partition.Lease lease = p.acquire(false);
                leases.add(lease);
                StoreIterator it = lease.store().scan(range.from(), range.to());
                scans.add(it);
                if (it.hasNext()) {
                    heads.add(new Head(it.next(), it));
                }
            }
            generator = json.createGenerator(out);
            generator.writeStartArray();
        } catch (IOException | RuntimeException e) {
            cancel();
            throw e;
        }
    }

    /** Produces chunks while the channel is writable; parks, or ends the response. Runs on a worker. */
    @Override
    public void run() {
        Channel ch = conn.channel();
        try {
            while (true) {
                if (!ch.isActive()) {
                    cancel();
                    conn.abort();
                    return;
                }
                if (!ch.isWritable() && !conn.park(this)) {
                    return; // resumed by channelWritabilityChanged, or cancelled by channelInactive
                }
                if (!ch.isActive()) {
                    continue;
                }
                ByteBuf chunk = nextChunk(ch);
                if (!headSent && exhausted) { // all of it in one piece: a plain response with its length
                    cancel();
                    FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            chunk);
                    head(res);
                    HttpUtil.setContentLength(res, chunk.readableBytes());
                    ChannelFuture f = conn.context().writeAndFlush(res);
                    conn.notePending();
                    conn.finished(keepAlive, f);
                    return;
                }
                if (!headSent) {
                    HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                    if (!chunked) {
                        keepAlive = false; // an HTTP/1.0 client: the close of the connection ends the answer
                    }
                    head(res);
                    HttpUtil.setTransferEncodingChunked(res, chunked);
                    conn.context().write(res);
                    headSent = true;
                }
                if (exhausted) {
                    cancel();
                    LastHttpContent last = new DefaultLastHttpContent(chunk);
                    ChannelFuture f = conn.context().writeAndFlush(last);
                    conn.notePending();
                    conn.finished(keepAlive, f);
                    return;
                }
                conn.context().writeAndFlush(new DefaultHttpContent(chunk));
                conn.notePending();
            }
        } catch (Exception | StackOverflowError e) {
            cancel();
            if (headSent) {
                LOG.log(System.Logger.Level.ERROR, "range of " + dataset.name() + " failed after " + written
                        + " records; closing the connection", e);
                conn.abort();
            } else {
                LOG.log(System.Logger.Level.ERROR, "range of " + dataset.name() + " failed", e);
                conn.respond(HttpResponseStatus.INTERNAL_SERVER_ERROR, HttpApi.error(String.valueOf(e)), keepAlive,
                        Map.of());
            }
        }
    }

    private void head(HttpResponse res) {
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON + "; charset=utf-8");
        HttpUtil.setKeepAlive(res, keepAlive);
    }

    /** The next records, at least one (or the array's end), closed at the first boundary past CHUNK_BYTES. */
    private ByteBuf nextChunk(Channel ch) throws IOException {
        ByteBuf buf = ch.alloc().buffer(CHUNK_BYTES + 1024);
        out.target = buf;
        try {
            generator.flush(); // the array's start, on the first chunk
            while (buf.readableBytes() < CHUNK_BYTES && written < range.limit() && !heads.isEmpty()) {
                Head h = heads.poll();
                AdmJson.write(generator, ValueCodec.decode(h.kv.value()));
                written++;
                if (h.it.hasNext()) {
                    heads.add(new Head(h.it.next(), h.it));
                }
                generator.flush();
            }
            if (written == range.limit() || heads.isEmpty()) {
                generator.writeEndArray();
                generator.flush();
                exhausted = true;
            }
            return buf;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            buf.release();
            throw e;
        } finally {
            out.target = null;
        }
    }

    /** Closes the scans (once). Any thread, once no worker runs this stream. */
    void cancel() {
        if (closed.compareAndSet(false, true)) {
            for (StoreIterator it : scans) {
                try {
                    it.close();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "closing a scan of " + dataset.name(), e);
                }
            }
            heads.clear();
            leases.forEach(Partition.Lease::close);
        }
    }

    /** Where the generator writes: the chunk being filled. */
    private static final class ChunkOutput extends OutputStream {
        ByteBuf target;

        @Override
        public void write(int b) {
            target.writeByte(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            target.writeBytes(b, off, len);
        }
    }
}
