package io.lsmpolicies.asterix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * A client of AsterixDB's {@code socket_adapter}, as the AsterixDB YCSB client is one: it connects to a feed's
 * socket on 127.0.0.1, writes ADM records back to back and reads nothing.
 */
final class SocketFeedClient {

    private SocketFeedClient() {
    }

    /**
     * Sends records {@code from} (inclusive) to {@code to} (exclusive), rendered by {@code record}, to
     * {@code port}, then closes the connection. AsterixDB's socket adapter starts listening a moment after
     * {@code START FEED} returns, so the connection is retried for up to {@code connectWithin}.
     */
    static void send(int port, long from, long to, LongFunction<String> record, Duration connectWithin)
            throws IOException, InterruptedException {
        try (SocketChannel channel = connect(port, connectWithin)) {
            StringBuilder batch = new StringBuilder(1 << 16);
            for (long i = from; i < to; i++) {
                batch.append(record.apply(i));
                if (batch.length() >= 1 << 15 || i == to - 1) {
                    ByteBuffer bytes = ByteBuffer.wrap(batch.toString().getBytes(StandardCharsets.UTF_8));
                    while (bytes.hasRemaining()) {
                        channel.write(bytes);
                    }
                    batch.setLength(0);
                }
            }
        }
    }

    /** {@link #send} to each of {@code ports} at once, each a contiguous share of records {@code [from, to)}. */
    static void sendInParallel(List<Integer> ports, long from, long to, LongFunction<String> record,
            Duration connectWithin) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        int n = ports.size();
        for (int c = 0; c < n; c++) {
            long a = from + (to - from) * c / n;
            long b = from + (to - from) * (c + 1) / n;
            int port = ports.get(c);
            Thread t = new Thread(() -> {
                try {
                    send(port, a, b, record, connectWithin);
                } catch (IOException | InterruptedException | RuntimeException e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "feed-client-" + port);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!failures.isEmpty()) {
            UncheckedIOException e = new UncheckedIOException(new IOException("feed client failed: "
                    + failures.get(0), failures.get(0)));
            failures.stream().skip(1).forEach(e::addSuppressed);
            throw e;
        }
    }

    static SocketChannel connect(int port, Duration within) throws IOException, InterruptedException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            try {
                return SocketChannel.open(address);
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("AsterixDB's socket feed did not accept on " + address + " within "
                            + within, e);
                }
                Thread.sleep(100);
            }
        }
    }
}
