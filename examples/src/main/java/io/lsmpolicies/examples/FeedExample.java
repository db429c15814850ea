package io.lsmpolicies.examples;

import io.lsmpolicies.feeds.Dataset;
import io.lsmpolicies.feeds.Feed;
import io.lsmpolicies.feeds.FeedConfig;
import io.lsmpolicies.feeds.FeedStats;
import io.lsmpolicies.feeds.RecordFormat;
import io.lsmpolicies.lsm.LsmStore;
import io.lsmpolicies.lsm.StoreOptions;
import io.lsmpolicies.records.AdmValue;
import io.lsmpolicies.records.KeyEncoder;
import io.lsmpolicies.records.ValueCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * A socket feed ({@code feeds}) streaming records into a store: what {@code docs/feeds.md} shows, as a region of
 * this file.
 */
public final class FeedExample {
    private FeedExample() {
    }

    /**
     * Streams two ADM records through a feed on loopback into a store in {@code dir}, and returns the stored record
     * of {@code user1}.
     *
     * @throws IOException          if the store cannot be opened or the feed cannot bind
     * @throws InterruptedException if interrupted while the feed stops
     */
    public static AdmValue.Obj run(Path dir) throws IOException, InterruptedException {
        // snippet:start feed
        LsmStore store = LsmStore.open(dir, StoreOptions.defaults());          // WAL SYNC: acknowledged = fsynced
        Feed feed = Feed.create(FeedConfig.builder("ycsb", RecordFormat.ADM,
                        Dataset.of("usertable", store, "YCSB_KEY"))
                .queueCapacity(1024)      // per connection, before auto-read turns off
                .writerThreads(2)         // store writers, shared by the feed's connections
                .acks(true)               // {"acked":N} lines back; off by default (stock clients read nothing)
                .build());
        List<InetSocketAddress> bound = feed.start(List.of(new InetSocketAddress("127.0.0.1", 0))); // 0: any port
        try (Socket client = new Socket(bound.get(0).getAddress(), bound.get(0).getPort());
             OutputStream out = client.getOutputStream();
             BufferedReader acks = new BufferedReader(
                     new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
            // records back to back, no delimiter: what AsterixDB's socket_adapter reads
            out.write("{\"YCSB_KEY\":\"user1\",\"field0\":hex(\"0a1b\")}{\"YCSB_KEY\":\"user2\"}"
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            String line;
            while ((line = acks.readLine()) != null && !line.equals("{\"acked\":2}")) {
                // each line counts this connection's records applied so far, in stream order
            }
        }
        feed.stop();                      // drain, then release threads
        FeedStats stats = feed.stats();   // records, bytes, errors by kind
        AdmValue.Obj rec = (AdmValue.Obj) ValueCodec.decode(store.get(KeyEncoder.of("user1"))); // module records
        store.close();                    // the feed never owns the store
        // snippet:end feed
        if (stats.records() != 2) {
            throw new AssertionError("expected 2 records, the feed counted " + stats);
        }
        return rec;
    }

    /** Runs the example on the directory given as the first argument. */
    public static void main(String[] args) throws IOException, InterruptedException {
        System.out.println(run(Path.of(args[0])));
    }
}
