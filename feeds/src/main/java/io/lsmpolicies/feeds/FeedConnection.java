package io.lsmpolicies.feeds;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.wal.WriteBatch;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.ssl.NotSslRecordException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;

/**
 * One client connection of a feed. Threading: the event loop reads, frames, parses and encodes each record and
 * queues it; the feed's writer executor applies the queue to the store, one drain task per connection at a
 * time, so a connection's records are applied in stream order, and a store that stalls blocks a writer thread,
 * never the event loop. The queue is bounded by turning auto-read off when it reaches the capacity (see
 * {@link FeedConfig#queueCapacity()}); the writer turns it back on when the queue is half drained. A record is
 * one {@code put}: nothing partial is ever applied.
 *
 * <p>The connection is done when its input ended (client closed, or the feed stopped it) and its queue is
 * applied; {@link #done()} completes then.
 */
final class FeedConnection extends ChannelInboundHandlerAdapter implements RecordFramer.Sink {
    private static final System.Logger LOG = System.getLogger(FeedConnection.class.getName());
    /** How long a connection whose store failed waits for its error line to be written before it is closed. */
    static final long REPORT_TIMEOUT_SECONDS = 5;

    /**
     * A parsed record, ready to apply; {@code head} is its first bytes, kept for the excerpt should the store
     * refuse it (one more than an excerpt shows, so the excerpt knows it was cut).
     */
    private record Item(byte[] key, byte[] value, long offset, byte[] head) {
        String excerpt() {
            return BadRecord.excerpt(head, 0, head.length);
        }
    }

    private final long id;
    private final FeedConfig config;
    private final Counters feedCounters;
    private final Executor writers;
    private final RecordDecoder decoder;
    private final RecordFramer framer;
    final Counters counters = new Counters();

    private final Queue<Item> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final Channel channel;
    private volatile boolean inputClosed;
    private volatile boolean stopping;
    /** Set after a bad record under {@link BadRecordPolicy#CLOSE_CONNECTION} or a store failure: apply no more. */
    private volatile boolean rejecting;
    private volatile boolean storeFailed;
    /**
     * Why the connection stopped ({@link ErrorKind#STORE_FAILED} or {@link ErrorKind#PARTITION_UNAVAILABLE}) and
     * the message for its last line; set before {@link #storeFailed}.
     */
    private volatile ErrorKind failureKind;
    private volatile String storeFailure;
    private boolean failureReported; // by the drain task only
    private long acked; // written by the drain task only (one at a time)
    private byte[] scratch = new byte[8192];

    FeedConnection(long id, Channel channel, FeedConfig config, Counters feedCounters, Executor writers) {
        this.id = id;
        this.channel = channel;
        this.config = config;
        this.feedCounters = feedCounters;
        this.writers = writers;
        this.decoder = new RecordDecoder(config.format(), config.dataset().keyFields());
        this.framer = new RecordFramer(config.maxRecordBytes(), this);
    }

