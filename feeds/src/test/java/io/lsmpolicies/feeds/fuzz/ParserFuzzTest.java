package io.lsmpolicies.feeds.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.lsmpolicies.feeds.BadRecord;
import io.lsmpolicies.feeds.RecordFormat;
import io.lsmpolicies.feeds.RecordFramer;
import io.lsmpolicies.feeds.RecordSyntaxException;
import io.lsmpolicies.feeds.server.ApiRequest;
import io.lsmpolicies.feeds.server.ApiRequestException;
import io.lsmpolicies.feeds.server.ConfigException;
import io.lsmpolicies.feeds.server.DescriptorParser;
import io.lsmpolicies.feeds.server.RequestParser;
import io.lsmpolicies.records.ValueCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fuzz targets for what the node server reads from outside: the record framer, the ADM and JSON
 * parsers, the stored-value decoder, the cluster descriptor parser and the HTTP API's request parser. Each input is
 * accepted or refused with the component's typed error; any other exception, a hang or an out-of-memory is a bug.
 * The default build replays the saved inputs under
 * {@code src/test/resources/io/lsmpolicies/feeds/fuzz/ParserFuzzTestInputs/<target>/};
 * {@code JAZZER_FUZZ=1 ./mvnw -pl feeds test -Dtest=ParserFuzzTest#<target>} fuzzes one target.
 */
class ParserFuzzTest {

    /** A well-formed record that the framer target appends to its garbage. */
    private static final byte[] GOOD = "{\"YCSB_KEY\":\"after-garbage\",\"field0\":hex(\"0a1b\")}"
            .getBytes(StandardCharsets.UTF_8);

    /**
     * Garbage, then a well-formed record, cut into reads of 7 bytes: the record is framed and taken, whatever the
     * garbage; every candidate given to the sink is brace-framed and within the limit; at most the limit is
     * buffered; nothing throws.
     */
    @FuzzTest(maxDuration = "30s")
    void framer(byte[] data) {
        List<Long> taken = new ArrayList<>();
        FramerTarget sink = new FramerTarget(taken);
        RecordFramer f = new RecordFramer(256, sink);
        byte[] stream = Arrays.copyOf(data, data.length + GOOD.length);
        System.arraycopy(GOOD, 0, stream, data.length, GOOD.length);
        for (int i = 0; i < stream.length; i += 7) {
            f.feed(stream, i, Math.min(7, stream.length - i));
            if (f.bufferedBytes() > 256) {
                throw new AssertionError("buffered " + f.bufferedBytes() + " bytes past the limit");
            }
        }
        f.finish();
        if (!taken.contains((long) data.length)) {
            throw new AssertionError("the well-formed record after the garbage was not framed; taken " + taken);
        }
    }

    /** One framed record in the adm format; what parses must encode and decode back to itself. */
    @FuzzTest(maxDuration = "30s")
    void adm(byte[] data) {
        try {
            var record = RecordFormat.ADM.parse(data, 0, data.length);
            if (!ValueCodec.decode(ValueCodec.encode(record)).equals(record)) {
                throw new AssertionError("a parsed record does not round-trip through the stored encoding");
            }
        } catch (RecordSyntaxException expected) {
            // refused, with a position
        }
    }

    /** One framed record in the json format. */
    @FuzzTest(maxDuration = "30s")
    void json(byte[] data) {
        try {
            RecordFormat.JSON.parse(data, 0, data.length);
        } catch (RecordSyntaxException expected) {
            // refused, with a position
        }
    }

    /** A stored value (a damaged one must be refused, never misread as another type). */
    @FuzzTest(maxDuration = "30s")
    void storedValue(byte[] data) {
        try {
            ValueCodec.decode(data);
        } catch (IllegalArgumentException expected) {
            // refused, naming the offset
        }
    }

    /** A cluster descriptor file. */
    @FuzzTest(maxDuration = "30s")
    void descriptor(byte[] data) throws IOException {
        Path file = Files.createTempFile("fuzz", ".conf");
        try {
            Files.write(file, data);
            DescriptorParser.parse(file);
        } catch (ConfigException expected) {
            // refused, naming the line and the key
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static final String[] METHODS = {"GET", "DELETE", "POST", "PUT"};
    private static final Map<String, List<String>> DATASETS = Map.of("usertable", List.of("YCSB_KEY"),
            "orders", List.of("customer", "id"));

    /**
     * An HTTP request: the first byte picks the method, the rest is the request target, one char per byte as
     * Netty's decoder gives it. Parsed or refused with a status of 400, 404 or 405; what parses is checked.
     */
    @FuzzTest(maxDuration = "60s")
    void httpRequest(byte[] data) {
        if (data.length == 0) {
            return;
        }
        String method = METHODS[(data[0] & 0xFF) % METHODS.length];
        String target = new String(data, 1, data.length - 1, StandardCharsets.ISO_8859_1);
        ApiRequest r;
        try {
            r = RequestParser.parse(method, target, DATASETS::get, Set.of("ycsb")::contains);
        } catch (ApiRequestException e) {
            if (e.status() != 400 && e.status() != 404 && e.status() != 405) {
                throw new AssertionError("status " + e.status() + " for " + target, e);
            }
            if (e.getMessage() == null || e.getMessage().isEmpty()) {
                throw new AssertionError("no message for " + target);
            }
            return;
        }
        if (r instanceof ApiRequest.Range range) {
            if (range.limit() < 1 || range.limit() > ApiRequest.MAX_LIMIT) {
                throw new AssertionError("limit " + range.limit() + " accepted from " + target);
            }
            nonEmpty(range.from(), target);
            nonEmpty(range.to(), target);
        } else if (r instanceof ApiRequest.Get g) {
            nonEmpty(g.key(), target);
        } else if (r instanceof ApiRequest.Delete d) {
            nonEmpty(d.key(), target);
        }
        if (r.changesState() == method.equals("GET")) {
            throw new AssertionError(method + " parsed as " + r);
        }
    }

    private static void nonEmpty(byte[] key, String target) {
        if (key != null && key.length == 0) {
            throw new AssertionError("an empty key from " + target + ": " + Arrays.toString(key));
        }
    }
}
