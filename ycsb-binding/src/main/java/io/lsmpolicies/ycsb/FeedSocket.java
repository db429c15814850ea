package io.lsmpolicies.ycsb;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * One client connection to a socket feed: records go out back to back, as ADM text with no delimiter (the
 * AsterixDB YCSB client's stream), through a 64 KiB buffer; if the feed acknowledges ({@code acks = true}), the
 * {@code {"acked":N}} lines it writes back are read on demand by {@link #awaitAck}. N counts this connection's
 * records applied, in stream order, so record {@code n} (1-based) is in the store once an ack of at least
 * {@code n} arrives. Not thread-safe: one per client thread.
 */
final class FeedSocket implements Closeable {
    static final int BUFFER_BYTES = 64 * 1024;

    private final InetSocketAddress address;
    private final Duration timeout;
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private long sent;
    private long acked;

    private FeedSocket(InetSocketAddress address, Duration timeout, Socket socket) throws IOException {
        this.address = address;
        this.timeout = timeout;
        this.socket = socket;
        this.out = new BufferedOutputStream(socket.getOutputStream(), BUFFER_BYTES);
        this.in = new BufferedInputStream(socket.getInputStream(), 1024);
    }

    /** @throws IOException if nothing accepts connections at {@code address} within {@code timeout} */
    static FeedSocket connect(InetSocketAddress address, Duration timeout) throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(address, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            return new FeedSocket(address, timeout, s);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** This end of the connection (the feed lists it as the connection's remote address). */
    InetSocketAddress localAddress() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    /** Buffers one record; returns its 1-based number on this connection. */
    long send(byte[] record) throws IOException {
        out.write(record);
        return ++sent;
    }

    /** Records given to {@link #send} on this connection so far. */
    long sent() {
        return sent;
    }

    /** Sends what is buffered. */
    void flush() throws IOException {
        out.flush();
    }

    /**
     * Sends what is buffered, then reads acknowledgements until one covers record {@code n}.
     *
     * @throws IOException if none does within the timeout (the feed does not acknowledge, or refused a record:
     *                     acks count applied records only), or the feed closed the connection
     */
    void awaitAck(long n) throws IOException {
        out.flush();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (acked < n) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw noAck(n);
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            long a;
            try {
                a = readAck();
            } catch (SocketTimeoutException e) {
                throw noAck(n);
            }
            acked = Math.max(acked, a);
        }
    }

    private IOException noAck(long n) {
        return new IOException("no acknowledgement of record " + n + " on this connection to the feed at " + address
                + " within " + timeout.toMillis() + " ms (last: " + acked + "). Does the feed set acks = true ("
                + BindingConfig.ACKS + "=true asks for it)? Acks count applied records only: a refused record "
                + "(see GET /feeds/NAME/stats) is never acknowledged");
    }

    /** Reads one {@code {"acked":N}} line; returns N. */
    private long readAck() throws IOException {
        long value = -1;
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new IOException("the feed at " + address + " closed the connection (last ack: " + acked + ")");
            }
            if (c >= '0' && c <= '9') {
                value = (value < 0 ? 0 : value * 10) + (c - '0');
            }
        }
        if (value < 0) {
            throw new IOException("the feed at " + address + " sent an acknowledgement line without a count");
        }
        return value;
    }

    /**
     * Sends what is buffered, ends the stream and waits (at most the timeout) for the feed to close its side, so
     * no record is lost to a reset; unread acknowledgements are discarded. The feed applies the records still
     * queued after the connection is gone.
     */
    @Override
    public void close() throws IOException {
        try {
            out.flush();
            socket.shutdownOutput();
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            byte[] skip = new byte[4096];
            while (in.read(skip) >= 0) {
                // acknowledgements nobody waited for
            }
        } catch (SocketTimeoutException e) {
            // the feed kept the connection open; closing now loses nothing already received
        } finally {
            socket.close();
        }
    }
}
