package io.lsmpolicies.feeds;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A socket data feed, with AsterixDB's lifecycle: {@link #create} (name, format, dataset), {@link #start}
 * (listen on one or more addresses; clients stream records), {@link #stop} (drain), {@link #stats}. A stopped
 * feed cannot be restarted; create a new one.
 *
 * <pre>{@code
 * Feed feed = Feed.create(FeedConfig.builder("ycsb", RecordFormat.ADM, Dataset.of("usertable", store, "YCSB_KEY"))
 *         .build());
 * List<InetSocketAddress> bound = feed.start(List.of(new InetSocketAddress("127.0.0.1", 10001)));
 * ...
 * feed.stop();
 * }</pre>
 *
 * Thread-safe. Each feed has its own Netty event loops (one acceptor, {@link FeedConfig#ioThreads()} readers)
 * and its own writer executor; see {@link FeedConnection} for the threading of a connection.
 */
public final class Feed implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Feed.class.getName());

    /** A feed's lifecycle: CREATED -> RUNNING -> STOPPING -> STOPPED (or CREATED -> STOPPED). */
    public enum State {
        /** Made, not started. */
        CREATED,
        /** Listening and applying records. */
        RUNNING,
        /** Draining: no longer accepting or reading. */
        STOPPING,
        /** Stopped; its threads released. */
        STOPPED
    }

    private final FeedConfig config;
    private final Counters counters = new Counters();
    private final AtomicLong connectionIds = new AtomicLong();
    /**
     * Connections accepted, counted only once each is in {@link #open}: a stats reader that sees a connection
     * counted and none open knows it is done (counting at the id would show it counted but not yet open).
     */
    private final AtomicLong accepted = new AtomicLong();
    private final Map<Long, FeedConnection> open = new ConcurrentSkipListMap<>();
    private volatile State state = State.CREATED;
    private EventLoopGroup acceptors;
    private EventLoopGroup readers;
    private ExecutorService writers;
    private final List<Channel> listeners = new ArrayList<>();
    private long startNanos;

    private Feed(FeedConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * A feed of {@code config}, not started.
     *
     * @param config the feed's configuration
     * @return the feed, {@code CREATED}
     */
    public static Feed create(FeedConfig config) {
        return new Feed(config);
    }

    /** {@return the feed's configuration} */
    public FeedConfig config() {
        return config;
    }

    /** {@return the feed's name} */
    public String name() {
        return config.name();
    }

    /** {@return the feed's lifecycle state} */
    public State state() {
        return state;
    }

    /**
     * Starts listening on every address (port 0: any free port) and returns the bound addresses, in order. If a
     * bind fails, nothing stays bound and the feed stays CREATED.
     *
     * @param addresses the addresses to listen on
     * @return the bound addresses, in the same order
     * @throws IllegalStateException if the feed is not CREATED
     * @throws IOException           naming the address that could not be bound
     */
    public synchronized List<InetSocketAddress> start(List<InetSocketAddress> addresses) throws IOException {
        if (state != State.CREATED) {
            throw new IllegalStateException("feed " + name() + " is " + state + ", not CREATED");
        }
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("feed " + name() + ": no address to listen on");
        }
        acceptors = new NioEventLoopGroup(1, new DefaultThreadFactory("feed-" + name() + "-accept", true));
        readers = new NioEventLoopGroup(config.ioThreads(), new DefaultThreadFactory("feed-" + name() + "-io", true));
        writers = Executors.newFixedThreadPool(config.writerThreads(),
                new DefaultThreadFactory("feed-" + name() + "-writer", true));
        ServerBootstrap b = new ServerBootstrap()
                .group(acceptors, readers)
                .channel(NioServerSocketChannel.class)
                // a client's half-close (the end of its stream) leaves our side open for the final ack
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR,
                        new AdaptiveRecvByteBufAllocator(512, 8192, FeedConfig.READ_BUFFER_BYTES))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accept(ch);
                    }
                });
        List<InetSocketAddress> bound = new ArrayList<>();
        try {
            for (InetSocketAddress a : addresses) {
                Channel ch = b.bind(a).sync().channel();
                listeners.add(ch);
                bound.add((InetSocketAddress) ch.localAddress());
            }
        } catch (Exception e) { // a bind failure is thrown unchecked by sync()
            shutdownResources();
            listeners.clear();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("feed " + name() + ": cannot listen on " + addresses.get(bound.size()) + ": "
                    + e.getMessage(), e);
        }
        startNanos = System.nanoTime();
        state = State.RUNNING;
        LOG.log(System.Logger.Level.INFO, "feed {0} listening on {1}", name(), bound);
        return List.copyOf(bound);
    }

    /**
     * Starts on one loopback port chosen by the system.
     *
     * @return the bound address
     * @throws IOException if the port cannot be bound
     */
    public InetSocketAddress startOnLoopback() throws IOException {
        return start(List.of(new InetSocketAddress("127.0.0.1", 0))).get(0);
    }

    private void accept(SocketChannel ch) {
        if (state != State.RUNNING) {
            ch.close();
            return;
        }
        if (open.size() >= config.maxConnections()) {
            LOG.log(System.Logger.Level.WARNING, "feed {0}: {1} connections open, the limit; refusing {2}",
                    name(), open.size(), ch.remoteAddress());
            counters.refusedConnections.incrementAndGet();
            ch.close();
            return;
        }
        long id = connectionIds.incrementAndGet();
        FeedConnection c = new FeedConnection(id, ch, config, counters, writers);
        open.put(id, c);
        accepted.incrementAndGet();
        c.done().whenComplete((v, e) -> open.remove(id, c));
        if (config.tls() != null) {
            ch.pipeline().addLast(config.tls().newHandler(ch.alloc()));
        }
        ch.pipeline().addLast(c);
    }

    /**
     * Stops the feed and drains it: stops accepting, stops reading every connection, applies every record
     * already parsed (a record cut off in the middle is {@link ErrorKind#TRUNCATED}), closes the connections,
     * then releases the threads. Waits at most {@code timeout} for the drain (a stalled store may hold it);
     * then the connections are closed anyway, and records still queued are not applied (nor acknowledged).
     * Idempotent.
     *
     * @param timeout the longest wait for the drain
     * @param unit    the unit of {@code timeout}
     * @return whether the drain finished in time
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean stop(long timeout, TimeUnit unit) throws InterruptedException {
        synchronized (this) {
            if (state == State.STOPPED || state == State.STOPPING) {
                return true;
            }
            if (state == State.CREATED) {
                state = State.STOPPED;
                return true;
            }
            state = State.STOPPING;
        }
        for (Channel l : listeners) {
            l.close().sync();
        }
        List<CompletableFuture<Void>> drains = new ArrayList<>();
        for (Map.Entry<Long, FeedConnection> e : open.entrySet()) {
            // Wait for the removal from the open set, not only for done(): done()'s dependents run in no set
            // order, so a drain that waited for done() alone could report a connection still open.
            FeedConnection c = e.getValue();
            drains.add(c.done().whenComplete((v, x) -> open.remove(e.getKey(), c)));
            c.stopOnEventLoop();
        }
        boolean drained = true;
        try {
            CompletableFuture.allOf(drains.toArray(new CompletableFuture<?>[0])).get(timeout, unit);
        } catch (TimeoutException e) {
            drained = false;
            LOG.log(System.Logger.Level.WARNING, "feed {0}: drain did not finish in {1} {2}", name(), timeout, unit);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        shutdownResources();
        counters.endNanos = System.nanoTime();
        state = State.STOPPED;
        LOG.log(System.Logger.Level.INFO, "feed {0} stopped: {1}", name(), stats());
        return drained;
    }

    /**
     * {@link #stop(long, TimeUnit)} with a one-minute drain limit.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public void stop() throws InterruptedException {
        stop(1, TimeUnit.MINUTES);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private void shutdownResources() {
        if (readers != null) {
            readers.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (acceptors != null) {
            acceptors.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (writers != null) {
            writers.shutdownNow();
        }
    }

    /** {@return a snapshot of the feed's statistics} */
    public FeedStats stats() {
        long connections = accepted.get(); // before the open set: each counted connection is then in it or done
        List<ConnectionStats> conns = new ArrayList<>();
        for (FeedConnection c : open.values()) {
            conns.add(c.stats());
        }
        double rate = state == State.CREATED ? 0 : counters.perSecondSince(startNanos);
        return new FeedStats(name(), state, counters.records.get(), counters.duplicates.get(), counters.bytes.get(),
                counters.errors(), rate, counters.maxQueued.get(), connections, conns, counters.recent(),
                counters.refusedConnections.get());
    }
}
