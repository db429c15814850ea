package io.lsmpolicies.feeds;

import io.netty.handler.ssl.SslContext;
import java.util.Objects;

/**
 * How a feed ingests. Validated when built; an error names the setting, the value and the accepted range.
 *
 * @param name            the feed's name (logs, statistics, thread names)
 * @param format          the record format
 * @param dataset         where records go, by which key
 * @param maxRecordBytes  the largest record accepted, in bytes; default 1 MiB, in [16, 64 MiB]. A record must
 *                        also fit the store's key and value limits, or it is {@link ErrorKind#REJECTED}
 * @param queueCapacity   parsed records a connection may hold before it stops reading its socket (auto-read off;
 *                        on again when the queue is half drained); default 1024, in [1, 1M]. The queue may exceed
 *                        it by the records of one socket read (at most {@link #READ_BUFFER_BYTES} bytes)
 * @param writerThreads   threads applying records to the store, shared by the feed's connections; default 2,
 *                        in [1, 64]. A connection's records are applied in order, by one thread at a time
 * @param ioThreads       Netty event-loop threads reading, framing and parsing the sockets (a connection stays
 *                        on one); default {@link #DEFAULT_IO_THREADS}, in [1, 64]
 * @param insertIfAbsent  put a record only if its key is absent (default false: upsert)
 * @param acks            write {@code {"acked":N}} lines back (default false, as AsterixDB's clients read nothing)
 * @param badRecords      what to do after a bad record; default {@link BadRecordPolicy#LOG_AND_CONTINUE}
 * @param maxConnections  connections open at once; one more is closed at once (and logged), so a flood of
 *                        clients cannot exhaust memory or threads; default 64, in [1, 65536]
 * @param tls             a server TLS context: each connection starts with a TLS handshake (Netty's
 *                        {@code SslHandler}) and its records are read from the decrypted stream; default null,
 *                        plain TCP
 */
