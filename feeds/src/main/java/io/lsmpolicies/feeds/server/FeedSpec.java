package io.lsmpolicies.feeds.server;

import io.lsmpolicies.feeds.BadRecordPolicy;
import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.FeedConfig;
import io.lsmpolicies.feeds.RecordFormat;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * A {@code [feed/<name>]} section: which dataset, which format, where to listen, and the {@link FeedConfig}
 * settings (already range-checked by the parser).
 *
 * @param tls           the feed's TLS context, or null for plain TCP
 * @param addressesLine the line of the {@code addresses} key, for bind errors
 */
public record FeedSpec(String name, String dataset, RecordFormat format, List<InetSocketAddress> addresses,
        int maxRecordBytes, int queueCapacity, int writerThreads, int ioThreads, boolean insertIfAbsent,
        boolean acks, BadRecordPolicy badRecords, int maxConnections, SslContext tls, int addressesLine) {
    public FeedSpec {
        addresses = List.copyOf(addresses);
    }

    /** The feed's configuration, writing into {@code target}. */
    public FeedConfig config(Dataset target) {
        return FeedConfig.builder(name, format, target)
                .maxRecordBytes(maxRecordBytes)
                .queueCapacity(queueCapacity)
                .writerThreads(writerThreads)
                .ioThreads(ioThreads)
                .insertIfAbsent(insertIfAbsent)
                .acks(acks)
                .badRecords(badRecords)
                .maxConnections(maxConnections)
                .tls(tls)
                .build();
    }
}
