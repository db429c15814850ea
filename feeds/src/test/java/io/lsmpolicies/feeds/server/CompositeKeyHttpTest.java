package io.lsmpolicies.feeds.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Records of a dataset with a composite primary key, named over HTTP as JSON arrays. */
@Timeout(60)
class CompositeKeyHttpTest {
    @TempDir
    Path tmp;
    private final HttpGet http = new HttpGet();

    private HttpGet.Reply get(NodeServer s, String path, String... query) throws Exception {
        return http.get(s, path, query);
    }

    private static String encoded(String segment) {
        return HttpGet.encoded(segment);
    }

    @Test
    void aCompositeKeyIsAJsonArrayAndARangeBoundMayBeAPrefix() throws Exception {
        String conf = "[nc/nc1]\niodevices = " + tmp.resolve("io0") + ", " + tmp.resolve("io1") + "\n"
                + "[nc]\nstorage.wal.mode = async\n[http]\nport = 0\n"
                + "[dataset/orders]\nprimary-key = customer, id\n"
                + "[feed/f]\ndataset = orders\nformat = json\naddresses = 127.0.0.1:0\n";
        Path file = Files.writeString(tmp.resolve("node.conf"), conf, StandardCharsets.UTF_8);
        try (NodeServer s = NodeServer.start(DescriptorParser.parse(file, true))) {
            InetSocketAddress feed = s.feedAddresses("f").get(0);
            StringBuilder records = new StringBuilder();
            for (String customer : List.of("ann", "bob", "bo,b")) {
                for (int id = -2; id <= 2; id++) {
                    records.append("{\"customer\":\"").append(customer).append("\",\"id\":").append(id)
                            .append(",\"total\":").append(id * 10).append("}\n");
                }
            }
            try (Socket c = new Socket(feed.getAddress(), feed.getPort())) {
                OutputStream out = c.getOutputStream();
                out.write(records.toString().getBytes(StandardCharsets.UTF_8));
            }
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (s.feed("f").stats().records() < 15 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(s.feed("f").stats().records()).isEqualTo(15);

            HttpGet.Reply one = get(s, "/datasets/orders/records/" + encoded("[\"bo,b\",-1]"));
            assertThat(one.status()).isEqualTo(200);
            assertThat(one.body().get("total").asLong()).isEqualTo(-10);
            assertThat(get(s, "/datasets/orders/records/" + encoded("[\"bob\",7]")).status()).isEqualTo(404);

            // every order of bob: from the prefix ["bob"] to the prefix ["bob", max]
            HttpGet.Reply range = get(s, "/datasets/orders/records", "from", "[\"bob\"]", "to",
                    "[\"bob\"," + Long.MAX_VALUE + "]");
            assertThat(range.status()).isEqualTo(200);
            List<Long> ids = new ArrayList<>();
            range.body().forEach(r -> {
                assertThat(r.get("customer").asText()).isEqualTo("bob");
                ids.add(r.get("id").asLong());
            });
            assertThat(ids).containsExactly(-2L, -1L, 0L, 1L, 2L); // integers in numeric order, negatives first

            HttpGet.Reply single = get(s, "/datasets/orders/records/ann");
            assertThat(single.status()).isEqualTo(400);
            assertThat(single.body().get("error").asText()).contains("composite key").contains("JSON array");
            HttpGet.Reply partial = get(s, "/datasets/orders/records/" + encoded("[\"ann\"]"));
            assertThat(partial.status()).isEqualTo(400);
            assertThat(partial.body().get("error").asText()).contains("2 value(s)");
            HttpGet.Reply badType = get(s, "/datasets/orders/records/" + encoded("[\"ann\",true]"));
            assertThat(badType.status()).isEqualTo(400);
            assertThat(badType.body().get("error").asText()).contains("key field id");
        }
    }
}