    CompletableFuture<Void> done() {
        return done;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            int n = in.readableBytes();
            counters.bytes.addAndGet(n);
            feedCounters.bytes.addAndGet(n);
            if (rejecting || stopping) {
                return; // nothing more is applied from this connection
            }
            if (in.hasArray()) {
                framer.feed(in.array(), in.arrayOffset() + in.readerIndex(), n);
            } else {
                while (in.isReadable()) {
                    int k = Math.min(in.readableBytes(), scratch.length);
                    in.readBytes(scratch, 0, k);
                    framer.feed(scratch, 0, k);
                }
            }
        } finally {
            in.release();
        }
        if (queued.get() >= config.queueCapacity()) {
            ctx.channel().config().setAutoRead(false);
            // A writer that drained the queue before auto-read went off saw it on and did not turn it back on:
            // check again, or the connection would never be read again.
            if (queued.get() <= config.queueCapacity() / 2 && !stopping && !rejecting) {
                ctx.channel().config().setAutoRead(true);
            }
        }
        schedule();
    }

    @Override
    public BadRecord onRecord(byte[] bytes, int from, int length, long offset) {
        if (rejecting) {
            return null; // nothing more is applied from this connection
        }
        RecordDecoder.Decoded d = decoder.decode(bytes, from, length, offset);
        if (d.bad() != null) {
            return d.bad(); // reported by the framer through onBadRecord, once per gap
        }
        byte[] head = Arrays.copyOfRange(bytes, from, from + Math.min(length, BadRecord.EXCERPT_BYTES + 1));
        queue.add(new Item(d.key(), d.value(), offset, head));
        int n = queued.incrementAndGet();
        counters.queued(n);
        feedCounters.queued(n);
        return null;
    }

    @Override
    public void onBadRecord(BadRecord bad) {
        bad(bad);
    }

    private void bad(BadRecord bad) {
        counters.error(bad);
        feedCounters.error(bad);
        LOG.log(System.Logger.Level.WARNING, "feed {0} connection {1}: bad record {2}", config.name(), id, bad);
        if (config.badRecords() == BadRecordPolicy.CLOSE_CONNECTION && !rejecting) {
            rejecting = true;
            Channel ch = channel;
            if (ch != null) {
                ch.config().setAutoRead(false);
                ch.close(); // channelInactive finishes once the queue is applied
            }
        }
    }

    /**
     * The client half-closed its socket (the normal end of a stream): the records still queued are applied, then
     * the final acknowledgement is written and the connection closed (see {@link #drain}).
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            endOfInput();
            if (draining.compareAndSet(false, true)) { // a drain, even of nothing, ends with the final ack
                writers.execute(this::drain);
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        endOfInput();
        maybeDone();
        schedule();
        ctx.fireChannelInactive();
    }

    /** No more input: a record cut off by the end is TRUNCATED. On the event loop. */
    private void endOfInput() {
        if (!inputClosed && !rejecting) {
            framer.finish();
        }
        inputClosed = true;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException // a reset by the client: its open record is counted TRUNCATED
                || cause instanceof NotSslRecordException || cause.getCause() instanceof SSLException) {
            LOG.log(System.Logger.Level.INFO, "feed {0} connection {1}: {2}", config.name(), id, cause.toString());
        } else {
            LOG.log(System.Logger.Level.WARNING, "feed " + config.name() + " connection " + id + ": closing", cause);
        }
        ctx.close();
    }

    /** The feed is stopping: read nothing more, apply what is queued, then close. */
    void stopOnEventLoop() {
        channel.eventLoop().execute(this::stop);
    }

    private void stop() {
        stopping = true;
        Channel ch = channel;
        if (ch != null) {
            ch.config().setAutoRead(false);
            if (queued.get() == 0 && !draining.get()) {
                closeAfterFinalAck(ch);
            } else {
                schedule();
            }
        }
    }

    private void schedule() {
        if (!queue.isEmpty() && draining.compareAndSet(false, true)) {
            writers.execute(this::drain);
        }
    }

    /**
     * Applies the queue (up to {@code queueCapacity} records, then acknowledges and reschedules itself). Runs on a
     * writer thread, one task per connection at a time.
     */
    private void drain() {
        Dataset dataset = config.dataset();
        long before = acked;
        // At most one queue's worth per task: under a steady stream the queue never empties, and the ack (and
        // other connections sharing the writer threads) must not wait for it to.
        int budget = Math.max(1, config.queueCapacity());
        Item item;
        List<Item> group = new ArrayList<>();
        Partition groupPartition = null;
        while (budget-- > 0 && (item = queue.poll()) != null) {
            // Queued before any rejection: still applied, never dropped.
            Partition partition = dataset.partitionFor(item.key());
            if (config.insertIfAbsent()) {
                apply(partition, item);
            } else {
                if (partition != groupPartition && !group.isEmpty()) {
                    applyGroup(groupPartition, group);
                    group.clear();
                }
                groupPartition = partition;
                group.add(item);
            }
            int left = queued.decrementAndGet();
            if (left <= config.queueCapacity() / 2 && !stopping && !rejecting) {
                Channel ch = channel;
                if (ch != null && !ch.config().isAutoRead()) {
                    ch.eventLoop().execute(() -> {
                        if (!stopping && !rejecting) {
                            ch.config().setAutoRead(true);
                        }
                    });
                }
            }
        }
        if (!group.isEmpty()) {
            applyGroup(groupPartition, group);
        }
        Channel ch = channel;
        if (config.acks() && acked != before && ch != null && ch.isActive() && ch.isWritable()) {
            ch.writeAndFlush(Unpooled.copiedBuffer("{\"acked\":" + acked + "}\n", StandardCharsets.US_ASCII));
        }
        if (storeFailed && !failureReported) {
            failureReported = true;
            reportStoreFailure(ch);
        }
        draining.set(false);
        // inputClosed is read after draining is cleared, and set before the event loop tries to start a drain:
        // one of the two sees the other, so the final ack is never missed
        if (!queue.isEmpty()) {
            schedule();
        } else if ((stopping || inputClosed) && ch != null && !storeFailed) {
            closeAfterFinalAck(ch);
        }
        maybeDone();
    }

    /**
     * Every record this connection will apply is applied: with acknowledgements on, writes the final
     * {@code {"acked":N}} (also when no record came, or N did not change since the last), then closes. Once.
     */
    private void closeAfterFinalAck(Channel ch) {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        if (config.acks() && ch.isActive()) {
            ch.writeAndFlush(Unpooled.copiedBuffer("{\"acked\":" + acked + "}\n", StandardCharsets.US_ASCII))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ch.close();
        }
    }

    /**
     * Applies consecutive records bound for one partition as one atomic {@link WriteBatch}: one WAL append and one
     * wait for durability instead of one per record. Each record stays whole. If the batch is refused (a record
     * over the store's limits), the records are applied one by one, so only the bad one is rejected and
     * reported; a failing store or an unavailable partition is handled per record too.
     */
    private void applyGroup(Partition partition, List<Item> items) {
        if (items.size() == 1 || storeFailed) {
            items.forEach(i -> apply(partition, i));
            return;
        }
        WriteBatch batch = new WriteBatch();
        for (Item i : items) {
            batch.put(i.key(), i.value());
        }
        try (Partition.Lease lease = partition.acquire(true)) {
            lease.store().write(batch);
        } catch (IOException | RuntimeException e) { // refused whole: the per-record path says which and why
            items.forEach(i -> apply(partition, i));
            return;
        }
        acked += items.size();
        counters.records.addAndGet(items.size());
        feedCounters.records.addAndGet(items.size());
    }

    /**
     * Applies one record. Acknowledgements count a prefix of the stream: after the first record that could not be
     * applied for want of a store (its partition unavailable, or its store failing), nothing more of the connection
     * is applied, and every record it still holds is counted with the same kind.
     */
    private void apply(Partition partition, Item item) {
        if (storeFailed) {
            counters.error(failureKind);
            feedCounters.error(failureKind);
            return;
        }
        Partition.Lease lease;
        try {
            lease = partition.acquire(true);
        } catch (PartitionUnavailableException e) {
            LOG.log(System.Logger.Level.WARNING, "feed {0} connection {1}: {2}; closing the connection",
                    config.name(), id, e.getMessage());
            stopApplying(e.storeFailed() ? ErrorKind.STORE_FAILED : ErrorKind.PARTITION_UNAVAILABLE, item,
                    e.getMessage());
            return;
        }
        try (lease) {
            LsmStore store = lease.store();
            if (config.insertIfAbsent() && store.get(item.key()) != null) {
                counters.duplicates.incrementAndGet();
                feedCounters.duplicates.incrementAndGet();
            } else {
                store.put(item.key(), item.value());
            }
            acked++;
            counters.records.incrementAndGet();
            feedCounters.records.incrementAndGet();
        } catch (IllegalArgumentException e) {
            bad(new BadRecord(ErrorKind.REJECTED, item.offset(), item.excerpt(), e.getMessage()));
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "feed " + config.name() + " connection " + id
                    + ": the store failed; closing the connection", e);
            lease.failed(e);
            stopApplying(ErrorKind.STORE_FAILED, item, partition.writeFailure(e));
        }
    }

    /** Applies nothing more of this connection; the drain task that called us reports it and closes it. */
    private void stopApplying(ErrorKind kind, Item item, String message) {
        storeFailure = message;
        failureKind = kind;
        storeFailed = true;
        rejecting = true;
        BadRecord bad = new BadRecord(kind, item.offset(), item.excerpt(), message);
        counters.error(bad);
        feedCounters.error(bad);
    }

    /**
     * Closes the connection; with acknowledgements on, first tells the client why nothing more is applied
     * ({@code {"error":...,"acked":N}}, after the last ack). Until that line is written the connection reads and
     * discards what the client still sends: closing a socket with unread input resets it, and a reset may drop the
     * line. A client that reads nothing is closed after {@link #REPORT_TIMEOUT_SECONDS} anyway.
     */
    private void reportStoreFailure(Channel ch) {
        if (ch == null) {
            return;
        }
        if (!config.acks() || !ch.isActive()) {
            ch.close();
            return;
        }
        ch.config().setAutoRead(true); // channelRead discards everything now (rejecting)
        String line = "{\"error\":\"" + new String(JsonStringEncoder.getInstance().quoteAsString(
                (failureKind == ErrorKind.STORE_FAILED ? "the store failed: " : "") + storeFailure))
                + "\",\"acked\":" + acked + "}\n";
        ch.writeAndFlush(Unpooled.copiedBuffer(line, StandardCharsets.UTF_8)).addListener(ChannelFutureListener.CLOSE);
        var timeout = ch.eventLoop().schedule(() -> ch.close(), REPORT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ch.closeFuture().addListener(f -> timeout.cancel(false));
    }

    private void maybeDone() {
        if (inputClosed && !draining.get() && queue.isEmpty()) {
            counters.endNanos = System.nanoTime();
            done.complete(null);
        }
    }

    ConnectionStats stats() {
        Channel ch = channel;
        return new ConnectionStats(id, ch == null ? "?" : String.valueOf(ch.remoteAddress()), !done.isDone(),
                counters.records.get(), counters.duplicates.get(), counters.bytes.get(), counters.errors(),
                counters.perSecond(), queued.get(), counters.maxQueued.get());
    }
}
