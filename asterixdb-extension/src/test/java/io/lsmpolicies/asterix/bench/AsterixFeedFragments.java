package io.lsmpolicies.asterix.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.lsmpolicies.asterix.ClusterSettings;
import io.lsmpolicies.asterix.EmbeddedAsterixDb;
import io.lsmpolicies.asterix.SqlppClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code bin/feed-fragments-asterix}: what a stock AsterixDB 0.9.8 socket feed keeps of a stream of YCSB records
 * with a malformed fragment among them (docs/feeds.md, "Resynchronisation"). For each of ten fragment kinds: writes
 * {@code <dir>/fragment-<k>.adm}, N records with the fragment before record N/2 (kept, to send the same bytes to
 * our feed), sends it through one socket of a new {@code adm} socket feed into a new dataset of an embedded node (a
 * CC and one NC, as {@code bin/bench-feed-asterix}), waits until the dataset's count has not changed for 10 s,
 * and prints which records are missing, which keys are not the stream's, and whether the feed closed the socket.
 * Options: {@code --records N} (2000), {@code --dir D} (required, must not exist).
 */
public final class AsterixFeedFragments {
    private static final String DV = "frag";

    /** The fragment kinds. */
    static List<byte[]> fragments() {
        List<byte[]> f = new ArrayList<>();
        f.add(ascii("{\"YCSB_KEY\":\"cut1\",\"field0\":hex(\"0A1B")); // a record cut off mid-field
        f.add(ascii("{{")); // extra opening braces
        f.add(ascii("}}")); // extra closing braces
        f.add(ascii("{\"a\":[1,2")); // an unclosed bracket (and brace)
        f.add(ascii("]")); // an extra bracket
        f.add(ascii("{\"YCSB_KEY\":\"cut6\",\"field0\":\"abc")); // an unclosed string
        f.add(ascii("{\"YCSB_KEY\":\"cut7\",\"field0\":hex(")); // a truncated hex(
        f.add(ascii("garbage")); // stray bytes
        ByteArrayOutputStream utf8 = new ByteArrayOutputStream();
        utf8.writeBytes(ascii("{\"YCSB_KEY\":\"cut9\",\"field0\":\""));
        utf8.write(0xFF);
        utf8.write(0xFE);
        utf8.writeBytes(ascii("\"}"));
        f.add(utf8.toByteArray()); // invalid UTF-8
        f.add(ascii("{\"YCSB_KEY\":\"big\",\"field0\":hex(\"" + "0A".repeat(1 << 20) + "\")}")); // over 1 MiB
        return f;
    }

    private AsterixFeedFragments() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = run(args);
        } catch (Exception | Error e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status); // AsterixDB 0.9.8 leaves non-daemon threads behind
    }

    private static int run(String[] args) throws Exception {
        long records = 2_000;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--records" -> records = Long.parseLong(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: feed-fragments-asterix --dir D [--records N]");
                    return 2;
                }
            }
        }
        if (dir == null || Files.exists(dir) || records < 2) {
            System.err.println("feed-fragments-asterix: --dir must name a directory that does not exist;"
                    + " --records at least 2");
            return 2;
        }
        Files.createDirectories(dir);
        List<byte[]> fragments = fragments();
        try (EmbeddedAsterixDb db = EmbeddedAsterixDb.start(dir.resolve("cluster"),
                new ClusterSettings(1, 2, "128KB", "128MB", "64MB", false))) {
            SqlppClient sqlpp = db.sqlpp();
            sqlpp.run("CREATE DATAVERSE " + DV + "; USE " + DV + "; CREATE TYPE UserType AS OPEN { YCSB_KEY: string };");
            for (int k = 0; k < fragments.size(); k++) {
                Path stream = dir.resolve("fragment-" + (k + 1) + ".adm");
                try (OutputStream out = Files.newOutputStream(stream)) {
                    for (long i = 0; i < records; i++) {
                        if (i == records / 2) {
                            out.write(fragments.get(k));
                        }
                        out.write(YcsbAdmStream.record(i));
                    }
                }
                System.out.printf("fragment %d: %s%n", k + 1, describe(fragments.get(k)));
                System.out.printf("  AsterixDB 0.9.8 socket feed: %s%n", ingest(db, sqlpp, k + 1, stream, records));
            }
        }
        return 0;
    }

    private static String describe(byte[] fragment) {
        String s = new String(fragment, 0, Math.min(fragment.length, 48), StandardCharsets.ISO_8859_1);
        return s.replace("\u00ff", "\\xFF").replace("\u00fe", "\\xFE") + (fragment.length > 48 ? "... ("
                + fragment.length + " bytes)" : "");
    }

    /** Streams {@code stream} into a new dataset through a new feed; what the dataset holds once it is stable. */
    private static String ingest(EmbeddedAsterixDb db, SqlppClient sqlpp, int n, Path stream, long records)
            throws Exception {
        int port = EmbeddedAsterixDb.freePort();
        String dataset = "usertable_" + n;
        String feed = "ycsb_" + n;
        sqlpp.run("USE " + DV + "; CREATE DATASET " + dataset + "(UserType) PRIMARY KEY YCSB_KEY;"
                + "CREATE FEED " + feed + " WITH {\"adapter-name\": \"socket_adapter\", \"sockets\": \""
                + db.nodes().get(0) + ":" + port + "\", \"address-type\": \"nc\", \"type-name\": \"UserType\","
                + " \"format\": \"adm\"};"
                + "CONNECT FEED " + feed + " TO DATASET " + dataset + "; START FEED " + feed + ";");
        long sent = 0;
        long size = Files.size(stream);
        String sending = "all " + size + " bytes sent";
        try (SocketChannel channel = awaitListening(port);
                FileChannel in = FileChannel.open(stream, StandardOpenOption.READ)) {
            while (sent < size) {
                sent += in.transferTo(sent, size - sent, channel);
            }
        } catch (IOException e) {
            sending = "the feed closed the connection after " + sent + " of " + size + " bytes (" + e.getMessage()
                    + ")";
        }
        long count = -1;
        long stableSince = System.nanoTime();
        while (System.nanoTime() - stableSince < 10_000_000_000L) {
            Thread.sleep(500);
            long c = sqlpp.count(DV, dataset);
            if (c != count) {
                count = c;
                stableSince = System.nanoTime();
            }
        }
        Set<String> keys = new HashSet<>();
        for (JsonNode key : sqlpp.run("USE " + DV + "; SELECT VALUE u.YCSB_KEY FROM " + dataset + " u;")) {
            keys.add(key.asText());
        }
        List<String> missing = new ArrayList<>();
        long runStart = -1;
        for (long i = 0; i <= records; i++) {
            boolean absent = i < records && !keys.remove("user" + i);
            if (absent && runStart < 0) {
                runStart = i;
            } else if (!absent && runStart >= 0) {
                missing.add(runStart == i - 1 ? "user" + runStart : "user" + runStart + "..user" + (i - 1));
                runStart = -1;
            }
        }
        try {
            sqlpp.run("USE " + DV + "; STOP FEED " + feed + ";");
        } catch (IllegalStateException e) { // a feed that failed has stopped already
            sending += "; STOP FEED: " + e.getMessage().substring(0, Math.min(200, e.getMessage().length()));
        }
        return "kept " + (count - keys.size()) + " of " + records + " records; missing " + missing + "; other keys "
                + keys + "; " + sending;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static SocketChannel awaitListening(int port) throws IOException, InterruptedException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                return SocketChannel.open(address);
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("AsterixDB's socket feed did not listen on " + address, e);
                }
                Thread.sleep(50);
            }
        }
    }
}