public record FeedConfig(String name, RecordFormat format, Dataset dataset, int maxRecordBytes, int queueCapacity,
        int writerThreads, int ioThreads, boolean insertIfAbsent, boolean acks, BadRecordPolicy badRecords,
        int maxConnections, SslContext tls) {

    /**
     * The default event-loop count: the number of processors, at most 64. Parsing happens on the event loops, so
     * with one loop a feed of several connections is bound to one core (measured in docs/feeds.md).
     */
    public static final int DEFAULT_IO_THREADS = Math.min(64, Runtime.getRuntime().availableProcessors());

    /** The largest single socket read, in bytes (Netty's adaptive receive buffer maximum). */
    public static final int READ_BUFFER_BYTES = 64 * 1024;

    /**
     * Checks every setting.
     *
     * @param name            the feed's name (logs, statistics, thread names)
     * @param format          the record format
     * @param dataset         where records go, by which key
     * @param maxRecordBytes  the largest record accepted, in bytes; default 1 MiB, in [16, 64 MiB]. A record must
     *                        also fit the store's key and value limits, or it is {@link ErrorKind#REJECTED}
     * @param queueCapacity   parsed records a connection may hold before it stops reading its socket (auto-read off;
     *                        on again when the queue is half drained); default 1024, in [1, 1M]. The queue may exceed
     *                        it by the records of one socket read (at most {@link #READ_BUFFER_BYTES} bytes)
     * @param writerThreads   threads applying records to the store, shared by the feed's connections; default 2,
     *                        in [1, 64]. A connection's records are applied in order, by one thread at a time
     * @param ioThreads       Netty event-loop threads reading, framing and parsing the sockets (a connection stays
     *                        on one); default {@link #DEFAULT_IO_THREADS}, in [1, 64]
     * @param insertIfAbsent  put a record only if its key is absent (default false: upsert)
     * @param acks            write {@code {"acked":N}} lines back (default false, as AsterixDB's clients read nothing)
     * @param badRecords      what to do after a bad record; default {@link BadRecordPolicy#LOG_AND_CONTINUE}
     * @param maxConnections  connections open at once; one more is closed at once (and logged), so a flood of
     *                        clients cannot exhaust memory or threads; default 64, in [1, 65536]
     * @param tls             a server TLS context: each connection starts with a TLS handshake (Netty's
     *                        {@code SslHandler}) and its records are read from the decrypted stream; default null,
     *                        plain TCP
     * @throws NullPointerException     if {@code format}, {@code dataset} or {@code badRecords} is null
     * @throws IllegalArgumentException naming the setting, the value and the accepted range, if a setting is out of
     *                                   range, the name is blank or {@code tls} is a client context
     */
    public FeedConfig {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(badRecords, "badRecords");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("feed name must not be blank");
        }
        range("maxRecordBytes", maxRecordBytes, 16, 64 << 20);
        range("queueCapacity", queueCapacity, 1, 1 << 20);
        range("writerThreads", writerThreads, 1, 64);
        range("ioThreads", ioThreads, 1, 64);
        range("maxConnections", maxConnections, 1, 65536);
        if (tls != null && tls.isClient()) {
            throw new IllegalArgumentException("feed setting tls must be a server context");
        }
    }

    private static void range(String setting, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("feed setting " + setting + " must be in [" + min + ", " + max
                    + "], was " + value);
        }
    }

    /**
     * A builder of the feed's configuration, every other setting at its default.
     *
     * @param name    the feed's name
     * @param format  the record format its clients send
     * @param dataset the dataset its records go to
     * @return the builder
     */
    public static Builder builder(String name, RecordFormat format, Dataset dataset) {
        return new Builder(name, format, dataset);
    }

    /** A builder starting from the defaults. */
    public static final class Builder {
        private final String name;
        private final RecordFormat format;
        private final Dataset dataset;
        private int maxRecordBytes = 1 << 20;
        private int queueCapacity = 1024;
        private int writerThreads = 2;
        private int ioThreads = DEFAULT_IO_THREADS;
        private boolean insertIfAbsent;
        private boolean acks;
        private BadRecordPolicy badRecords = BadRecordPolicy.LOG_AND_CONTINUE;
        private int maxConnections = 64;
        private SslContext tls;

        private Builder(String name, RecordFormat format, Dataset dataset) {
            this.name = name;
            this.format = format;
            this.dataset = dataset;
        }

        /**
         * Sets the largest record, in bytes (default 1 MiB).
         *
         * @param v bytes, in [16, 64 MiB]
         * @return this builder
         */
        public Builder maxRecordBytes(int v) {
            maxRecordBytes = v;
            return this;
        }

        /**
         * Sets the parsed records one connection may have waiting (default 1,024).
         *
         * @param v records, in [1, 1,048,576]
         * @return this builder
         */
        public Builder queueCapacity(int v) {
            queueCapacity = v;
            return this;
        }

        /**
         * Sets the threads that apply records to the store (default 2).
         *
         * @param v threads, in [1, 64]
         * @return this builder
         */
        public Builder writerThreads(int v) {
            writerThreads = v;
            return this;
        }

        /**
         * Sets the event loops that read and parse (default {@link #DEFAULT_IO_THREADS}).
         *
         * @param v loops, in [1, 64]
         * @return this builder
         */
        public Builder ioThreads(int v) {
            ioThreads = v;
            return this;
        }

        /**
         * Sets whether a record is put only if its key is absent (default false: upsert).
         *
         * @param v whether to insert only
         * @return this builder
         */
        public Builder insertIfAbsent(boolean v) {
            insertIfAbsent = v;
            return this;
        }

        /**
         * Sets whether {@code {"acked":N}} lines are written back (default false).
         *
         * @param v whether to acknowledge
         * @return this builder
         */
        public Builder acks(boolean v) {
            acks = v;
            return this;
        }

        /**
         * Sets the connections open at once (default 64).
         *
         * @param v connections, in [1, 65536]
         * @return this builder
         */
        public Builder maxConnections(int v) {
            maxConnections = v;
            return this;
        }

        /**
         * Sets the server TLS context (default null: plain TCP).
         *
         * @param v a server TLS context, or null
         * @return this builder
         */
        public Builder tls(SslContext v) {
            tls = v;
            return this;
        }

        /**
         * Sets what to do after a bad record (default {@link BadRecordPolicy#LOG_AND_CONTINUE}).
         *
         * @param v the policy
         * @return this builder
         */
        public Builder badRecords(BadRecordPolicy v) {
            badRecords = v;
            return this;
        }

        /**
         * {@return the configuration}
         *
         * @throws IllegalArgumentException naming the setting, the value and the accepted range
         */
        public FeedConfig build() {
            return new FeedConfig(name, format, dataset, maxRecordBytes, queueCapacity, writerThreads, ioThreads,
                    insertIfAbsent, acks, badRecords, maxConnections, tls);
        }
    }
}
